package controller

import (
	"slices"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/job"
)

// jobFilter is a compiled JobQuery or JobFilter.
type jobFilter struct {
	refs       []api.JobRef
	users      map[uint32]bool
	accounts   map[string]bool
	partitions map[string]bool
	states     map[job.State]bool
	names      map[string]bool
	qos        map[string]bool
	nodes      map[string]bool
	resvs      map[string]bool
	// noUser is set when every named user is unknown: nothing matches.
	noUser bool
	// fold compares accounts, partitions and names without ASCII case
	// (the keys above are lowercase then), as Slurm's accounting
	// database does for sacct.
	fold bool
	// query is set for job listings (squeue): states match queryState,
	// SPECIAL_EXIT included (specialexit.go).
	query bool
	// see, when set, hides the jobs the caller may not see (PrivateData,
	// privatedata.go): a hidden job named by id is missing.
	see func(r *jobRecord) bool
}

// filterSpec is what JobQuery and JobFilter share.
type filterSpec struct {
	JobIDs, Users, Accounts, Partitions, States, Names, QOS, Nodes, Reservations []string
	// Fold: see jobFilter.fold.
	Fold bool
	// NotOwner is the error for a user acting on another's job: Slurm's
	// update, hold and release answer "Invalid user id", its cancel,
	// requeue, suspend and top "Access/permission denied" (the default).
	NotOwner api.Code
	// FinishedFirst: a finished job answers "Job has already finished"
	// before its owner is checked, as slurmctld's update, hold and
	// release do (the peer tells another user that of a completed job).
	FinishedFirst bool
}

func set(list []string) map[string]bool {
	if len(list) == 0 {
		return nil
	}
	m := make(map[string]bool, len(list))
	for _, s := range list {
		m[s] = true
	}
	return m
}

// compileFilter parses the references, users, states and node lists.
func (c *Controller) compileFilter(s filterSpec) (*jobFilter, *api.Error) {
	f := &jobFilter{accounts: set(s.Accounts), partitions: set(s.Partitions), names: set(s.Names), qos: set(s.QOS),
		resvs: set(s.Reservations), fold: s.Fold}
	if f.fold {
		f.accounts, f.partitions, f.names = foldSet(s.Accounts), foldSet(s.Partitions), foldSet(s.Names)
	}
	refs, err := api.ParseJobRefs(s.JobIDs)
	if err != nil {
		return nil, api.Errorf(api.CodeInvalidJobID, "%v", err)
	}
	f.refs = refs
	if len(s.Users) > 0 {
		f.users = map[uint32]bool{}
		for _, u := range s.Users {
			if uid, ok := c.users.uidOf(u); ok {
				f.users[uid] = true
			}
		}
		f.noUser = len(f.users) == 0
	}
	for _, st := range s.States {
		state, err := job.ParseState(st)
		if err != nil {
			return nil, api.Errorf(api.CodeBadRequest, "%v", err)
		}
		if f.states == nil {
			f.states = map[job.State]bool{}
		}
		f.states[state] = true
	}
	for _, n := range s.Nodes {
		names, err := hostlist.Expand(n)
		if err != nil {
			return nil, api.Errorf(api.CodeInvalidNodeName, "%v", err)
		}
		if f.nodes == nil {
			f.nodes = map[string]bool{}
		}
		for _, name := range names {
			f.nodes[name] = true
		}
	}
	return f, nil
}

// attrs reports whether the filter selects by anything but references.
func (f *jobFilter) attrs() bool {
	return f.users != nil || f.noUser || f.accounts != nil || f.partitions != nil || f.states != nil ||
		f.names != nil || f.qos != nil || f.nodes != nil || f.resvs != nil
}

// matchAttrs checks everything but the references.
func (f *jobFilter) matchAttrs(r *jobRecord) bool {
	switch {
	case f.noUser:
		return false
	case f.users != nil && !f.users[r.Req.UserID]:
		return false
	case f.accounts != nil && !f.accounts[f.key(r.St.Account)]:
		return false
	case f.states != nil && !f.states[f.state(r)]:
		return false
	case f.names != nil && !f.names[f.key(r.Req.Name)]:
		return false
	case f.qos != nil && !f.qos[r.Req.QOS]:
		return false
	case f.partitions != nil && !f.matchPartition(r):
		return false
	case f.nodes != nil && !f.matchNodes(r):
		return false
	case f.resvs != nil && !f.resvs[r.Req.Reservation]:
		return false
	}
	return true
}

