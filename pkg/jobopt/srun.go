package jobopt

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/job"
)

// StepOptions are what srun (and salloc) take beyond the job request: how
// the step runs and how srun shows it.
type StepOptions struct {
	// Command is the program and its arguments (srun's, or salloc's
	// command; empty for salloc runs the user's shell).
	Command []string
	// JobID is --jobid (or SLURM_JOB_ID): the allocation to run in; 0
	// when srun must allocate one.
	JobID uint32
	// Name is -J as given (srun ignores SLURM_JOB_NAME inside a job);
	// NameGiven tells an empty -J "" from none.
	Name      string
	NameGiven bool
	// Label (-l) prefixes output lines with the task id; Unbuffered (-u)
	// forwards output as it comes instead of by lines.
	Label, Unbuffered bool
	// KillOnBadExit (-K): nil not given; 0 off, else on.
	KillOnBadExit *int
	// Propagate is --propagate's list ("" every limit; nil not given):
	// which of srun's limits the tasks get whatever slurm.conf says.
	Propagate *string
	// CPUBind and GPUBind are --cpu-bind and --gpu-bind as given.
	CPUBind, GPUBind string
	// TasksPerGPU is --ntasks-per-gpu: the tasks see it as
	// SLURM_NTASKS_PER_TRES, as the peer's do.
	TasksPerGPU int
	// Overcommit (-O) allows more tasks than CPUs.
	Overcommit bool
	// Exact is --exact as given (-c and --exclusive imply it too).
	Exact bool
	// Overlap (--overlap) shares the CPUs and GPUs other steps hold.
	Overlap bool
	// PreserveEnv (-E) keeps the job's SLURM_NNODES, SLURM_NTASKS and
	// SLURM_TASKS_PER_NODE in the tasks instead of the step's.
	PreserveEnv bool
	// Whole (--whole) asks for all the job's CPUs and GPUs on the step's
	// nodes: what a step not made exact by --exact, -c or --exclusive
	// gets anyway (the peer's -n1 --whole and -n1 alike show the job's
	// SLURM_CPUS_ON_NODE, -n1 -c1 --whole one CPU), so it changes
	// nothing but the refusal beside --exact.
	Whole bool
	// CPUsPerGPUGiven: --cpus-per-gpu was an option, not inherited
	// from SLURM_CPUS_PER_GPU (a step refused for it says why only then).
	CPUsPerGPUGiven bool
	// Relative (-r) is the allocation's node the step starts at (nil: not
	// given); NodesOnCommandLine says -N was an option, not SLURM_NNODES
	// (srun's -r error names which).
	Relative           *int
	NodesOnCommandLine bool
	// TaskHosts (-m arbitrary) are the nodes of the tasks in task order,
	// from -w or the SLURM_HOSTFILE file (srun_steps.go).
	TaskHosts []string
	// Input is -i (all, none, a task id or a file pattern; "" all);
	// Output and Error are -o and -e file patterns ("" to srun).
	Input, Output, Error string
	// Export is --export (nil: ALL); ExportSpec as given.
	Export     *job.Export
	ExportSpec string
	// Distribution is -m as given.
	Distribution string
	// DisableStatus (-X): Ctrl-C is forwarded to the tasks at once.
	DisableStatus bool
	// QuitOnInterrupt (--quit-on-interrupt): the first Ctrl-C aborts the
	// step, as a second one within a second does without it.
	QuitOnInterrupt bool
	Quiet           bool
	Verbose         int

	// MultiProg (--multi-prog): Command[0] is a configuration file that
	// gives each task its own program.
	MultiProg bool
	// TaskProlog and TaskEpilog are --task-prolog and --task-epilog;
	// Prolog and Epilog are --prolog and --epilog, which srun runs itself
	// instead of slurm.conf's SrunProlog and SrunEpilog ("none": neither).
	TaskProlog, TaskEpilog string
	Prolog, Epilog         string
	// Pty (--pty): task 0 runs on a pseudo-terminal, its input and output
	// srun's terminal.
	Pty bool
	// Wait is -W, --wait: seconds srun lets the other tasks run after the
	// first one ended before it ends the step (0: as long as they run).
	Wait int
	// NoShell (salloc --no-shell): salloc exits once the allocation is
	// granted, leaving it to run.
	NoShell bool
	// Immediate (salloc -I, --immediate[=secs]): nil not given; else how
	// long salloc waits for the allocation before giving up (0: at once).
	Immediate *int
}

