package command

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/hostlist"
)

// squeueStepSortDef is squeue -s's order without -S: partition, then
// step id.
const squeueStepSortDef = "P,i"

// Step ids Slurm 22.05 gives its special steps; they sort after every
// numbered step of the same job.
const (
	interactiveStepID = 0xfffffffa
	batchStepID       = 0xfffffffb
	externStepID      = 0xfffffffc
)

// stepCmp compares two steps for one -S letter, before any reversal.
type stepCmp func(now int64, a, b *step) int

// stepSortCmps are the letters squeue -s sorts by. Slurm skips every
// other letter silently (and says nothing for b when listing steps
// either), so an unknown letter sorts nothing here too.
var stepSortCmps = map[byte]stepCmp{
	'i': func(_ int64, a, b *step) int {
		if d := cmp.Compare(a.j.JobID, b.j.JobID); d != 0 {
			return d
		}
		return cmp.Compare(squeueStepNumber(a.id), squeueStepNumber(b.id))
	},
	'N': func(_ int64, a, b *step) int { return compareFirstHosts(a.j.BatchHost, b.j.BatchHost) },
	'P': func(_ int64, a, b *step) int { return strings.Compare(a.j.Partition, b.j.Partition) },
	// A step's time limit is UNLIMITED here: every step compares equal.
	'l': func(int64, *step, *step) int { return 0 },
	'S': func(_ int64, a, b *step) int { return cmp.Compare(a.j.StartTime, b.j.StartTime) },
	'M': func(now int64, a, b *step) int { return cmp.Compare(now-a.j.StartTime, now-b.j.StartTime) },
	'u': func(_ int64, a, b *step) int { return strings.Compare(a.j.UserName, b.j.UserName) },
	'U': func(_ int64, a, b *step) int { return cmp.Compare(a.j.UserID, b.j.UserID) },
}

// squeueStepNumber is the step id as Slurm numbers it, for sorting.
func squeueStepNumber(id string) uint32 {
	switch id {
	case "batch":
		return batchStepID
	case "extern":
		return externStepID
	case "interactive":
		return interactiveStepID
	}
	n, err := strconv.ParseUint(id, 10, 32)
	if err != nil {
		return batchStepID
	}
	return uint32(n)
}

// compareFirstHosts is Slurm's node list order: the first host of each
// sorted list, a step without nodes after any other.
func compareFirstHosts(a, b string) int {
	switch ha, hb := firstHost(a), firstHost(b); {
	case ha == "":
		return 1
	case hb == "":
		return -1
	default:
		return hostlist.Compare(ha, hb)
	}
}

// sortSteps orders steps as squeue -s does. It starts from the order the
// controller lists them in (its job list, each job's batch step before
// its numbered steps), then sorts once per key of spec from the last key
// to the first, each pass stable, as Slurm's list_sort is.
func sortSteps(steps []step, spec string, now int64) {
	stepBaseOrder(steps)
	if spec == "" {
		spec = squeueStepSortDef
	}
	walkSortSpec(spec, func(k sortKey) bool {
		f := stepSortCmps[k.c] // nil for "cluster" (one cluster) and unknown letters
		if f == nil {
			return true
		}
		slices.SortStableFunc(steps, func(a, b step) int {
			if k.reverse {
				return f(now, &b, &a)
			}
			return f(now, &a, &b)
		})
		return true
	})
}

// stepBaseOrder puts steps in the controller's list order: jobs in the
// order squeue finds them (listPositions), a job's batch step first,
// then its numbered steps by number.
func stepBaseOrder(steps []step) {
	recs := make(map[uint32]*jobRec, len(steps))
	all := make([]*jobRec, 0, len(steps))
	for i := range steps {
		if _, ok := recs[steps[i].j.JobID]; !ok {
			r := &jobRec{j: steps[i].j}
			recs[steps[i].j.JobID] = r
			all = append(all, r)
		}
	}
	listPositions(all)
	slices.SortStableFunc(steps, func(a, b step) int {
		if d := cmp.Compare(recs[a.j.JobID].pos, recs[b.j.JobID].pos); d != 0 {
			return d
		}
		return cmp.Compare(stepCreated(a.id), stepCreated(b.id))
	})
}

// stepCreated orders a job's steps by when they start: the batch step
// before any numbered one.
func stepCreated(id string) int64 {
	switch id {
	case "extern":
		return -2
	case "batch":
		return -1
	}
	return int64(squeueStepNumber(id))
}
