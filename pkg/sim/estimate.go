package sim

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/estimate"
	"github.com/loamhpc/loam/pkg/sched"
)

// EstimateStudy measures start estimates during a replay (R13). It wraps
// the scheduler: after every cycle it teaches an estimate.Model what
// started and what ended, and on a grid of virtual time (Grid, 5 minutes)
// it records, for every pending job, the scheduler's estimate on time
// limits (what Slurm's squeue --start shows) and the history-corrected
// estimate of pkg/estimate. When the job starts, its predictions are
// scored (EstimateReport). Use it as Options.NewScheduler:
//
//	st := sim.NewEstimateStudy(cfg, nodes, estimate.Config{})
//	o.NewScheduler = st.Wrap(o.NewScheduler)
type EstimateStudy struct {
	inner   Cycler
	model   *estimate.Model
	layout  *estimate.Layout
	parts   map[string]sched.Partition
	grid    int64
	next    int64 // next grid time, Unix seconds
	running map[sched.JobID]runSeen
	waiting map[sched.JobID][]prediction
	scores  []scored
}

// runSeen is what the study remembers of a running job to learn from its
// end.
type runSeen struct {
	user, tenant string
	start        time.Time
	limit        time.Duration
	preempting   bool
}

// prediction is one grid sample of a pending job: when it was made and
// the two estimates, Unix seconds (0: none).
type prediction struct {
	at, limit, hist int64
}

// scored is a job's pending episode, resolved by its start.
type scored struct {
	start int64
	preds []prediction
}

// NewEstimateStudy returns a study for a replay on cfg and nodes.
func NewEstimateStudy(cfg sched.Config, nodes []sched.Node, ec estimate.Config) *EstimateStudy {
	st := &EstimateStudy{model: estimate.NewModel(ec), parts: map[string]sched.Partition{}, grid: 300,
		running: map[sched.JobID]runSeen{}, waiting: map[sched.JobID][]prediction{}}
	var pn []estimate.PartitionNodes
	for _, p := range cfg.Partitions {
		st.parts[p.Name] = p
		if p.Up {
			pn = append(pn, estimate.PartitionNodes{Name: p.Name, Nodes: p.Nodes})
		}
	}
	var en []estimate.Node
	for _, n := range nodes {
		en = append(en, estimate.Node{Name: n.Name, GPUs: n.GPUs, CPUs: n.CPUs, Up: n.State == sched.NodeUp})
	}
	st.layout = estimate.NewLayout(pn, en)
	return st
}

// Wrap returns a scheduler factory whose cyclers report to the study.
func (st *EstimateStudy) Wrap(next func(sched.Config) Cycler) func(sched.Config) Cycler {
	return func(cfg sched.Config) Cycler {
		if next == nil {
			st.inner = sched.New(cfg)
		} else {
			st.inner = next(cfg)
		}
		return st
	}
}

// Cycle runs the wrapped scheduler and observes its plan.
func (st *EstimateStudy) Cycle(snap *sched.Snapshot) *sched.Plan {
	plan := st.inner.Cycle(snap)
	now := snap.Now.Unix()
	st.observeEnds(snap)
	var pending map[sched.JobID]*sched.PendingJob
	if len(plan.Starts) > 0 {
		pending = pendingByID(snap)
	}
	for _, s := range plan.Starts {
		st.model.ObserveStart(uint32(s.Job), snap.Now)
		if j := pending[s.Job]; j != nil {
			limit := j.Limit
			if limit <= 0 {
				limit = st.parts[s.Partition].DefaultTime
			}
			st.running[s.Job] = runSeen{user: j.User, tenant: j.Tenant, start: snap.Now, limit: limit}
		}
		if preds := st.waiting[s.Job]; len(preds) > 0 {
			st.scores = append(st.scores, scored{start: now, preds: preds})
		}
		delete(st.waiting, s.Job)
	}
	for _, r := range snap.Running {
		if r.Preempting {
			rs := st.running[r.ID]
			rs.preempting = true
			st.running[r.ID] = rs
		}
	}
	if now >= st.next {
		st.sample(snap, plan)
		st.next = now - now%st.grid + st.grid
	}
	return plan
}