// StepResult is a parsed srun or salloc command line.
type StepResult struct {
	Action Action
	// Request is the allocation srun or salloc asks for when there is no
	// job to run in (nodes, tasks, partition, time...), as sbatch would
	// send it without a script.
	Request job.Request
	Step    StepOptions
	// TestOnly is srun's --test-only: estimate the start, run nothing.
	TestOnly bool
	// Warnings are lines for standard error ("srun: Warning: ...").
	Warnings []string
	// Defined are the options set, for the block srun -v and salloc -v
	// print.
	Defined []DefinedOption
	// OptionEnv are the SLURM_* variables salloc adds for its command from
	// the options (salloc_env.go).
	OptionEnv []string
}

// Srun parses srun's command line: SLURM_* input variables first, then
// the options, up to the command. Inside an allocation (SLURM_JOB_ID set)
// SLURM_JOB_NAME only shows in the -v block, as in srun, so steps are named
// after their command.
func (p *Parser) Srun(args []string) (*StepResult, error) {
	q := *p
	if q.Prog == "" {
		q.Prog = "srun"
	}
	st := &srunState{srun: true}
	return q.parseStep(args, srunTable(st), srunEnvOrder, st, true)
}

func (p *Parser) parseStep(args []string, t *Table, envOrder []string, st *srunState, needCommand bool) (*StepResult, error) {
	b := newBuilder(p)
	b.req.WorkDir = p.Cwd
	_, inJob := p.getenv("SLURM_JOB_ID")
	for _, name := range envOrder {
		if name == "SLURM_JOB_NAME" && inJob && st.srun {
			b.keepJobName(name)
			continue
		}
		if err := b.applyEnvVar(t, name); err != nil {
			return nil, err
		}
	}
	g := &getopt{argv0: p.argv0(), prog: p.prog(), args: args, t: t}
	for {
		occ, ok, err := g.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if err := b.apply(occ.opt, value{str: occ.val, has: occ.has, src: fromArgv, name: occ.name}); err != nil {
			return nil, err
		}
		if b.action != Submit {
			return &StepResult{Action: b.action}, nil
		}
	}
	st.Command = args[g.optind:]
	if st.mpi == "list" && st.mpiSrc.name != "" {
		return &StepResult{Action: ListMPI}, nil
	}
	if needCommand && len(st.Command) == 0 {
		return nil, b.fatal("No command given to execute.")
	}
	if err := b.verifyStep(st); err != nil {
		return nil, err
	}
	if err := b.checkMPI(st); err != nil {
		return nil, err
	}
	if err := b.refuseClusters(); err != nil { // clusters.go
		return nil, err
	}
	st.Quiet, st.Verbose = b.quiet || st.Quiet, b.verbose
	defined := b.defined(t, nil)
	if st.srun {
		defined = withAllocNodes(p, defined)
	}
	return &StepResult{Request: b.req, Step: st.StepOptions, TestOnly: b.testOnly, Warnings: b.warnings, Defined: defined,
		OptionEnv: b.optionVariables()}, nil
}

// applyEnvVar applies one input variable, as sbatch's SBATCH_* are read.
func (b *builder) applyEnvVar(t *Table, name string) error {
	s, ok := b.p.getenv(name)
	if !ok {
		return nil
	}
	o := t.envOption(name)
	if o == nil {
		return nil
	}
	v := value{str: s, has: true, src: fromEnv, name: name}
	switch o.Arg {
	case NoArg:
		n, used := cStrtol(s)
		v.reset = !(s == "" || strings.EqualFold(s, "yes") || (n != 0 && used == len(s)))
	case OptionalArg:
		v.has = s != ""
	}
	return b.apply(o, v)
}

