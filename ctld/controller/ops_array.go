package controller

import (
	"cmp"
	"slices"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// taskGroups collects the outcome of an operation on the records of one
// job array, task by task, grouped by error as Slurm's array answers are:
// a split task counts as itself; the array's pending record counts as the
// tasks the reference named when the operation went through (they were
// split off and acted on) and as every task it holds when it failed
// (Slurm fails the whole record: "requeue 12_2" answers "12_0-5: Job is
// pending execution").
type taskGroups struct {
	arrayID uint32
	recs    []recOutcome
	errs    []*api.Error // one per group, nil for success
	tasks   [][]int
	seen    map[int]bool
}

// recOutcome is one record's part of the answer.
type recOutcome struct {
	id      uint32
	pending bool // the array's pending record
	err     *api.Error
	tasks   []int
}

// add records the outcome err of acting on r; held are the tasks r's
// pending record held before the operation.
func (g *taskGroups) add(r *jobRecord, ref api.JobRef, held []int, err *api.Error) {
	if r.St.ArrayJobID == 0 {
		return
	}
	g.arrayID = r.St.ArrayJobID
	var tasks []int
	switch {
	case held == nil: // a task of its own
		if t := r.taskID(); t != nil {
			tasks = []int{*t}
		}
	case err == nil && len(ref.Tasks) > 0:
		named := make(map[int]bool, len(ref.Tasks))
		for _, t := range ref.Tasks {
			named[t] = true
		}
		for _, t := range held {
			if named[t] {
				tasks = append(tasks, t)
			}
		}
	default:
		tasks = held
	}
	g.recs = append(g.recs, recOutcome{id: r.ID, pending: held != nil, err: err, tasks: tasks})
}

func (g *taskGroups) put(err *api.Error, tasks []int) {
	if g.seen == nil {
		g.seen = map[int]bool{}
	}
	for _, t := range tasks {
		g.seen[t] = true
	}
	for i, e := range g.errs {
		if sameCode(e, err) {
			g.tasks[i] = append(g.tasks[i], tasks...)
			return
		}
	}
	g.errs = append(g.errs, err)
	g.tasks = append(g.tasks, slices.Clone(tasks))
}

func sameCode(a, b *api.Error) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Code == b.Code
}

// outcomes returns the groups, with the tasks ref named that no record
// holds as an invalid job id; nil when ref named no array.
func (g *taskGroups) outcomes(ref api.JobRef) []api.TaskOutcome {
	if g.arrayID == 0 {
		return nil
	}
	// Groups appear in the order Slurm's answers show them: the split
	// tasks newest first, then the pending record ("12_0-1: No error"
	// before "12_2-5: Job is pending execution" for suspend, requeue and
	// update of an array with two tasks running).
	slices.SortStableFunc(g.recs, func(a, b recOutcome) int {
		if a.pending != b.pending {
			if a.pending {
				return 1
			}
			return -1
		}
		return cmp.Compare(b.id, a.id)
	})
	for _, r := range g.recs {
		g.put(r.err, r.tasks)
	}
	var missing []int
	for _, t := range ref.Tasks {
		if !g.seen[t] {
			missing = append(missing, t)
		}
	}
	if missing != nil {
		g.put(api.NewError(api.CodeInvalidJobID), missing)
	}
	// slurmctld (_resp_array_xlate) lists the groups by their lowest
	// task: "12_1,3: No error" before "12_2: Job is pending execution".
	order := make([]int, 0, len(g.errs))
	for i := range g.errs {
		if len(g.tasks[i]) > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(slices.Min(g.tasks[a]), slices.Min(g.tasks[b])) })
	out := make([]api.TaskOutcome, 0, len(order))
	for _, i := range order {
		out = append(out, api.TaskOutcome{ArrayJobID: g.arrayID, Tasks: taskRanges(g.tasks[i]), Error: g.errs[i]})
	}
	return out
}

// taskRanges prints task indexes as Slurm's bitmaps print: "0,3-5".
func taskRanges(tasks []int) string {
	ts := slices.Clone(tasks)
	slices.Sort(ts)
	return job.FormatRanges(slices.Compact(ts))
}
