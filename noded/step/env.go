package step

import (
	"net"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/noded/jobenv"
	"github.com/loamhpc/loam/pkg/api"
)

// EnvInput is everything one task's environment is built from.
type EnvInput struct {
	Req *api.StepLaunchRequest
	// JobCPUs is the job's CPU count on this node (SLURM_CPUS_ON_NODE).
	JobCPUs int
	// Local is the task's index on this node; GPUs the GPUs it is bound
	// to (nil: every GPU of the step on the node).
	Local int
	GPUs  []int
	// Job is the job's launch on this node (nil: unknown): its user and
	// controller, which the step's tasks see even where srun's
	// environment lacks them (salloc, or srun's own allocation).
	Job *api.LaunchRequest
}

// Env returns a task's environment as Slurm 22.05's srun and slurmstepd
// build it (testdata/*.peer, captured with srun inside sbatch jobs on the
// peer): srun's environment as the request carries it, then the step's
// variables, this node's and the task's, which always win.
func Env(in EnvInput) []string {
	r := in.Req
	var e jobenv.List
	e.Merge(r.Step.Environment...)
	jobVars(&e, in.Job)
	stepVars(&e, r)
	nodeVars(&e, r, in.JobCPUs)
	taskVars(&e, in)
	jobenv.DefaultTmpDir(&e)
	return e.Entries()
}

// jobVars are the job's own that slurmstepd and srun add to every step:
// the peer's srun inside salloc shows SLURM_JOB_UID, SLURM_JOB_GID,
// SLURM_JOB_USER, SLURM_PRIO_PROCESS and SLURM_WORKING_CLUSTER, which
// salloc's shell does not have.
func jobVars(e *jobenv.List, l *api.LaunchRequest) {
	if l == nil {
		return
	}
	e.Set("SLURM_JOB_UID", strconv.FormatUint(uint64(l.UserID), 10))
	e.Set("SLURM_JOB_GID", strconv.FormatUint(uint64(l.GroupID), 10))
	if l.UserName != "" {
		e.Set("SLURM_JOB_USER", l.UserName)
	}
	if _, ok := e.Get("SLURM_PRIO_PROCESS"); !ok {
		e.Set("SLURM_PRIO_PROCESS", "0")
	}
	if _, ok := e.Get("SLURM_WORKING_CLUSTER"); !ok {
		if wc := jobenv.WorkingCluster(l); wc != "" {
			e.Set("SLURM_WORKING_CLUSTER", wc)
		}
	}
}

// stepVars describe the whole step: ids, nodes, task counts and where
// srun listens.
func stepVars(e *jobenv.List, r *api.StepLaunchRequest) {
	l := &r.Layout
	id := strconv.FormatUint(uint64(r.StepID), 10)
	perNode := jobenv.Repeated(l.TasksPerNode())
	nodes, tasks := strconv.Itoa(len(l.Nodes)), strconv.Itoa(l.Tasks)
	e.Set("SLURM_STEP_ID", id)
	e.Set("SLURM_STEPID", id)
	e.Set("SLURM_STEP_NODELIST", l.NodeList)
	e.Set("SLURM_STEP_NUM_NODES", nodes)
	e.Set("SLURM_STEP_NUM_TASKS", tasks)
	e.Set("SLURM_STEP_TASKS_PER_NODE", perNode)
	for _, kv := range [][2]string{{"SLURM_NNODES", nodes}, {"SLURM_NTASKS", tasks}, {"SLURM_NPROCS", tasks}, {"SLURM_TASKS_PER_NODE", perNode}} {
		if _, had := e.Get(kv[0]); had && r.Step.PreserveEnv {
			continue // srun -E: the job's counts, as the peer's tasks see them
		}
		e.Set(kv[0], kv[1])
	}
	if dist := distribution(r); dist != "" {
		dist, planeSize, plane := strings.Cut(dist, "=")
		e.Set("SLURM_DISTRIBUTION", dist)
		if plane {
			e.Set("SLURM_DIST_PLANESIZE", planeSize)
		}
	}
	if v, ok := e.Get("SLURM_JOB_CPUS_PER_NODE"); ok && !r.Step.OwnAllocation {
		// The peer's srun sets it in an allocation (sbatch, salloc,
		// --jobid), not in one it made itself.
		e.Set("SLURM_JOB_CPUS_PER_NODE_PACK_GROUP_0", v)
	}
	if r.Step.CPUsPerTask > 0 {
		e.Set("SLURM_CPUS_PER_TASK", strconv.Itoa(r.Step.CPUsPerTask))
	}
	if r.Step.NTasksPerNode > 0 {
		// srun --ntasks-per-node=2 shows SLURM_NTASKS_PER_NODE=2 in its
		// tasks on the peer, over the job's.
		e.Set("SLURM_NTASKS_PER_NODE", strconv.Itoa(r.Step.NTasksPerNode))
	}
	if host, port, err := net.SplitHostPort(r.Step.IO.Addr); err == nil {
		e.Set("SLURM_SRUN_COMM_HOST", host)
		e.Set("SLURM_SRUN_COMM_PORT", port)
		e.Set("SLURM_STEP_LAUNCHER_PORT", port)
		e.Set("SLURM_LAUNCH_NODE_IPADDR", host)
	}
}