// verifyStep applies srun's checks and derived values in its order.
func (b *builder) verifyStep(st *srunState) error {
	if st.Exact && st.Whole {
		return b.exitError("--exact and --whole are mutually exclusive.")
	}
	if st.Pty && (st.Input != "" || st.Output != "" || st.Error != "") {
		return b.exitError("--error/--input/--output are incompatible with --pty")
	}
	if err := b.checkBurstBuffer(); err != nil { // recorded.go
		return err
	}
	if err := b.readBBF(); err != nil { // srun reads --bbf's file too, and refuses one it cannot
		return err
	}
	b.bbf = ""
	if err := b.verifyMemory(); err != nil {
		return err
	}
	// The option conflicts of --ntasks-per-gpu are fatal while the
	// options are read, before srun counts -m arbitrary's tasks.
	if err := b.verifyNTasksPerGPU(); err != nil { // ntasks_per_gpu.go
		return err
	}
	if err := b.arbitraryHosts(st); err != nil {
		return err
	}
	if err := b.verifyDistribution(); err != nil {
		return err
	}
	if st.JobID == 0 {
		if err := b.verifyCPUsPerGPU(); err != nil {
			return err
		}
	}
	if v, ok := b.passed["cpus-per-gpu"]; ok && v.src != fromEnv {
		st.CPUsPerGPUGiven = true
	}
	b.verifyHint() // layout.go
	hosts, err := b.nodeListHosts()
	if err != nil {
		return err
	}
	r := &b.req
	// As srun's opt.c: with -N and -n, a --ntasks-per-node other than
	// the tasks over the nodes (rounded down) is dropped, with a warning
	// only when there are more tasks than it (-n2 in a two-node job with
	// SLURM_NTASKS_PER_NODE=2 passes silently, and so does the batch
	// step of --gpus=16 --ntasks-per-node=8: 8 tasks on 2 nodes).
	// It counts the nodes after fitting them to fewer tasks
	// (fitNodesToTasks): the peer's srun -n2 in a -N4
	// --ntasks-per-node=1 job only says it runs on 2 nodes.
	nodes, npnWarning := r.MinNodes, ""
	if r.NTasks > 0 && r.NTasks < nodes {
		nodes = r.NTasks
	}
	if r.NTasksPerNode > 0 && r.NodesSet && nodes > 0 && r.NTasks > 0 && r.NTasksPerNode != r.NTasks/nodes {
		if r.NTasks > r.NTasksPerNode {
			npnWarning = fmt.Sprintf("%s: Warning: can't honor --ntasks-per-node set to %d which doesn't match "+
				"the requested tasks %d with the number of requested nodes %d. Ignoring --ntasks-per-node.",
				b.p.prog(), r.NTasksPerNode, r.NTasks, nodes)
		}
		r.NTasksPerNode = 0
	}
	if err := b.verifyTasksPerGPU(st); err != nil {
		return err
	}
	if err := b.checkTasksPerGPUAlone(st); err != nil { // srun_gpu_tasks.go
		return err
	}
	if err := b.checkTasksPerGPUBatch(); err != nil { // salloc's
		return err
	}
	if st.JobID == 0 {
		// A step in a job asks for no GPUs from its tasks: it gets the
		// job's, and slurmctld raises its tasks to match (TasksPerGPU).
		b.deriveTasksPerGPU()
	}
	b.deriveTasks()
	b.layoutTasks(st.srun) // layout.go
	// The check sbatch makes in job.Request.ValidateClient.
	if r.GPUsPerSocket != "" && r.SocketsPerNode == 0 {
		return b.exitError(job.MsgGPUsPerSocket, job.MsgInvalidGRES)
	}
	b.fitNodesToTasks(hosts) // its warning comes first, as in srun's opt.c
	if npnWarning != "" {
		b.warnings = append(b.warnings, npnWarning)
	}
	if b.p.prog() != "srun" || st.JobID == 0 {
		b.gpuNodes() // a new allocation's, as sbatch's (verify.go)
	}
	if v, ok := b.passed["nodes"]; ok && v.src != fromEnv {
		st.NodesOnCommandLine = true
	}
	if st.Name != "" {
		r.Name = st.Name
	} else if len(st.Command) > 0 {
		r.Name = path.Base(st.Command[0])
	}
	return nil
}

