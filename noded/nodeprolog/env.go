package nodeprolog

import (
	"strconv"

	"github.com/loamhpc/loam/noded/jobenv"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// Context is SLURM_SCRIPT_CONTEXT: which script runs.
type Context string

// The node daemon's script contexts.
const (
	Prolog Context = "prolog_slurmd"
	Epilog Context = "epilog_slurmd"
)

// Input is what a prolog's or epilog's environment is made of.
type Input struct {
	Req      *api.LaunchRequest
	Node     string // SLURMD_NODENAME
	ConfPath string // SLURM_CONF
	Context  Context
	// Status is the batch script's wait status, for the epilog's
	// SLURM_JOB_EXIT_CODE variables.
	Status int
}

// Env is the script's whole environment: the variables slurmd 22.05 sets
// and nothing else (no PATH: scripts name their programs in full).
func Env(in Input) []string {
	r := in.Req
	var e jobenv.List
	if len(r.Alloc.GPUs) > 0 {
		g := jobenv.Indices(r.Alloc.GPUs)
		for _, k := range []string{"CUDA_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL", "ROCR_VISIBLE_DEVICES", "ZE_AFFINITY_MASK", "SLURM_JOB_GPUS"} {
			e.Set(k, g)
		}
	}
	e.Set("SLURMD_NODENAME", in.Node)
	e.Set("SLURM_CLUSTER_NAME", r.ClusterName)
	e.Set("SLURM_CONF", in.ConfPath)
	id := strconv.FormatUint(uint64(r.JobID), 10)
	e.Set("SLURM_JOBID", id)
	e.Set("SLURM_JOB_ID", id)
	setIf(&e, "SLURM_JOB_ACCOUNT", r.Account)
	setIf(&e, "SLURM_JOB_CONSTRAINTS", r.Constraints)
	e.Set("SLURM_JOB_CPUS_PER_NODE", jobenv.Repeated(cpusPerNode(r)))
	if in.Context == Epilog {
		ws := in.Status
		ec := job.FromWaitStatus(ws)
		e.Set("SLURM_JOB_DERIVED_EC", "0")
		e.Set("SLURM_JOB_EXIT_CODE", strconv.Itoa(ws))
		e.Set("SLURM_JOB_EXIT_CODE2", ec.String())
	}
	e.Set("SLURM_JOB_GID", strconv.FormatUint(uint64(r.GroupID), 10))
	e.Set("SLURM_JOB_NUM_NODES", strconv.Itoa(max(len(r.Nodes), 1)))
	e.Set("SLURM_JOB_PARTITION", r.Partition)
	e.Set("SLURM_JOB_RESTART_COUNT", strconv.Itoa(r.Restarts))
	if r.Script != "" { // a batch job: on each of its nodes
		e.Set("SLURM_JOB_STDIN", firstSet(r.StdIn, "/dev/null"))
	}
	uid := strconv.FormatUint(uint64(r.UserID), 10)
	e.Set("SLURM_JOB_UID", uid)
	e.Set("SLURM_JOB_USER", r.UserName)
	setIf(&e, "SLURM_JOB_WORK_DIR", r.WorkDir)
	e.Set("SLURM_NODELIST", firstSet(r.NodeList, r.Alloc.Node))
	e.Set("SLURM_SCRIPT_CONTEXT", string(in.Context))
	e.Set("SLURM_UID", uid)
	return e.Entries()
}

// cpusPerNode lists the job's CPUs on each of its nodes.
func cpusPerNode(r *api.LaunchRequest) []int {
	out := make([]int, 0, len(r.Nodes))
	for _, n := range r.Nodes {
		out = append(out, n.CPUs)
	}
	if len(out) == 0 {
		out = append(out, r.Alloc.CPUs)
	}
	return out
}

func setIf(e *jobenv.List, k, v string) {
	if v != "" {
		e.Set(k, v)
	}
}

func firstSet(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
