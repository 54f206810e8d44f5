package step

import (
	"os"
	"time"

	"github.com/loamhpc/loam/noded/shim"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/rlimit"
)

// execWait bounds the wait for a held task process to be past its exec.
const execWait = 10 * time.Second

// setLimits gives the held task process pid srun's soft limits that
// slurm.conf propagates, or --propagate names (SLURM_RLIMIT_* of the
// step's environment), and caps its RLIMIT_RSS at the step's memory on
// the node, as slurmstepd does before it runs the task, once the process is
// past its exec (held says so). Failures are logged;
// the task runs with the node's limit.
func (p *proc) setLimits(pid int, held *os.File) {
	if err := shim.AwaitExec(held, execWait); err != nil {
		p.log.WithError(err).Warn("task limits")
	}
	errs, notes := rlimit.Apply(pid, rlimit.Requests(p.req.Step.Environment), p.job.RLimits)
	for _, e := range errs {
		p.log.Error(e)
	}
	for _, n := range notes {
		p.log.Info(n)
	}
	if err := rlimit.CapRSS(pid, stepMemory(&p.req, p.job.MemoryBytes>>20, p.job.Request.Alloc.CPUs)); err != nil {
		p.log.WithError(err).Warn("memory limit")
	}
}

// stepMemory is the step's memory on this node in MB, as slurmstepd caps
// RLIMIT_RSS with it: --mem, else --mem-per-cpu times the step's CPUs
// here, else the job's (jobMB; 0 no limit), never more than the job's.
// The step's CPUs are stepCPUs': all the job's CPUs on the node (jobCPUs)
// unless the step is exact, so srun -n1 inheriting SLURM_MEM_PER_CPU in a
// job of 4 CPUs gets 4 times it, as on the peer.
func stepMemory(r *api.StepLaunchRequest, jobMB int64, jobCPUs int) int64 {
	st := &r.Step
	var mb int64
	switch {
	case st.MemPerNode > 0:
		mb = st.MemPerNode
	case st.MemPerCPU > 0 && r.NodeIndex < len(r.Layout.Nodes):
		cpus := stepCPUs(r, jobCPUs)
		if cpus == 0 {
			cpus = len(r.Layout.Nodes[r.NodeIndex].TaskIDs) * max(st.CPUsPerTask, 1)
		}
		mb = st.MemPerCPU * int64(cpus)
	default:
		return jobMB
	}
	if jobMB > 0 && mb > jobMB {
		return jobMB
	}
	return mb
}
