package command

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/jobopt"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/rlimit"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// Srun runs srun with args: a job step inside the allocation SLURM_JOB_ID
// (or --jobid) names, or in an interactive allocation it makes for the
// step and releases after it. It returns the highest exit status of the
// tasks (128+N for a task killed by signal N), 1 when the step could not
// be created, 255 for options the client rejects.
func Srun(ctx context.Context, env *Env, args []string) int {
	// srun and salloc live as long as their step or command: collect
	// garbage as usual (Main turns it off for the short commands).
	debug.SetGCPercent(100)
	return runSrun(ctx, env, args, osStepHooks())
}

// srunRun is one srun invocation after its options were parsed.
type srunRun struct {
	env   *Env
	w     *output
	h     stepHooks
	c     stepController
	res   *jobopt.StepResult
	sigs  chan os.Signal
	jobID uint32
	// jobEnv are the job's SLURM_* variables when srun made or attached
	// to the allocation itself (inside a batch script they are set).
	jobEnv    []string
	jobNodes  int
	allocator *allocator
	// multiProg is the --multi-prog configuration ("" without it).
	multiProg string
	// pty is srun's terminal under --pty (nil without it, or when
	// standard input is not a terminal).
	pty *srunPty
}

func runSrun(ctx context.Context, env *Env, args []string, h stepHooks) int {
	env = lockedStderr(env) // the notice watch writes there too
	w := newOutput(env, "srun")
	warnExitVars(env, w, "SLURM_EXIT_ERROR", "SLURM_EXIT_IMMEDIATE")
	p := &jobopt.Parser{Prog: "srun", Argv0: env.Argv0, UserKnown: userKnown(env), GroupKnown: groupKnown(env), Env: env.Environ, Cwd: env.Cwd, Now: env.Now(), Root: env.UID == 0, Host: env.Host}
	res, err := p.Srun(args)
	if err != nil {
		return w.exit(optionError(w, err))
	}
	if informed(w, res.Action, srunHelp, srunUsage) {
		return w.exit(0)
	}
	multiProg := ""
	if res.Step.MultiProg {
		var code int
		if res, multiProg, code = srunMultiProg(w, env, p, args, res); code != 0 {
			return w.exit(code)
		}
	}
	w.lines(res.Warnings)
	if res.Step.Verbose > 0 {
		w.lines(jobopt.DefinedLines("srun", res.Defined))
	}
	var pty *srunPty
	if res.Step.Pty {
		if pty = newSrunPty(w, h); pty != nil {
			res.Step.Label, res.Step.Unbuffered = false, true // task 0's bytes, as they come
		}
	}
	c, err := dialSteps(ctx, env)
	if err != nil {
		w.errf("Unable to allocate resources: %s", errText(err))
		return errorExit(env)
	}
	r := &srunRun{env: env, w: w, h: h, c: c, res: res, sigs: make(chan os.Signal, 8), multiProg: multiProg, pty: pty}
	stop := h.notify(r.sigs)
	defer stop()
	return r.run(ctx)
}

// run finds or makes the allocation, runs the step and reports its end.
func (r *srunRun) run(ctx context.Context) int {
	if r.res.TestOnly {
		return r.testOnly(ctx)
	}
	if code := r.allocation(ctx); code != 0 {
		return code
	}
	exit := job.ExitCode{Status: 1}
	if r.allocator != nil {
		defer func() { r.allocator.release(ctx, exit) }()
	}
	// With -r, checkStepNodes names -r instead, as srun's
	// _validate_relative comes first.
	if n := r.res.Request.MinNodes; r.jobNodes > 0 && n > r.jobNodes && r.res.Step.Relative == nil {
		r.w.errf("Only allocated %d nodes asked for %d", r.jobNodes, n)
		return 1
	}
	if msg := r.stdioError(); msg != "" {
		r.w.errf("%s", msg)
		return 1
	}
	s, err := newIOSession(r.env, r.h.ioHost())
	if err != nil {
		r.w.errf("unable to open a port for the step's I/O: %v", err)
		return 1
	}
	defer s.close()
	epilog, code := r.srunScripts() // srun_prolog.go
	if epilog != "" {
		defer r.runSrunScript(epilog, "epilog_srun")
	}
	if code != 0 {
		return code
	}
	resp, code := r.createStep(ctx, s)
	if code != 0 {
		return code
	}
	if r.pty != nil {
		r.pty.term.watch(r.sigs)
		if err := r.pty.start(); err != nil {
			r.w.errf("%v", err)
		}
		defer r.pty.restore()
	}
	rc, worst, state := s.run(resp, r)
	exit = worst
	done := &api.StepCompleteRequest{JobID: r.jobID, StepID: resp.StepID, State: state, ExitCode: worst}
	if err := r.c.CompleteStep(ctx, done); err != nil && r.res.Step.Verbose > 0 {
		r.w.errf("Unable to record the end of StepId=%d.%d: %s", r.jobID, resp.StepID, errText(err))
	}
	return rc
}