func (st *srunState) setLabel(b *builder, v value) error      { st.Label = !v.reset; return nil }
func (st *srunState) setUnbuffered(b *builder, v value) error { st.Unbuffered = !v.reset; return nil }

// setOvercommit is srun's -O: its step's tasks share CPUs, and an
// allocation srun makes holds one task's CPUs a node as sbatch -O's does
// (the peer's srun -O -n8 job has 1 CPU).
// setPreserveEnv is srun -E, setWhole --whole.
func (st *srunState) setPreserveEnv(b *builder, v value) error { st.PreserveEnv = !v.reset; return nil }
func (st *srunState) setWhole(b *builder, v value) error       { st.Whole = !v.reset; return nil }

func (st *srunState) setOvercommit(b *builder, v value) error {
	st.Overcommit, b.req.Overcommit = !v.reset, !v.reset
	return nil
}

func (st *srunState) setExact(b *builder, v value) error      { st.Exact = !v.reset; return nil }
func (st *srunState) setOverlap(b *builder, v value) error    { st.Overlap = !v.reset; return nil }
func (st *srunState) setQuiet(b *builder, v value) error      { st.Quiet = !v.reset; return nil }
func (st *srunState) setInput(b *builder, v value) error      { st.Input = v.str; return nil }
func (st *srunState) setOutput(b *builder, v value) error     { st.Output = fileName(v.str); return nil }
func (st *srunState) setError(b *builder, v value) error      { st.Error = fileName(v.str); return nil }
func (st *srunState) setMultiProg(b *builder, v value) error  { st.MultiProg = !v.reset; return nil }
func (st *srunState) setTaskProlog(b *builder, v value) error { st.TaskProlog = v.str; return nil }
func (st *srunState) setTaskEpilog(b *builder, v value) error { st.TaskEpilog = v.str; return nil }
func (st *srunState) setProlog(b *builder, v value) error     { st.Prolog = v.str; return nil }
func (st *srunState) setEpilog(b *builder, v value) error     { st.Epilog = v.str; return nil }
func (st *srunState) setPty(b *builder, v value) error        { st.Pty = !v.reset; return nil }
func (st *srunState) setDisableStatus(b *builder, v value) error {
	st.DisableStatus = !v.reset
	return nil
}

func (st *srunState) setQuitOnInterrupt(b *builder, v value) error {
	st.QuitOnInterrupt = !v.reset
	return nil
}

func (st *srunState) setDistribution(b *builder, v value) error {
	if size, ok := b.p.getenv("SLURM_DIST_PLANESIZE"); ok && v.src == fromEnv && strings.EqualFold(v.str, "plane") {
		// sbatch -m plane=N exports SLURM_DISTRIBUTION=plane and the size
		// apart; the peer's srun in that job runs with both.
		v.str += "=" + size
	}
	kind, err := b.parseDistribution(v.str)
	if err != nil {
		return err
	}
	b.arbitrary = kind == distArbitrary
	st.Distribution = v.str
	return nil
}

// setJobID takes --jobid (or SLURM_JOB_ID): a job id, possibly
// "12.3"-like with a step, as srun accepts it.
func (st *srunState) setJobID(b *builder, v value) error {
	if v.src == fromArgv {
		// srun reads its own --jobid as a plain positive number.
		if _, err := b.parseInt("--jobid", v.str, true); err != nil {
			return err
		}
	}
	s, _, _ := strings.Cut(v.str, ".")
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil || n == 0 {
		return b.exitError(fmt.Sprintf("Invalid job id %s", v.str))
	}
	st.JobID = uint32(n)
	return nil
}

