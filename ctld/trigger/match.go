package trigger

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
)

// IdleRepeat is the least time between two firings of a permanent --idle
// trigger: a node that stays idle fires it again at Slurm's pace (its
// trigger manager runs every 15 seconds), not at every pass.
const IdleRepeat = 15 * time.Second

// NodeView is a node's condition at one pass.
type NodeView struct {
	Down    bool // DOWN (an admin's, or not responding)
	Drained bool // DRAIN with no job left on it
	Fail    bool // FAIL or FAILING
	Idle    bool // up, not drained, no job
	// IdleSince is when the node last became idle (its LastBusyTime).
	IdleSince time.Time
	// Jobs are the jobs running on it, whose --down, --fail and --up
	// triggers its changes fire.
	Jobs []uint32
}

// JobView is a job's condition at one pass; a job triggers name that the
// controller no longer knows is absent from the Snapshot.
type JobView struct {
	Done    bool // finished (completed, failed, cancelled, ...)
	Pending bool
	// End is when its time limit ends, or when it ended once Done (zero:
	// no limit, or not started).
	End time.Time
}

// Snapshot is the controller's nodes and the jobs that triggers name.
type Snapshot struct {
	Nodes map[string]NodeView
	Jobs  map[uint32]JobView
}

// Fire is a trigger whose program runs now, with its argument: the nodes
// of the event (a host list) or the job id.
type Fire struct {
	Trigger api.Trigger
	Arg     string
}

// Argv is the program's argument vector as Slurm builds it: the program's
// base name, the words after the path in Program, then the event's
// argument.
func (f Fire) Argv() (path string, argv []string) {
	words := strings.Fields(f.Trigger.Program)
	if len(words) == 0 {
		return "", nil
	}
	path = words[0]
	argv = append([]string{path[strings.LastIndex(path, "/")+1:]}, words[1:]...)
	return path, append(argv, f.Arg)
}

// Item states, as Slurm's: waiting for the event, pulled (the event
// happened; the program runs at At), running.
const (
	waiting = iota
	pulled
	running
)

type item struct {
	t     api.Trigger
	nodes map[string]bool // the trigger's nodes; nil: every node
	state int
	at    time.Time
	arg   string
	fired time.Time
	// front is when a permanent trigger's program last started (the
	// set's seq then; 0: never): Slurm puts the copy that waits for the
	// next event at the head of its list, so such triggers list first,
	// the latest first.
	front uint64
}

// Set is the triggers and the last snapshot they were matched against.
// It is not safe for concurrent use: the controller holds its lock.
type Set struct {
	items []*item // by id
	prev  map[string]NodeView
	// noted is the node changes the controller reported since the last
	// pass, and reconfig whether it reconfigured: events seen where they
	// happen, so that one undone before the pass still fires.
	noted    events
	reconfig bool
	seq      uint64 // counts the permanent triggers' starts (item.front)
}

// NewSet returns an empty set.
func NewSet() *Set { return &Set{} }

// Add adds t; nodes are its expanded node list (nil for "*" or a job).
func (s *Set) Add(t api.Trigger, nodes []string) {
	it := &item{t: t}
	if nodes != nil {
		it.nodes = make(map[string]bool, len(nodes))
		for _, n := range nodes {
			it.nodes[n] = true
		}
	}
	i, _ := slices.BinarySearchFunc(s.items, t.ID, func(x *item, id uint32) int { return int(x.t.ID) - int(id) })
	s.items = slices.Insert(s.items, i, it)
}

// Seed gives the set the nodes' conditions when it has not matched yet,
// so that a change right after the first trigger is set is an event.
func (s *Set) Seed(nodes map[string]NodeView) {
	if s.prev == nil {
		s.prev = nodes
	}
}

// Remove drops trigger id; a running program is not stopped.
func (s *Set) Remove(id uint32) {
	s.items = slices.DeleteFunc(s.items, func(x *item) bool { return x.t.ID == id })
}

// Duplicate reports whether a trigger equal to t but for its id is set.
func (s *Set) Duplicate(t api.Trigger) bool {
	for _, it := range s.items {
		o := it.t
		if o.Perm == t.Perm && o.ResType == t.ResType && o.Type == t.Type && o.Offset == t.Offset &&
			o.UID == t.UID && o.Program == t.Program && o.ResID == t.ResID {
			return true
		}
	}
	return false
}

// List returns the triggers strigger --get shows, by id: those waiting
// for their event. As in Slurm, whose list leaves out every trigger past
// its event, a pulled trigger (its offset still running) is not shown,
// permanent or not; a permanent one shows again, as set (its RES_ID the
// one given, not the event's nodes), once its program started, as Slurm
// lists the copy that waits for the next event.
func (s *Set) List() []api.Trigger {
	out := make([]api.Trigger, 0, len(s.items))
	for _, it := range s.ordered() {
		if it.state == waiting || (it.t.Perm && it.state == running) {
			out = append(out, it.t)
		}
	}
	return out
}