// allocation sets the job the step runs in: the one named, checked when
// srun is not inside it, or a new one.
func (r *srunRun) allocation(ctx context.Context) int {
	r.jobID = r.res.Step.JobID
	if r.jobID == 0 {
		r.allocator = &allocator{c: r.c, w: r.w, prog: "srun", verbose: r.res.Step.Verbose > 0}
		if len(r.res.Step.Command) > 0 {
			r.allocator.command = r.res.Step.Command[0]
		}
		var al *api.Allocation
		var code int
		req := allocationRequest(r.res.Request)
		if r.res.Step.Immediate != nil {
			// --immediate: granted within the seconds or given up (steps
			// in an allocation: srun_busy.go)
			al, code = r.allocator.allocateImmediate(ctx, r.env, req, *r.res.Step.Immediate, r.sigs)
		} else {
			al, code = r.allocator.allocate(ctx, r.env, req, r.sigs)
		}
		if code != 0 {
			return code
		}
		// srun's own allocation passes no memory request on: the peer's
		// srun --mem=1G task has no SLURM_MEM_PER_NODE (salloc's shell has).
		mem := *al
		mem.MemPerNode, mem.MemPerCPU = 0, 0
		r.jobID, r.jobEnv, r.jobNodes = al.JobID, allocationEnv(r.env, &mem), len(al.Nodes)
		return 0
	}
	if v, ok := r.env.Getenv("SLURM_JOB_ID"); ok && v == u32s(r.jobID) {
		if n, ok := r.env.Getenv("SLURM_JOB_NUM_NODES"); ok {
			r.jobNodes, _ = strconv.Atoi(n)
		}
		return 0
	}
	al, err := r.c.WaitAllocation(ctx, &api.AllocationWaitRequest{JobID: r.jobID})
	if err == nil && !al.Ready {
		err = api.NewError(api.CodeInvalidJobID)
	}
	if err != nil {
		r.w.errf("Unable to confirm allocation for job %d: %s", r.jobID, errText(err))
		r.w.raw(fmt.Sprintf("srun: Check SLURM_JOB_ID environment variable. Expired or invalid job %d\n", r.jobID))
		return 1
	}
	r.jobEnv, r.jobNodes = allocationEnv(r.env, al), len(al.Nodes)
	return 0
}

// createStep asks the controller for the step, which starts it on its
// nodes. While the job is suspended the controller refuses steps for now:
// srun waits and asks again (srun_suspended.go).
func (r *srunRun) createStep(ctx context.Context, s *ioSession) (*api.StepCreateResponse, int) {
	if code := r.checkStepNodes(); code != 0 {
		return nil, code // srun_layout.go
	}
	req := r.stepRequest(s)
	resp, err := r.c.CreateStep(ctx, req)
	if err != nil && !stepRetryable(err) && r.shrunkAllocation(ctx) { // srun_shrunk.go
		req = r.stepRequest(s)
		resp, err = r.c.CreateStep(ctx, req)
	}
	for tries := 0; ; tries++ {
		if tries > 0 {
			resp, err = r.c.CreateStep(ctx, req)
		}
		switch {
		case err == nil:
			if tries > 0 {
				r.w.raw(fmt.Sprintf("srun: Step created for job %d\n", r.jobID))
			}
			return resp, 0
		case !stepRetryable(err):
			return nil, r.stepRefused(err)
		}
		if code := r.retryStep(ctx, tries, err); code != 0 {
			return nil, code
		}
	}
}