// observeEnds teaches the model the run time of every job that stopped
// running since the last cycle, unless it was preempted (requeued jobs
// pend again; cancelled victims were preempting).
func (st *EstimateStudy) observeEnds(snap *sched.Snapshot) {
	live := make(map[sched.JobID]bool, len(snap.Running))
	for _, r := range snap.Running {
		live[r.ID] = true
	}
	requeued := map[sched.JobID]bool{}
	for _, p := range snap.Pending {
		if _, ok := st.running[p.ID]; ok {
			requeued[p.ID] = true
		}
	}
	for id, r := range st.running {
		if live[id] {
			continue
		}
		delete(st.running, id)
		if !requeued[id] && !r.preempting {
			st.model.ObserveEnd(r.user, r.tenant, r.limit, snap.Now.Sub(r.start))
		}
	}
}

// sample records both estimates of every pending job that has one.
func (st *EstimateStudy) sample(snap *sched.Snapshot, plan *sched.Plan) {
	in, ids := st.input(snap, plan)
	hist := st.model.Estimate(in)
	for i, p := range in.Pending {
		st.waiting[ids[i]] = append(st.waiting[ids[i]],
			prediction{at: snap.Now.Unix(), limit: unixOr0(p.Planned), hist: unixOr0(hist[i])})
	}
}

func pendingByID(snap *sched.Snapshot) map[sched.JobID]*sched.PendingJob {
	m := make(map[sched.JobID]*sched.PendingJob, len(snap.Pending))
	for i := range snap.Pending {
		m[snap.Pending[i].ID] = &snap.Pending[i]
	}
	return m
}

func unixOr0(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}

// input builds the model's view of the snapshot: running jobs with what
// they hold per pool, pending jobs with a planned start in scheduling
// order (partition tier, then priority, then id).
func (st *EstimateStudy) input(snap *sched.Snapshot, plan *sched.Plan) (*estimate.Input, []sched.JobID) {
	in := &estimate.Input{Now: snap.Now, Pools: st.layout.Pools()}
	for _, r := range snap.Running {
		var uses []estimate.NodeUse
		for _, a := range r.Alloc {
			uses = append(uses, estimate.NodeUse{Node: a.Node, GPUs: len(a.GPUs), CPUs: a.CPUs})
		}
		limit := r.Limit
		if r.Preempting {
			limit = max(r.PreemptDeadline.Sub(r.Start), time.Second)
		}
		in.Running = append(in.Running, estimate.Running{ID: uint32(r.ID), User: r.User, Tenant: r.Tenant,
			Start: r.Start, Limit: limit, Use: st.layout.Held(uses)})
	}
	jobs := pendingByID(snap)
	pend := slices.Clone(plan.Pending)
	slices.SortFunc(pend, func(a, b sched.Pending) int {
		return cmp.Or(cmp.Compare(st.parts[b.Partition].Tier, st.parts[a.Partition].Tier),
			cmp.Compare(b.Priority, a.Priority), cmp.Compare(a.Job, b.Job))
	})
	var ids []sched.JobID
	for _, p := range pend {
		j := jobs[p.Job]
		if j == nil || p.EstStart.IsZero() {
			continue
		}
		in.Pending = append(in.Pending, st.pending(j, p))
		ids = append(ids, p.Job)
	}
	return in, ids
}

func (st *EstimateStudy) pending(j *sched.PendingJob, p sched.Pending) estimate.Pending {
	sh := j.Shape
	nodes := max(sh.Nodes, 1)
	gpus := sh.GPUs
	if sh.GPUsPerNode > 0 {
		gpus = sh.GPUsPerNode * nodes
	}
	cpus := sh.CPUs
	if sh.CPUsPerNode > 0 {
		cpus = sh.CPUsPerNode * nodes
	}
	limit := j.Limit
	if limit <= 0 {
		limit = st.parts[p.Partition].DefaultTime
	}
	limited := strings.HasPrefix(string(p.Reason), "QOS") || strings.HasPrefix(string(p.Reason), "Assoc")
	return estimate.Pending{ID: uint32(j.ID), User: j.User, Tenant: j.Tenant,
		Need:  estimate.Use{Pool: st.layout.Pool(p.Partition), GPUs: gpus, CPUs: cpus},
		Limit: limit, Planned: p.EstStart, NotBefore: j.Begin, Limited: limited}
}

// ModelStats is what the study's model learned by the end of the replay.
func (st *EstimateStudy) ModelStats() estimate.Stats { return st.model.Stats() }
