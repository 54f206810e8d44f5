package command

import (
	"github.com/loamhpc/loam/pkg/hostlist"
)

// checkStepNodes is what Slurm's srun checks itself before it asks for a
// step in its allocation: -r plus -N (or SLURM_NNODES) within the
// allocation (_validate_relative, first), then -N no more than the
// allocation's nodes less the -x ones. The answer is srun's exit status
// (0: ask).
func (r *srunRun) checkStepNodes() int {
	q, st := &r.res.Request, &r.res.Step
	if r.jobNodes <= 0 {
		return 0 // nothing known to check against; the controller checks
	}
	if st.Relative != nil {
		nodes := max(q.MinNodes, 1)
		if *st.Relative+nodes > r.jobNodes {
			opt := "SLURM_JOB_NUM_NODES"
			if st.NodesOnCommandLine {
				opt = "--nodes"
			}
			r.w.errf("--relative and %s option incompatible with count of allocated nodes (%d+%d>%d)", opt, *st.Relative, nodes, r.jobNodes)
			return 1
		}
	}
	avail := r.jobNodes - r.excludedInJob(q.Exclude)
	if q.NodesSet && q.MinNodes > avail {
		r.w.errf("Only allocated %d nodes asked for %d", avail, q.MinNodes)
		if q.Exclude != "" {
			r.w.errf("Are required nodes explicitly excluded?")
		}
		return 1
	}
	return 0
}

// excludedInJob counts the -x nodes that are in the job's allocation.
func (r *srunRun) excludedInJob(exclude string) int {
	if exclude == "" {
		return 0
	}
	list := r.jobVar("SLURM_JOB_NODELIST")
	nodes, err1 := hostlist.Expand(list)
	ex, err2 := hostlist.Expand(exclude)
	if err1 != nil || err2 != nil || list == "" {
		return 0
	}
	in := map[string]bool{}
	for _, n := range nodes {
		in[n] = true
	}
	count := 0
	for _, n := range ex {
		if in[n] {
			count++
			delete(in, n)
		}
	}
	return count
}

// jobVar is one of the job's variables: from the allocation srun made or
// attached to, else from srun's environment (inside a batch script).
func (r *srunRun) jobVar(name string) string {
	prefix := name + "="
	for i := len(r.jobEnv) - 1; i >= 0; i-- {
		if len(r.jobEnv[i]) > len(prefix) && r.jobEnv[i][:len(prefix)] == prefix {
			return r.jobEnv[i][len(prefix):]
		}
	}
	v, _ := r.env.Getenv(name)
	return v
}

// derefInt is an optional count, 0 when not given.
func derefInt(n *int) int {
	if n == nil {
		return 0
	}
	return *n
}