// stepRefused reports why the controller did not create the step.
func (r *srunRun) stepRefused(err error) int {
	var ae *api.Error
	switch {
	case errors.As(err, &ae) && ae.Code == api.CodeLaunchFailed && ae.Detail != "":
		r.w.errf("%s", ae.Detail)
	case errors.As(err, &ae) && ae.Code == api.CodePrologFailed && ae.Detail != "":
		return r.prologFailed(ae) // srun_prolog_fail.go
	case errors.As(err, &ae) && ae.Code == api.CodeInvalidGRES && ae.Detail != "":
		// Slurm's srun prints why, then its usual refusal.
		r.w.errf("%s", ae.Detail)
		r.w.errf("Unable to create step for job %d: %s", r.jobID, ae.Message)
	case errors.As(err, &ae) && ae.Code == api.CodeInvalidJobID:
		r.w.errf("Unable to confirm allocation for job %d: %s", r.jobID, ae.Message)
		r.w.raw(fmt.Sprintf("srun: Check SLURM_JOB_ID environment variable. Expired or invalid job %d\n", r.jobID))
	default:
		r.w.errf("Unable to create step for job %d: %s", r.jobID, errText(err))
	}
	return 1
}

// stepRequest is the step as the controller and the nodes need it.
func (r *srunRun) stepRequest(s *ioSession) *api.StepCreateRequest {
	q, st := &r.res.Request, &r.res.Step
	req := &api.StepCreateRequest{JobID: r.jobID, Name: q.Name, Argv: st.Command, NodeList: q.NodeList,
		TaskProlog: st.TaskProlog, TaskEpilog: st.TaskEpilog,
		Exclude: q.Exclude, NTasks: q.NTasks, NTasksPerNode: q.NTasksPerNode, CPUsPerTask: q.CPUsPerTask,
		GPUsPerTask: resource.GPUCount(q.GPUsPerTask), GPUsPerNode: cmp.Or(resource.GPUCount(q.GRES), resource.GPUCount(q.GPUsPerNode)), GPUs: resource.GPUCount(q.GPUs), CPUsPerGPU: q.CPUsPerGPU, CPUsPerGPUGiven: st.CPUsPerGPUGiven, TasksPerGPU: st.TasksPerGPU,
		MemPerNode: derefMB(q.MemPerNode), MemPerCPU: derefMB(q.MemPerCPU),
		Overcommit: st.Overcommit, Exact: st.Exact || q.CPUsPerTask > 0 || q.Exclusive == job.ExclusiveNodes && (r.allocator == nil || q.NTasks > 0), Overlap: st.Overlap, Relative: derefInt(st.Relative), TaskNodes: st.TaskHosts, CPUBind: st.CPUBind, GPUBind: st.GPUBind, Distribution: st.Distribution, OwnAllocation: r.allocator != nil, PreserveEnv: st.PreserveEnv, Environment: r.stepEnv(),
		WorkDir: q.WorkDir, StdOut: srunFileName(st.Output, q.NTasks), StdErr: srunFileName(st.Error, q.NTasks), StdIn: srunInputName(st.Input, q.NTasks), OpenMode: q.OpenMode,
		IO: api.StepIOAddr{Addr: s.addr, Key: s.key}, SubmitHost: r.env.Host, SrunPid: os.Getpid(), MultiProg: r.multiProg}
	if q.NodesSet {
		req.Nodes = q.MinNodes
	}
	if st.TasksPerGPU > 0 && q.NTasks > 0 && len(q.GRES) > 0 && resource.GPUCount(q.GRES) == 0 {
		// --gres=gpu:0 asks for no GPU count: the step takes a GPU for
		// every --ntasks-per-gpu of its tasks (the peer's -n2
		// --gres=gpu:0 --ntasks-per-gpu=1 in a 4-GPU job runs on 2).
		req.GPUs = q.NTasks / st.TasksPerGPU
	}
	if r.allocator == nil && q.MaxNodes > q.MinNodes && r.jobNodes > 0 {
		// A -N range in a job takes as many of the job's nodes as it
		// allows, no more than the tasks: the peer runs -N1-2 -n2 in a
		// two-node job on both (1(x2)), -n7 as 6,1.
		n := min(q.MaxNodes, r.jobNodes-r.excludedInJob(q.Exclude))
		if q.NTasks == 0 && q.NTasksPerNode > 0 {
			// srun's opt.c counts the tasks on the range's least nodes
			// (the peer's --ntasks-per-node=2 -N1-2 runs 2, 1(x2)).
			req.NTasks = q.MinNodes * q.NTasksPerNode
		}
		if req.NTasks > 0 {
			n = min(n, req.NTasks)
		}
		req.Nodes = max(n, q.MinNodes)
		if tasks := cmp.Or(req.NTasks, req.Nodes); st.Distribution == "" && tasks > q.MinNodes &&
			!unknownDistribution(q, false, r.pty != nil) {
			// srun's default weighs the tasks against the range's
			// least nodes (launch.c): block for -N1-2 on two nodes,
			// where the nodes the step takes would make it cyclic.
			req.Distribution = "block"
		}
	}
	if r.allocator != nil && q.MaxNodes > q.MinNodes {
		// srun -N1-2 in its own allocation runs on every node it was
		// given, without -n a task on each: the peer runs -N1-2 on 2
		// idle nodes (SLURM_NTASKS=2), -n3 -N1-2 -c3 as 2,1.
		req.Nodes = r.jobNodes
		if q.NTasks == 0 && q.NTasksPerNode == 0 {
			req.NTasks = r.jobNodes
		}
	}
	req.NoDistribution = st.Distribution == "" && unknownDistribution(q, r.allocator != nil, r.pty != nil)
	if q.TimeLimit != nil && *q.TimeLimit != slurmtime.Unlimited {
		req.TimeLimit = int64(q.TimeLimit.Seconds())
	}
	if req.StdIn == "" && r.pty == nil && r.h.stdinIsNull() {
		req.StdIn = "none" // nothing to forward: the tasks read /dev/null
	}
	s.input = req.StdIn
	if r.pty != nil {
		win := r.pty.win
		req.Pty, s.input = &win, "0" // only task 0 reads the terminal
	}
	return req
}

