package supervisor

import (
	"os"
	"time"

	"github.com/loamhpc/loam/noded/shim"
	"github.com/loamhpc/loam/pkg/rlimit"
)

// execWait bounds the wait for a held job process to be past its exec.
const execWait = 10 * time.Second

// setLimits gives the held job process pid the submitter's soft limits
// that slurm.conf propagates (SLURM_RLIMIT_* of the request, from sbatch)
// and caps its RLIMIT_RSS at the job's memory, as slurmstepd does before
// it runs the script, once the process is past its exec (held says so).
// What cannot be set is logged, never fatal: the job runs with the node's
// limit, as under Slurm.
func (s *Supervisor) setLimits(pid int, held *os.File) {
	if err := shim.AwaitExec(held, execWait); err != nil {
		s.log.WithError(err).Warn("job process limits")
	}
	errs, notes := rlimit.Apply(pid, rlimit.Requests(s.launch.Request.Environment), s.launch.RLimits)
	for _, e := range errs {
		s.log.Error(e)
	}
	for _, n := range notes {
		s.log.Info(n)
	}
	if err := rlimit.CapRSS(pid, s.launch.MemoryBytes>>20); err != nil {
		s.log.WithError(err).Warn("memory limit")
	}
}
