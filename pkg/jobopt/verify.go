package jobopt

import (
	"errors"
	"fmt"
	"path"
	"slices"

	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// verify applies sbatch's checks and client-side defaults in its order
// (_opt_verify). Some failures stop at once; others, like sbatch's, are
// printed and counted, and stop the submission at the end.
func (b *builder) verify(cl *CommandLine) error {
	var deferred []string
	stop := func(err error) error { return prepend(deferred, err) }

	if err := b.checkBurstBuffer(); err != nil { // recorded.go
		return err
	}
	if err := b.verifyNTasksPerGPU(); err != nil { // ntasks_per_gpu.go
		return err
	}
	// 1. At most one memory option, the command line beating the environment.
	if err := b.verifyMemory(); err != nil {
		return err
	}
	if err := b.verifyDistribution(); err != nil {
		return err
	}
	if err := b.verifyCPUsPerGPU(); err != nil {
		return err
	}
	if b.quiet && b.verbose > 0 {
		deferred = append(deferred, b.errLine("don't specify both --verbose (-v) and --quiet (-Q)"))
	}
	b.verifyHint() // layout.go
	// 2. File names: stdin defaults to /dev/null; all are made absolute
	// against the job's working directory.
	if b.req.StdIn == "" {
		b.req.StdIn = "/dev/null"
	}
	for _, f := range []*string{&b.req.StdErr, &b.req.StdIn, &b.req.StdOut} {
		if *f != "" && !path.IsAbs(*f) {
			*f = b.req.WorkDir + "/" + *f
		}
	}
	// 3. -w: the node count covers the listed nodes.
	hosts, err := b.nodeListHosts()
	if err != nil {
		return stop(err)
	}
	// 4. Derived counts and the default job name.
	gresErr := b.checkTasksPerGPUBatch() // srun_gpu_tasks.go; reported after _opt_verify's own
	b.deriveTasksPerGPU()
	b.deriveTasks()
	b.layoutTasks(false) // layout.go
	b.defaultName(cl)
	if r := &b.req; r.MaxNodes != 0 && r.MinNodes > r.MaxNodes {
		deferred = append(deferred, b.errLine(fmt.Sprintf("invalid number of nodes (-N %d-%d)", r.MinNodes, r.MaxNodes)))
	}
	b.fitNodesToTasks(hosts)
	b.gpuNodes()
	// 5. Times.
	if r := &b.req; r.Deadline != nil && r.Begin != nil && r.Deadline.Before(*r.Begin) {
		return stop(b.exitError(job.MsgBeginDeadline))
	}
	if len(deferred) > 0 {
		return &Error{Code: b.p.errorExit(), Lines: deferred}
	}
	return gresErr
}

func (b *builder) errLine(msg string) string { return b.p.prog() + ": error: " + msg }

// prepend puts lines already printed before an error's own lines.
func prepend(lines []string, err error) error {
	e, ok := err.(*Error)
	if !ok || len(lines) == 0 {
		return err
	}
	return &Error{Code: e.Code, Lines: append(append([]string(nil), lines...), e.Lines...)}
}

// verifyMemory is Slurm's _validate_memory_options: two memory options set
// on the command line or in the script are an error; one set there drops
// the others set by SBATCH_* variables; two set only by variables are an
// error too.
func (b *builder) verifyMemory() error {
	fields := map[string]**int64{"mem": &b.req.MemPerNode, "mem-per-cpu": &b.req.MemPerCPU, "mem-per-gpu": &b.req.MemPerGPU}
	var cli, env []string
	for _, name := range []string{"mem", "mem-per-cpu", "mem-per-gpu"} {
		if *fields[name] == nil {
			continue
		}
		if b.memSrc[name] == fromEnv {
			env = append(env, name)
		} else {
			cli = append(cli, name)
		}
	}
	switch {
	case len(cli) > 1:
		return b.fatal(job.MsgMemoryOptions)
	case len(cli) == 1:
		for name, f := range fields {
			if name != cli[0] {
				*f = nil
			}
		}
	case len(env) > 1:
		return b.fatal("SLURM_MEM_PER_CPU, SLURM_MEM_PER_GPU, and SLURM_MEM_PER_NODE are mutually exclusive.")
	}
	return nil
}

// nodeListHosts expands -w into its distinct hosts in host list order and
// raises the minimum node count to their number, as sbatch does. The list
// is read as Slurm's hostlist_create reads it: what that repairs ("n[1-3"
// is the name "n]") goes to the controller, which refuses a name that is
// no node ("Invalid node name specified"); what it refuses stops here with
// its lines (hostlistFailure).
func (b *builder) nodeListHosts() ([]string, error) {
	if b.req.NodeList == "" {
		return nil, nil
	}
	l, warnings, err := hostlist.ParseSlurmWarn(b.req.NodeList)
	var lines []string // the ranges Slurm reports and goes past
	for _, w := range warnings {
		line := b.errLine(rangeLine(w.Err))
		for i := uint64(0); i < min(w.Times*b.hostlistPasses(), maxRangeRepeats); i++ {
			lines = append(lines, line)
		}
	}
	if err != nil {
		return nil, prepend(lines, b.hostlistFailure(err))
	}
	b.warnings = append(b.warnings, lines...)
	hosts, err := hostlist.Expand(hostlist.Compress(l.Hosts()))
	if err != nil { // a repaired name the strict reader refuses: one host
		hosts = slices.Compact(slices.Sorted(slices.Values(l.Hosts())))
	}
	r := &b.req
	r.NodeList = hostlist.Compress(hosts)
	if r.NodesSet {
		r.MinNodes = max(r.MinNodes, len(hosts))
	} else {
		r.MinNodes, r.NodesSet = len(hosts), true
	}
	return hosts, nil
}

// deriveTasks sets the task count from --ntasks-per-node when the node
// count is fixed, as sbatch does (-N 3 --ntasks-per-node=4 is 12 tasks),
// and from --ntasks-per-gpu and the GPUs (the peer: --ntasks-per-gpu=2
// --gpus=3 is 6 tasks, --ntasks-per-gpu=1 --gpus-per-node=2 -N2 is 4,
// --gres=gpu:2 --ntasks-per-gpu=2 is 4). --gpus-per-task without -n
// counts a task a node of a fixed -N without -c, as the client's GRES
// check sees it (the peer runs --gpus-per-task=2 -N2 as 2 tasks on 4
// GPUs, refuses -G4 --gpus-per-task=1 -N2 as 2 tasks for 4, and
// -N1 -c2 --gpus-per-task=2 or -N1-2 as no tasks), else makes --gpus
// over it the tasks of sbatch and salloc (--gpus=16 --gpus-per-task=2 is
// 8 tasks).
func (b *builder) deriveTasks() {
	r := &b.req
	if resource.GPUCount(r.GPUsPerTask) > 0 && r.NTasks == 0 {
		switch {
		case fixedNodes(r) && r.CPUsPerTask == 0:
			r.NTasks = r.MinNodes
		case b.p.prog() != "srun":
			// srun keeps a task a node for its step (the peer's srun -G4
			// --gpus-per-task=1 runs one task; its job counts them,
			// srun.go's allocationRequest).
			r.NTasks = r.TasksOfGPUs()
		}
	}
	if b.tasksPerGPU > 0 && r.NTasks == 0 {
		if g := resource.GPUCount(r.GPUs); g > 0 {
			r.NTasks = b.tasksPerGPU * g
		} else if g := r.NodeGPUs(); g > 0 {
			r.NTasks = b.tasksPerGPU * g * max(r.MinNodes, 1)
		}
	}
	if r.NTasksPerNode > 0 && r.NTasks == 0 && (r.MaxNodes == 0 || r.MinNodes == r.MaxNodes) {
		r.NTasks = max(r.MinNodes, 1) * r.NTasksPerNode
	}
}

// gpuNodes sets the node count --gpus over --gpus-per-node (or
// --gres=gpu:N) makes, as the client's gres_job_state_validate does: the
// peer runs --gpus=4 --gpus-per-node=2 on 2 nodes (NumNodes=2-2) and
// --gres=gpu:1 -G4 on 4. Counts that disagree with each other or with -N
// are left for the request's own check to refuse.
func (b *builder) gpuNodes() {
	r := &b.req
	perJob, perNode := resource.GPUCount(r.GPUs), r.NodeGPUs()
	if perJob <= 0 || perNode <= 0 || perJob%perNode != 0 {
		return
	}
	n := perJob / perNode
	if (r.NodesSet && n < r.MinNodes) || (r.MaxNodes > 0 && n > r.MaxNodes) {
		return
	}
	r.NodesFromGPUs = r.NTasks == 0 && !r.NodesSet // sbatch -N2 counts a task a node
	r.MinNodes, r.MaxNodes, r.NodesSet = n, n, true
}

// defaultName names the job as sbatch does: "wrap" for --wrap, the script's
// base name for a script file; a script from stdin stays unnamed here and
// becomes "sbatch". -J "" keeps the job's name empty, as on the peer.
func (b *builder) defaultName(cl *CommandLine) {
	_, given := b.passed["job-name"]
	switch {
	case b.req.Name != "":
	case given:
		b.req.EmptyName = true
	case cl.Wrap != nil:
		b.req.Name = "wrap"
	case cl.Script != "":
		b.req.Name = path.Base(cl.Script)
	default:
		b.req.Name, b.unnamed = "sbatch", true
	}
}

// fitNodesToTasks shrinks the node range to the task count, warning as
// sbatch does, and drops listed hosts beyond it.
func (b *builder) fitNodesToTasks(hosts []string) {
	r := &b.req
	if !r.NodesSet || r.NTasks == 0 {
		return
	}
	if r.NTasks < r.MaxNodes {
		r.MaxNodes = r.NTasks
	}
	if r.NTasks < r.MinNodes {
		b.warnings = append(b.warnings, fmt.Sprintf("%s: Warning: can't run %d processes on %d nodes, setting nnodes to %d",
			b.p.prog(), r.NTasks, r.MinNodes, r.NTasks))
		r.MinNodes, r.MaxNodes = r.NTasks, r.NTasks
		if len(hosts) > r.MinNodes {
			r.NodeList = hostlist.Compress(hosts[:r.MinNodes])
		}
	}
}

// hostlistPasses is how many times the command parses -w, so how many
// times it reports a range it goes past: twice in sbatch and salloc,
// three times in srun (counted on the peer).
func (b *builder) hostlistPasses() uint64 {
	if b.p.prog() == "srun" {
		return 3
	}
	return 2
}

// maxRangeRepeats bounds how often one bad range is reported (Slurm prints
// it once per name of the groups after it, which can be millions).
const maxRangeRepeats = 1 << 16

// hostlistFailure is sbatch's exit for a -w list hostlist_create refuses:
// the range it names, if any, then "memory allocation failure" (sbatch
// takes the missing list for a failed allocation), exit status 1.
func (b *builder) hostlistFailure(err error) error {
	var re *hostlist.RangeError
	if errors.As(err, &re) {
		return b.exitError(rangeLine(err), "memory allocation failure")
	}
	return b.exitError("memory allocation failure")
}

// rangeLine is Slurm's line for a range in brackets it refuses
// (_parse_single_range), or the error's own words for anything else.
func rangeLine(err error) string {
	var re *hostlist.RangeError
	switch {
	case errors.As(err, &re) && re.TooMany:
		return "_parse_single_range: Too many hosts in range `" + re.Range + "'"
	case errors.As(err, &re):
		return "_parse_single_range: Invalid range: `" + re.Range + "'"
	}
	return err.Error()
}
