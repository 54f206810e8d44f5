package jobopt

import (
	"fmt"
	"strings"

	"github.com/loamhpc/loam/pkg/hostlist"
)

// arbitraryHosts keeps, for srun -m arbitrary, the node of each task in
// order: the -w list, or when there is none the file SLURM_HOSTFILE names
// (one node name a line, or several separated by commas), as Slurm's srun
// reads it. The node list the step asks for is then that file's nodes.
func (b *builder) arbitraryHosts(st *srunState) error {
	if !b.arbitrary || !st.srun {
		return nil
	}
	if b.req.NodeList == "" {
		file, ok := b.p.getenv("SLURM_HOSTFILE")
		if !ok || file == "" {
			// srun counts the tasks from the (empty) list unless -n
			// was an option: "invalid number of tasks (-n 0)" comes
			// first; with -n, verifyDistribution says -w is needed.
			if v, ok := b.passed["ntasks"]; !ok || v.src == fromEnv {
				return b.exitError("invalid number of tasks (-n 0)")
			}
			if st.JobID != 0 {
				return b.exitError(fmt.Sprintf("You asked for %d tasks but hostlist specified 0 nodes", b.req.NTasks))
			}
			return nil
		}
		names, err := readHostFile(file, b.p.Cwd)
		if err != nil {
			return b.exitError(err.Error())
		}
		b.req.NodeList = strings.Join(names, ",")
	}
	hosts, err := hostlist.Expand(b.req.NodeList)
	if err != nil {
		return b.exitError("Invalid node list \"" + b.req.NodeList + "\": " + err.Error())
	}
	st.TaskHosts = hosts
	// In a job, srun's job_step_create_allocation wants a host for
	// each task (the allocation path asks -w for one instead).
	if v, ok := b.passed["ntasks"]; ok && v.src != fromEnv && st.JobID != 0 && b.req.NTasks != len(hosts) {
		return b.exitError(fmt.Sprintf("You asked for %d tasks but hostlist specified %d nodes", b.req.NTasks, len(hosts)))
	}
	return nil
}

// setRelative reads -r: a node index, 0 or more.
func (st *srunState) setRelative(b *builder, v value) error {
	if v.reset {
		st.Relative = nil
		return nil
	}
	n, err := b.parseInt("--relative", v.str, false)
	if err != nil {
		return err
	}
	st.Relative = &n
	return nil
}
