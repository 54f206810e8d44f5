package command

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/client"
	"github.com/loamhpc/loam/pkg/job"
)

// stepController is what srun and salloc ask of the controller beyond the
// other commands' Controller: *client.Client has it.
type stepController interface {
	Controller
	CreateStep(ctx context.Context, req *api.StepCreateRequest) (*api.StepCreateResponse, error)
	CompleteStep(ctx context.Context, req *api.StepCompleteRequest) error
	Allocate(ctx context.Context, req *api.AllocateRequest) (*api.SubmitResponse, error)
	WaitAllocation(ctx context.Context, req *api.AllocationWaitRequest) (*api.Allocation, error)
	ReleaseAllocation(ctx context.Context, req *api.AllocationReleaseRequest) error
}

var _ stepController = (*client.Client)(nil)

// dialSteps connects to the controller for srun and salloc.
func dialSteps(ctx context.Context, env *Env) (stepController, error) {
	c, err := env.Dial(ctx)
	if err != nil {
		return nil, err
	}
	sc, ok := c.(stepController)
	if !ok {
		return nil, errors.New("this controller client cannot run job steps")
	}
	return sc, nil
}

// allocWaits are how long the wait requests to the controller last, in
// seconds: a job that has not started after the first is reported
// "queued and waiting for resources" (the scheduler needs a cycle to start
// even a job that fits at once).
var allocWaits = []int64{1, 10}

// allocator is an interactive allocation being made for srun or salloc.
type allocator struct {
	c    stepController
	w    *output
	prog string
	id   uint32
	// command is srun's program, shown as the job's Command.
	command string
	// notices shows scontrol notify's messages while the allocation is
	// held (srun_notify.go).
	notices *noticeWatch
	// st is what the wait already printed (alloc_config.go); verbose is
	// srun's -v.
	st      allocState
	verbose bool
}

// allocFailed is how srun and salloc word a refused allocation.
var allocFailed = map[string]string{"srun": "Unable to allocate resources", "salloc": "Job submit/allocate failed"}

// submit asks the controller for the allocation, run from env's working
// directory, and keeps its job id; false when it was refused (and said so).
func (a *allocator) submit(ctx context.Context, env *Env, req job.Request) bool {
	req.WorkDir, req.SubmitDir, req.SubmitHost, req.AllocSID = env.Cwd, env.Cwd, env.Host, env.Sid
	resp, err := a.c.Allocate(ctx, &api.AllocateRequest{Job: req, SubmitHost: env.Host, Command: a.command})
	if err != nil {
		a.refused(req, err)
		return false
	}
	a.id = resp.JobID
	return true
}

// allocate submits req and waits until it runs, printing what Slurm's
// srun and salloc print: "job N queued and waiting for resources" when it
// does not start at once, then "job N has been allocated resources"
// (salloc also "Pending job allocation N" first). A SIGINT or SIGTERM on
// sigs while it waits cancels the job.
func (a *allocator) allocate(ctx context.Context, env *Env, req job.Request, sigs <-chan os.Signal) (*api.Allocation, int) {
	if !a.submit(ctx, env, req) {
		return nil, errorExit(env) // SLURM_EXIT_ERROR, as Slurm exits for a refusal
	}
	a.notices = watchNotices(ctx, a.c, a.w, a.prog, a.id)
	for waits := 0; ; waits++ {
		al, interrupted, err := a.wait(ctx, allocWaits[min(waits, len(allocWaits)-1)], sigs)
		switch {
		case interrupted:
			a.revoked()
			a.release(ctx, job.ExitCode{})
			return nil, 1
		case err != nil:
			a.notices.stop()
			a.w.errf("Unable to confirm allocation for job %d: %s", a.id, errText(err))
			return nil, 1
		case al.Ready:
			a.ready(al) // alloc_config.go
			return al, 0
		case al.Cause != "":
			a.notices.stop()
			return nil, a.configFailed(al)
		case al.Ended && waits == 0:
			a.notices.stop()
			a.endedAtOnce() // salloc_revoke.go
			return nil, 1
		case al.Ended:
			a.notices.stop()
			a.endedPending()
			return nil, 1
		}
		if isConfiguring(al) {
			a.configuring(al)
			continue
		}
		if waits == 0 {
			a.st.queued = true
			if a.prog == "salloc" {
				a.w.raw("salloc: Pending job allocation " + u32s(a.id) + "\n")
			}
			a.w.raw(a.prog + ": job " + u32s(a.id) + " queued and waiting for resources\n")
		}
	}
}

// wait asks the controller for the allocation, giving up at a SIGINT or
// SIGTERM (interrupted).
func (a *allocator) wait(ctx context.Context, timeout int64, sigs <-chan os.Signal) (*api.Allocation, bool, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var interrupted atomic.Bool
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			select {
			case s := <-sigs:
				if s == sigINT || s == sigTERM {
					interrupted.Store(true)
					cancel()
					return
				}
			case <-done:
				return
			}
		}
	}()
	al, err := a.c.WaitAllocation(ctx, &api.AllocationWaitRequest{JobID: a.id, Timeout: timeout})
	close(done)
	<-stopped // a signal the watcher took is seen below, never lost
	if interrupted.Load() {
		return nil, true, nil
	}
	return al, false, err
}