// nodeVars describe this node's share of the step.
func nodeVars(e *jobenv.List, r *api.StepLaunchRequest, jobCPUs int) {
	n := &r.Layout.Nodes[r.NodeIndex]
	e.Set("SLURMD_NODENAME", n.Node)
	e.Set("SLURM_NODEID", strconv.Itoa(r.NodeIndex))
	e.Set("SLURM_GTIDS", joinInts(n.TaskIDs))
	e.Set("SLURM_CPUS_ON_NODE", strconv.Itoa(stepCPUs(r, jobCPUs)))
	e.Set("SLURM_TOPOLOGY_ADDR", n.Node)
	e.Set("SLURM_TOPOLOGY_ADDR_PATTERN", "node")
	if len(n.GPUs) > 0 {
		e.Set("SLURM_GPUS_ON_NODE", strconv.Itoa(len(n.GPUs)))
	}
}

// stepCPUs is the step's CPU count on this node: all the job's there, or
// for an exact step (--exact, -c or --exclusive on srun) what its tasks
// need: the peer's srun -n2 --exact and srun -n2 -c1 in a job of 4 CPUs
// show SLURM_CPUS_ON_NODE=2.
func stepCPUs(r *api.StepLaunchRequest, jobCPUs int) int {
	if !r.Step.Exact {
		return jobCPUs
	}
	n := len(r.Layout.Nodes[r.NodeIndex].TaskIDs) * max(r.Step.CPUsPerTask, 1)
	if jobCPUs > 0 && !r.Step.Overcommit {
		n = min(n, jobCPUs)
	}
	return n
}

// taskVars are the task's own: its ranks and its GPUs.
func taskVars(e *jobenv.List, in EnvInput) {
	r := in.Req
	n := &r.Layout.Nodes[r.NodeIndex]
	e.Set("SLURM_PROCID", strconv.Itoa(n.TaskIDs[in.Local]))
	e.Set("SLURM_LOCALID", strconv.Itoa(in.Local))
	if gpuBindNone(&r.Step) && len(n.GPUs) > 0 && len(n.TaskIDs) > 1 {
		// The peer's --gpu-bind=none task sees no GPU variable, only
		// SLURMD_TRES_BIND=gpu:none (a node's lone task is not bound).
		e.Set("SLURMD_TRES_BIND", "gpu:"+gpuBindName(&r.Step))
		for _, k := range gpuVars {
			e.Unset(k)
		}
		return
	}
	gpus := n.GPUs
	if in.GPUs != nil {
		gpus = in.GPUs
		if len(n.TaskIDs) > 1 {
			e.Set("SLURMD_TRES_BIND", "gpu:"+gpuBindName(&r.Step))
		}
	}
	if len(gpus) == 0 {
		return
	}
	idx := jobenv.Indices(gpus)
	for _, k := range gpuVars {
		e.Set(k, idx)
	}
}

// gpuVars name a task's GPUs.
var gpuVars = []string{"CUDA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL", "ROCR_VISIBLE_DEVICES", "ZE_AFFINITY_MASK", "SLURM_STEP_GPUS"}

// gpuBindNone reports --gpu-bind=none (with or without verbose).
func gpuBindNone(s *api.StepCreateRequest) bool {
	_, b := splitVerbose(s.GPUBind)
	return strings.EqualFold(b, "none")
}

// distribution is SLURM_DISTRIBUTION: -m in lower case (the peer's
// -m Cyclic shows cyclic; plane=2 becomes "plane" with
// SLURM_DIST_PLANESIZE=2), else srun's default: cyclic when there are no
// more tasks than nodes, block otherwise; none ("") where srun left it
// unknown (api.StepCreateRequest.NoDistribution).
func distribution(r *api.StepLaunchRequest) string {
	switch {
	case r.Step.Distribution != "":
		return strings.ToLower(r.Step.Distribution)
	case r.Step.NoDistribution:
		return ""
	case r.Layout.Tasks <= len(r.Layout.Nodes):
		return "cyclic"
	}
	return "block"
}

// gpuBindName is how SLURMD_TRES_BIND names the binding: --gpu-bind as
// given, verbose included (the peer: gpu:verbose,map_gpu:3,1).
func gpuBindName(s *api.StepCreateRequest) string {
	if s.GPUBind != "" {
		return s.GPUBind
	}
	return "per_task:" + strconv.Itoa(s.GPUsPerTask)
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ",")
}