// state is the state -t compares: RESV_DEL_HOLD (advresv_job.go) for
// every filter, SPECIAL_EXIT for job queries only.
func (f *jobFilter) state(r *jobRecord) job.State {
	if f.query {
		return queryState(r)
	}
	return shownState(r)
}

func (f *jobFilter) matchPartition(r *jobRecord) bool {
	if !r.pending() {
		return f.partitions[f.key(r.St.Partition)]
	}
	for _, p := range r.St.Partitions {
		if f.partitions[f.key(p)] {
			return true
		}
	}
	return false
}

func (f *jobFilter) matchNodes(r *jobRecord) bool {
	for _, a := range r.St.Alloc {
		if f.nodes[a.Node] {
			return true
		}
	}
	return false
}

// refMatches reports whether ref names r (or some of its tasks).
func refMatches(ref api.JobRef, r *jobRecord) bool {
	switch {
	case ref.JobID == r.ID && r.St.ArrayJobID == 0:
		// J_N names no task of a job that is not an array: Slurm answers
		// "Invalid job id specified" and leaves J alone.
		return len(ref.Tasks) == 0
	case ref.JobID == r.ID && len(ref.Tasks) == 0 && r.St.ArrayJobID == r.ID:
		return true
	case ref.JobID != r.ID && ref.JobID != r.St.ArrayJobID:
		return false
	case len(ref.Tasks) == 0:
		return ref.JobID == r.St.ArrayJobID || ref.JobID == r.ID
	case r.arrayRecord():
		// A pending array record holds its pending tasks; one that ended
		// pending (scancel A) still names them, as Slurm's does: scancel
		// A_2 then hears "already completing", not "Invalid job id".
		pend := r.pendingTasks()
		for _, t := range ref.Tasks {
			if _, ok := slices.BinarySearch(pend, t); ok {
				return true
			}
		}
		return false
	}
	return ref.JobID == r.St.ArrayJobID && slices.Contains(ref.Tasks, r.St.ArrayTask)
}

// selectJobs returns the live records f selects, in id order, and the
// references that named no live job. With references, only the records
// they can name are visited, so squeue -j stays fast on a full queue.
func (c *Controller) selectJobs(f *jobFilter, visit func(r *jobRecord)) (missing []string) {
	if len(f.refs) == 0 {
		for _, id := range c.order {
			if r := c.jobs[id]; r != nil && f.matchAttrs(r) && (f.see == nil || f.see(r)) {
				visit(r)
			}
		}
		return nil
	}
	var ids []uint32
	for _, ref := range f.refs {
		found := false
		for _, id := range c.candidates(ref.JobID) {
			if r := c.jobs[id]; r != nil && refMatches(ref, r) && (f.see == nil || f.see(r)) {
				ids = append(ids, id)
				found = true
			}
		}
		if !found {
			missing = append(missing, ref.String())
		}
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	for _, id := range ids {
		if r := c.jobs[id]; f.matchAttrs(r) {
			visit(r)
		}
	}
	return missing
}

// candidates are the records a reference to id can name.
func (c *Controller) candidates(id uint32) []uint32 {
	out := slices.Clone(c.arrays[id])
	if r := c.jobs[id]; r != nil && !slices.Contains(out, id) {
		out = append(out, id)
	}
	return out
}

// key is v as the filter's sets hold it.
func (f *jobFilter) key(v string) string {
	if !f.fold {
		return v
	}
	return api.LowerASCII(v)
}

// foldSet is set over the items as key makes them.
func foldSet(list []string) map[string]bool {
	if len(list) == 0 {
		return nil
	}
	m := make(map[string]bool, len(list))
	for _, s := range list {
		m[api.LowerASCII(s)] = true
	}
	return m
}