// allocationRequest is the job srun asks for to run its step in: the
// step's request, with the tasks --gpus over --gpus-per-task makes when
// -n is not given, as srun's client counts them for the job while its
// step keeps a task a node (the peer's srun -G2 --gpus-per-task=1 holds
// 2 CPUs and runs one task).
func allocationRequest(q job.Request) job.Request {
	if q.NTasks == 0 {
		q.NTasks = q.TasksOfGPUs()
	}
	return q
}

// unknownDistribution is srun's case for leaving a step's distribution
// unknown without -m (launch.c): memory 0 (--mem=0), an interactive step,
// or the step of an allocation srun made itself without a memory of its
// own (the peer: srun -n1 sets no SLURM_DISTRIBUTION, srun --mem=1G -n1
// cyclic, srun -n1 inside sbatch cyclic, srun --mem=0 -n1 there none).
func unknownDistribution(q *job.Request, ownAllocation, interactive bool) bool {
	zero := func(p *int64) bool { return p != nil && *p == 0 }
	given := func(p *int64) bool { return p != nil && *p > 0 }
	if zero(q.MemPerNode) || zero(q.MemPerCPU) || interactive {
		return true
	}
	return ownAllocation && !given(q.MemPerNode) && !given(q.MemPerCPU)
}

// derefMB is a memory option's value in MB, 0 when not given.
func derefMB(mb *int64) int64 {
	if mb == nil {
		return 0
	}
	return *mb
}

// stepEnv is the environment the tasks start from: srun's own, with the
// job's variables when srun made the allocation and what srun sets for a
// step (SLURM_UMASK, SLURM_LABELIO...), filtered by --export.
func (r *srunRun) stepEnv() []string {
	own := append(append([]string(nil), r.env.Environ...), r.jobEnv...)
	st := &r.res.Step
	if r.env.Umask >= 0 {
		own = append(own, fmt.Sprintf("SLURM_UMASK=%04o", r.env.Umask))
	}
	own = append(own, "SRUN_DEBUG=3")
	own = append(own, rlimit.Env(st.Propagate, r.env.RLimits)...) // as srun sets them for slurmstepd
	if st.Name != "" {
		own = append(own, "SLURM_JOB_NAME="+st.Name) // -J names the tasks' job too, as the peer's srun
	}
	if st.Label {
		own = append(own, "SLURM_LABELIO=1")
	}
	if st.Overcommit {
		own = append(own, "SLURM_OVERCOMMIT=1")
	}
	if st.KillOnBadExit != nil {
		own = append(own, "SLURM_KILL_BAD_EXIT="+strconv.Itoa(*st.KillOnBadExit))
	}
	if st.TasksPerGPU > 0 {
		own = append(own, "SLURM_NTASKS_PER_TRES="+strconv.Itoa(st.TasksPerGPU)) // as the peer's tasks see it
	}
	own = append(own, jobopt.CPUBindEnv(st.CPUBind)...)
	export := job.Export{All: true}
	if st.Export != nil {
		export = *st.Export
	}
	return export.Environment(own)
}

// newIOKey is the step's I/O key: the nodes prove with it that the
// controller handed them the launch.
func newIOKey() ([]byte, error) {
	key := make([]byte, 32)
	_, err := rand.Read(key)
	return key, err
}