// setKillOnBadExit takes -K[0|1]: without a value, on.
func (st *srunState) setWait(b *builder, v value) error {
	n, err := b.parseInt("--wait", v.str, false)
	st.Wait = n
	return err
}

func (st *srunState) setKillOnBadExit(b *builder, v value) error {
	n := 1
	if v.has {
		x, err := b.parseInt("--kill-on-bad-exit", v.str, false)
		if err != nil {
			return err
		}
		n = x
	}
	st.KillOnBadExit = &n
	return nil
}

func (st *srunState) setExport(b *builder, v value) error {
	e := job.ParseExport(v.str)
	st.Export, st.ExportSpec = &e, v.str
	return nil
}

// setCPUBind checks --cpu-bind's form: verbose/quiet and one binding.
func (st *srunState) setCPUBind(b *builder, v value) error {
	if err := checkBind(v.str, cpuBinds); err != nil {
		return &Error{Code: ExitError, Lines: []string{
			b.p.prog() + ": error: unrecognized --cpu-bind argument \"" + v.str + "\"",
			b.p.prog() + ": fatal: Failed to parse --cpu-bind= values."}}
	}
	st.CPUBind = v.str
	return nil
}

func (st *srunState) setGPUBind(b *builder, v value) error {
	if err := checkGPUBind(v.str); err != nil {
		return b.clientError("Invalid --gpu-bind argument: gpu:%s", v.str)
	}
	st.GPUBind = v.str
	b.req.TRESBind = "gpu:" + v.str
	return nil
}

// Binding kinds: those that take a ":list" and those that do not.
var (
	cpuBinds = map[string]bool{"none": false, "no": false, "cores": false, "threads": false, "sockets": false,
		"ldoms": false, "rank": false, "boards": false, "map_cpu": true, "mask_cpu": true, "map_ldom": true, "mask_ldom": true}
	gpuBinds = map[string]bool{"none": false, "closest": false, "single": true, "per_task": true, "map_gpu": true, "mask_gpu": true}
)

// checkBind accepts "[verbose|quiet,]KIND[:LIST]".
func checkBind(spec string, kinds map[string]bool) error {
	var rest []string
	for _, p := range strings.Split(spec, ",") {
		switch strings.ToLower(p) {
		case "verbose", "v", "quiet", "q":
		default:
			rest = append(rest, p)
		}
	}
	bind := strings.Join(rest, ",")
	kind, list, hasList := strings.Cut(bind, ":")
	takesList, ok := kinds[strings.ToLower(kind)]
	switch {
	case bind == "" && len(rest) == 0:
		return nil
	case !ok || takesList != hasList || (hasList && list == ""):
		return fmt.Errorf("invalid binding %q", spec)
	}
	return nil
}

// CPUBindEnv returns the SLURM_CPU_BIND* variables srun sets for
// --cpu-bind, as the peer's srun set them (SLURM_CPU_BIND_TYPE is the kind
// with its colon, SLURM_CPU_BIND_LIST the list). Where Slurm prints
// "quiet,corescores" for --cpu-bind=cores (the type doubled into the
// list), Loam prints "quiet,cores" and an empty list.
func CPUBindEnv(spec string) []string {
	if spec == "" {
		return nil
	}
	verbose := "quiet"
	var rest []string
	for _, p := range strings.Split(spec, ",") {
		switch strings.ToLower(p) {
		case "verbose", "v":
			verbose = "verbose"
		case "quiet", "q":
		default:
			rest = append(rest, p)
		}
	}
	kind, list, hasList := strings.Cut(strings.Join(rest, ","), ":")
	typ := kind
	if hasList {
		typ += ":"
	}
	return []string{"SLURM_CPU_BIND_VERBOSE=" + verbose, "SLURM_CPU_BIND_TYPE=" + typ,
		"SLURM_CPU_BIND_LIST=" + list, "SLURM_CPU_BIND=" + verbose + "," + typ + list}
}

// setJobName keeps -J and that it was given: salloc -J "" leaves the
// job's name empty.
func (st *srunState) setJobName(b *builder, v value) error {
	st.Name, st.NameGiven = v.str, true
	return nil
}