// Clearable returns the triggers strigger --clear may remove, by id:
// all but the one-shot ones whose program runs (Slurm keeps those until
// the program ends). A pulled trigger, which List leaves out, may be
// cleared before its offset ends, as in Slurm.
func (s *Set) Clearable() []api.Trigger {
	out := make([]api.Trigger, 0, len(s.items))
	for _, it := range s.items {
		if it.state != running || it.t.Perm {
			out = append(out, it.t)
		}
	}
	return out
}

// Len is the number of triggers, fired ones included.
func (s *Set) Len() int { return len(s.items) }

// Get returns trigger id.
func (s *Set) Get(id uint32) (api.Trigger, bool) {
	for _, it := range s.items {
		if it.t.ID == id {
			return it.t, true
		}
	}
	return api.Trigger{}, false
}

// Jobs returns the jobs the triggers name, for the next Snapshot.
func (s *Set) Jobs() []uint32 {
	var out []uint32
	for _, it := range s.items {
		if id, ok := JobID(it.t); ok {
			out = append(out, id)
		}
	}
	return out
}

// JobID is the job a job trigger names.
func JobID(t api.Trigger) (uint32, bool) {
	if t.ResType != api.TrigResJob {
		return 0, false
	}
	id, err := strconv.ParseUint(t.ResID, 10, 32)
	return uint32(id), err == nil
}

// Step matches the triggers against snap at now. It returns the programs
// to run now and the triggers to forget: job triggers whose job is gone
// before their event. A fired trigger stays until Done.
func (s *Set) Step(now time.Time, snap Snapshot) (fires []Fire, drop []uint32) {
	ev := nodeEvents(s.prev, snap.Nodes).union(s.noted)
	ev.reconfig = s.reconfig
	s.prev, s.noted, s.reconfig = snap.Nodes, events{}, false
	for _, it := range s.ordered() {
		if it.state == waiting {
			if gone := s.match(it, now, snap, ev); gone {
				drop = append(drop, it.t.ID)
				continue
			}
		}
		if it.state == pulled && !now.Before(it.at) {
			it.state, it.fired = running, now
			if it.t.Perm {
				s.seq++
				it.front = s.seq
			}
			fires = append(fires, Fire{Trigger: it.t, Arg: it.arg})
		}
	}
	for _, id := range drop {
		s.Remove(id)
	}
	return fires, drop
}

// ordered is the items in Slurm's list order: the permanent triggers
// that fired, the latest first, then the others by id.
func (s *Set) ordered() []*item {
	out := slices.Clone(s.items)
	slices.SortStableFunc(out, func(a, b *item) int { return cmp.Compare(b.front, a.front) })
	return out
}

// Done records that trigger id's program ended. A permanent trigger waits
// for its event again; Done reports whether the trigger is gone (a
// one-shot one), so the caller forgets it in the store too.
func (s *Set) Done(id uint32) (gone bool) {
	for _, it := range s.items {
		if it.t.ID != id {
			continue
		}
		if it.t.Perm {
			it.state, it.arg = waiting, ""
			return false
		}
		s.Remove(id)
		return true
	}
	return false
}

// NodeChanged records a node's change as the controller makes it, as
// Slurm's node manager sets its trigger bits at the change: a drain
// undone before the next pass still fires the drained triggers. Idle is
// no event but a condition, still seen at each pass.
func (s *Set) NodeChanged(name string, before, after NodeView) {
	if len(s.items) == 0 {
		return // nothing to fire; a trigger set later sees changes from then
	}
	s.noted = s.noted.union(nodeEvents(map[string]NodeView{name: before}, map[string]NodeView{name: after}))
}

// Reconfigured records that the controller reread its configuration or
// changed its nodes (scontrol reconfigure, SIGHUP, scontrol update node):
// the next pass fires the --reconfig triggers, as Slurm's
// trigger_reconfig.
func (s *Set) Reconfigured() {
	if len(s.items) > 0 {
		s.reconfig = true
	}
}

// events are the nodes that changed condition between two passes, the
// jobs that ran on them (by job id, the TrigDown, TrigFail and TrigUp bits
// of their nodes' changes), and whether the controller reconfigured.
type events struct {
	down, drained, fail, up []string
	jobs                    map[uint32]uint32
	reconfig                bool
}

// addJobs records that jobs ran on a node with event bit.
func (ev *events) addJobs(bit uint32, jobs ...[]uint32) {
	for _, js := range jobs {
		for _, j := range js {
			if ev.jobs == nil {
				ev.jobs = map[uint32]uint32{}
			}
			ev.jobs[j] |= bit
		}
	}
}

// union is ev with o's nodes added, each once.
func (ev events) union(o events) events {
	merge := func(a, b []string) []string {
		if len(b) == 0 {
			return a
		}
		out := append(slices.Clone(a), b...)
		slices.Sort(out)
		return slices.Compact(out)
	}
	out := events{down: merge(ev.down, o.down), drained: merge(ev.drained, o.drained),
		fail: merge(ev.fail, o.fail), up: merge(ev.up, o.up), reconfig: ev.reconfig || o.reconfig}
	for _, m := range []map[uint32]uint32{ev.jobs, o.jobs} {
		for j, bits := range m {
			out.addJobs(bits, []uint32{j})
		}
	}
	return out
}

