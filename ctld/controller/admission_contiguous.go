package controller

import (
	"slices"

	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// longestRun is the most nodes of nodes that are consecutive in Slurm's
// node table (every configured node, in natural name order): what a
// --contiguous job can have at best. Slurm refuses at submit a
// --contiguous job no run of its partition holds ("Requested node
// configuration is not available": the peer refused -N3 --contiguous
// -x cpu[002,005,008],gpu[001-032] and ran the job without the flag).
func longestRun(conf *slurmconf.Config, nodes []nodeCap) int {
	all := make([]string, len(conf.Nodes))
	for i := range conf.Nodes {
		all[i] = conf.Nodes[i].Name
	}
	slices.SortFunc(all, hostlist.Compare)
	pos := make(map[string]int, len(all))
	for i, n := range all {
		pos[n] = i
	}
	at := make([]int, 0, len(nodes))
	for _, n := range nodes {
		if p, ok := pos[n.name]; ok {
			at = append(at, p)
		}
	}
	slices.Sort(at)
	best, run := 0, 0
	for i, p := range at {
		if i > 0 && p == at[i-1]+1 {
			run++
		} else {
			run = 1
		}
		best = max(best, run)
	}
	return best
}