// revoked says, as Slurm does, that a waiting allocation was given up.
func (a *allocator) revoked() {
	id := u32s(a.id)
	if a.prog == "salloc" {
		a.w.raw("salloc: Job allocation " + id + " has been revoked.\nsalloc: Job aborted due to signal\n")
		return
	}
	a.w.raw("srun: Job allocation " + id + " has been revoked\nsrun: Force Terminated JobId=" + id + "\n")
}

// release ends the allocation (best effort: the controller ends it at
// its time limit otherwise).
func (a *allocator) release(ctx context.Context, exit job.ExitCode) {
	if a.id == 0 {
		return
	}
	a.notices.stop()
	if err := a.c.ReleaseAllocation(ctx, &api.AllocationReleaseRequest{JobID: a.id, ExitCode: exit}); err != nil {
		a.w.errf("Unable to release job allocation %d: %s", a.id, errText(err))
	}
}

// refused reports a refused allocation: the controller's detail, then
// "Unable to allocate resources: <text>" (salloc: "Job submit/allocate
// failed"). A GRES refusal is its text alone, after the detail Slurm's
// own client checks give (as sbatch prints it).
func (a *allocator) refused(req job.Request, err error) {
	var ae *api.Error
	if errors.As(err, &ae) && ae.Code == api.CodeInvalidGRES {
		var inv *job.InvalidError
		if errors.As(req.ValidateClient(), &inv) && inv.Detail != "" {
			a.w.errf("%s", inv.Detail)
		}
		a.w.errf("%s", ae.Message)
		return
	}
	if d := detailOf(err); d != "" {
		a.w.errf("%s", d)
	}
	a.w.errf("%s: %s", allocFailed[a.prog], errText(err))
	if ae != nil && ae.JobID != 0 && a.prog == "salloc" {
		// The refusal came after the job was created (srun says nothing).
		// Slurm's line is slurmctld's job-complete message to salloc's
		// port, racing the answer: last is where the peer printed it
		// most often, though also first, between the errors, or never.
		a.w.raw("salloc: Job allocation " + u32s(ae.JobID) + " has been revoked.\n")
	}
}

func detailOf(err error) string {
	var ae *api.Error
	if errors.As(err, &ae) {
		return ae.Detail
	}
	return ""
}

// cpusPerNode is an allocation's SLURM_JOB_CPUS_PER_NODE ("4(x2),2").
func cpusPerNode(a *api.Allocation) string {
	cpus := make([]int, len(a.Nodes))
	for i, n := range a.Nodes {
		cpus[i] = n.CPUs
	}
	return repeated(cpus)
}

// allocationEnv is what salloc and srun set for the job they allocated
// (or attached to with --jobid), as the peer's salloc set it.
func allocationEnv(env *Env, a *api.Allocation) []string {
	id := u32s(a.JobID)
	out := []string{"SLURM_JOB_ID=" + id, "SLURM_JOBID=" + id, "SLURM_JOB_NAME=" + a.Name,
		"SLURM_JOB_NODELIST=" + a.NodeList, "SLURM_NODELIST=" + a.NodeList,
		"SLURM_JOB_NUM_NODES=" + strconv.Itoa(len(a.Nodes)), "SLURM_NNODES=" + strconv.Itoa(len(a.Nodes)),
		"SLURM_JOB_CPUS_PER_NODE=" + cpusPerNode(a), "SLURM_TASKS_PER_NODE=" + repeated(a.TasksPerNode),
		"SLURM_JOB_PARTITION=" + a.Partition, "SLURM_CLUSTER_NAME=" + a.ClusterName,
		"SLURM_SUBMIT_DIR=" + env.Cwd, "SLURM_SUBMIT_HOST=" + env.Host}
	if conf, err := filepath.Abs(client.ConfPath()); err == nil {
		out = append(out, "SLURM_CONF="+conf)
	}
	if a.NTasks > 0 {
		out = append(out, "SLURM_NTASKS="+strconv.Itoa(a.NTasks), "SLURM_NPROCS="+strconv.Itoa(a.NTasks))
	}
	switch {
	case a.MemPerNode > 0:
		out = append(out, "SLURM_MEM_PER_NODE="+strconv.FormatInt(a.MemPerNode, 10))
	case a.MemPerCPU > 0:
		out = append(out, "SLURM_MEM_PER_CPU="+strconv.FormatInt(a.MemPerCPU, 10))
	}
	return out
}

// repeated prints per-node counts as Slurm does ("2(x3),1").
func repeated(counts []int) string {
	var parts []string
	for i := 0; i < len(counts); {
		j := i
		for j < len(counts) && counts[j] == counts[i] {
			j++
		}
		if j-i > 1 {
			parts = append(parts, strconv.Itoa(counts[i])+"(x"+strconv.Itoa(j-i)+")")
		} else {
			parts = append(parts, strconv.Itoa(counts[i]))
		}
		i = j
	}
	return strings.Join(parts, ",")
}

func u32s(n uint32) string { return strconv.FormatUint(uint64(n), 10) }