// nodeEvents compares two passes; the first pass has no events (a node
// already down when the controller starts fires nothing).
func nodeEvents(prev, cur map[string]NodeView) events {
	var ev events
	if prev == nil {
		return ev
	}
	for name, n := range cur {
		p, ok := prev[name]
		if !ok {
			continue
		}
		// A node's jobs are those of either pass: the controller fails
		// or requeues them as it marks the node down.
		if n.Down && !p.Down {
			ev.down = append(ev.down, name)
			ev.addJobs(api.TrigDown, p.Jobs, n.Jobs)
		}
		if !n.Down && p.Down {
			ev.up = append(ev.up, name)
			ev.addJobs(api.TrigUp, p.Jobs, n.Jobs)
		}
		if n.Drained && !p.Drained {
			ev.drained = append(ev.drained, name)
		}
		if n.Fail && !p.Fail {
			ev.fail = append(ev.fail, name)
			ev.addJobs(api.TrigFail, p.Jobs, n.Jobs)
		}
	}
	return ev
}

// match pulls it when its event happened; gone reports a job trigger
// whose job no longer exists.
func (s *Set) match(it *item, now time.Time, snap Snapshot, ev events) (gone bool) {
	if it.t.ResType == api.TrigResJob {
		return matchJob(it, now, snap, ev)
	}
	if it.t.ResType != api.TrigResNode {
		return false // never happens in Loam (man page)
	}
	offset := time.Duration(it.t.Offset) * time.Second
	for _, c := range []struct {
		bit   uint32
		nodes []string
	}{{api.TrigDown, ev.down}, {api.TrigDrained, ev.drained}, {api.TrigFail, ev.fail}} {
		if it.t.Type&c.bit != 0 && it.pull(c.nodes, now.Add(offset)) {
			return false
		}
	}
	if it.t.Type&api.TrigIdle != 0 && (it.fired.IsZero() || now.Sub(it.fired) >= IdleRepeat) &&
		it.pull(idleNodes(snap.Nodes, now.Add(-offset)), now) {
		return false
	}
	if it.t.Type&api.TrigUp != 0 && it.pull(ev.up, now.Add(offset)) {
		return false
	}
	if it.t.Type&api.TrigReconfig != 0 && ev.reconfig {
		// Slurm's argument for a reconfiguration is the word "reconfig".
		it.state, it.at, it.arg = pulled, now.Add(offset), "reconfig"
	}
	return false
}

// pull pulls it if nodes (the event's) meet its own; the argument is the
// nodes they share.
func (it *item) pull(nodes []string, at time.Time) bool {
	var hit []string
	for _, n := range nodes {
		if it.nodes == nil || it.nodes[n] {
			hit = append(hit, n)
		}
	}
	if len(hit) == 0 {
		return false
	}
	slices.Sort(hit)
	it.state, it.at, it.arg = pulled, at, hostlist.Compress(hit)
	return true
}

// idleNodes are the nodes idle since before the cut.
func idleNodes(nodes map[string]NodeView, cut time.Time) []string {
	var out []string
	for name, n := range nodes {
		if n.Idle && !n.IdleSince.After(cut) {
			out = append(out, name)
		}
	}
	return out
}

// matchJob pulls a job trigger: --fini when the job ended (or is gone),
// --time when its time limit is within -offset seconds, --down, --fail and
// --up when one of the job's nodes went down, was set to fail or came
// back up. As in Slurm, a job that ends before its limit ends its time
// there: a --time trigger fires then, while the controller still knows
// the job; and the argument is always the job id.
func matchJob(it *item, now time.Time, snap Snapshot, ev events) (gone bool) {
	id, _ := JobID(it.t)
	j, ok := snap.Jobs[id]
	offset := time.Duration(it.t.Offset) * time.Second
	it.arg = it.t.ResID
	if it.t.Type&api.TrigFini != 0 && (!ok || j.Done) {
		it.state, it.at = pulled, now.Add(offset)
		return false
	}
	if !ok {
		return true
	}
	if it.t.Type&api.TrigTime != 0 && !j.Pending && !j.End.IsZero() && j.End.Sub(now) <= -offset {
		it.state, it.at = pulled, now
		return false
	}
	for _, c := range []struct {
		bit uint32
		at  time.Time
	}{
		{api.TrigDown, now.Add(offset)},
		{api.TrigFail, now.Add(offset)},
		{api.TrigUp, now.Add(-offset)}, // Slurm subtracts a job's --up offset
	} {
		if it.t.Type&c.bit != 0 && ev.jobs[id]&c.bit != 0 {
			it.state, it.at = pulled, c.at
			return false
		}
	}
	return false
}
