package sim

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/loamhpc/loam/pkg/cluster"
	"github.com/loamhpc/loam/pkg/sched"
)

// Cycler is the scheduler as the simulator calls it: *sched.Scheduler, or a
// wrapper (the CLI times each cycle with one).
type Cycler interface {
	Cycle(snap *sched.Snapshot) *sched.Plan
}

// Checker verifies one cycle's plan against the snapshot it was made from
// and returns every invariant it breaks.
type Checker func(cfg sched.Config, snap *sched.Snapshot, plan *sched.Plan) error

// Options describe one replay.
type Options struct {
	// Config is the scheduler configuration, Policy included.
	Config sched.Config
	Nodes  []sched.Node
	Jobs   []Job
	// Epoch is the virtual wall time of trace second 0.
	Epoch time.Time
	// Interval is the period of scheduling passes while jobs pend, besides
	// the pass after every batch of events (Slurm's sched_interval); 0
	// means 60 s.
	Interval time.Duration
	// Checkpoint is how often running jobs checkpoint: a preempted job
	// resumes from its last checkpoint and loses the run time since (0:
	// never, it restarts from scratch). CheckpointOnSignal makes victims
	// save their state when the preemption signal arrives, so they lose
	// only the grace window.
	Checkpoint         time.Duration
	CheckpointOnSignal bool
	// StarveAfter is the wait beyond which a job counts as starved (0:
	// 72 h). Jobs still pending when the replay ends are starved too.
	StarveAfter time.Duration
	// FairSettle is how long a tenant's pending job must wait before the
	// tenant counts as owed its share for it (0: 15 minutes): the time a
	// scheduler needs to hand GPUs back (a preemption grace window and a
	// few passes). See TenantResult.FairRatio.
	FairSettle time.Duration
	// Horizon stops a replay that is still going this long after the last
	// submission, with an error: a scheduler that keeps preempting and
	// restarting the same jobs never drains the queue (0: 365 days).
	Horizon time.Duration
	// Log receives the decision log (nil: none).
	Log io.Writer
	// NewScheduler builds the scheduler (nil: sched.New).
	NewScheduler func(sched.Config) Cycler
	// Check runs after every cycle; a violation stops the replay (nil:
	// sched.CheckPlan). SkipCheck turns it off, for test doubles that do
	// not keep the scheduler's invariants.
	Check     Checker
	SkipCheck bool
}

func (o *Options) defaults() {
	if o.Interval <= 0 {
		o.Interval = time.Minute
	}
	if o.StarveAfter <= 0 {
		o.StarveAfter = 72 * time.Hour
	}
	if o.FairSettle <= 0 {
		o.FairSettle = 15 * time.Minute
	}
	if o.Horizon <= 0 {
		o.Horizon = 365 * day
	}
	if o.Check == nil && !o.SkipCheck {
		o.Check = func(cfg sched.Config, snap *sched.Snapshot, plan *sched.Plan) error {
			return sched.CheckPlan(&cfg, snap, plan)
		}
	}
	if o.NewScheduler == nil {
		o.NewScheduler = func(cfg sched.Config) Cycler { return sched.New(cfg) }
	}
}

// jobRun is the replay state of one job.
type jobRun struct {
	*Job
	idx        int
	epoch      int // increments at every start
	running    bool
	done       bool
	state      string
	gpus       int           // allocated in the current run
	firstStart time.Duration // -1 until the first start
	runStart   time.Duration
	end        time.Duration
	remaining  time.Duration // work left
	preempted  int
	grace      time.Duration // of the current preemption
	mode       sched.PreemptMode
	worked     time.Duration // useful run time, set when the job ends
	lostGPUSec float64
	refused    sched.Reason // set when the replay refused the job (refuse.go)
}

type simulator struct {
	o      Options
	cl     *cluster.Cluster
	sched  Cycler
	q      queue
	jobs   []jobRun
	byID   map[sched.JobID]int
	log    *decisionLog
	m      *meter
	now    time.Duration
	ticked time.Duration // time of the queued tick, -1 when none
	idle   int           // consecutive ticks that could change nothing
	cycles int
}

// Run replays o.Jobs and returns the metrics. It fails on the first
// invariant violation, plan the cluster refuses, or event that does not
// apply, naming the virtual time.
func Run(o Options) (*Result, error) {
	o.defaults()
	s, err := newSimulator(o)
	if err != nil {
		return nil, err
	}
	if err := s.loop(); err != nil {
		return nil, fmt.Errorf("replay (%s) at t=%s: %w", policyName(o.Config.Policy), secs(s.now), err)
	}
	if err := s.log.err; err != nil {
		return nil, fmt.Errorf("write decision log: %w", err)
	}
	return s.result(), nil
}

func newSimulator(o Options) (*simulator, error) {
	cl, err := cluster.New(o.Config, o.Nodes)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	s := &simulator{o: o, cl: cl, sched: o.NewScheduler(o.Config), ticked: -1,
		byID: make(map[sched.JobID]int, len(o.Jobs)), log: &decisionLog{w: o.Log}}
	s.jobs = make([]jobRun, len(o.Jobs))
	for i := range o.Jobs {
		j := &o.Jobs[i]
		s.jobs[i] = jobRun{Job: j, idx: i, firstStart: -1, remaining: j.Run}
		if _, dup := s.byID[j.Spec.ID]; dup || j.Spec.ID == 0 {
			return nil, fmt.Errorf("replay: job %s: id %d is zero or repeated", j.Rec.JobID, j.Spec.ID)
		}
		s.byID[j.Spec.ID] = i
		s.q.push(event{at: j.Rec.Submit, kind: evSubmit, job: i})
		if j.NeverRan {
			s.q.push(event{at: j.CancelAt, kind: evCancel, job: i})
		}
	}
	s.m = newMeter(o, s.jobs)
	return s, nil
}

// loop takes every batch of simultaneous events, applies it, and runs one
// scheduling pass after it.
func (s *simulator) loop() error {
	for {
		e, ok := s.q.peek()
		if !ok {
			return nil
		}
		if e.at > s.m.winEnd+s.o.Horizon {
			return fmt.Errorf("still running %v after the last submission: livelock?", s.o.Horizon)
		}
		s.m.advance(e.at)
		s.now = e.at
		onlyTick := true
		for ok && e.at == s.now {
			s.q.pop()
			onlyTick = onlyTick && e.kind == evTick
			if err := s.apply(e); err != nil {
				return err
			}
			e, ok = s.q.peek()
		}
		started, err := s.cycle()
		if err != nil {
			return err
		}
		if s.stuck(onlyTick, started) {
			return nil
		}
		s.scheduleTick()
	}
}

// stuck says whether the replay can stop with jobs still pending: only
// ticks remain, nothing runs, and ten passes in a row started nothing. What
// pends then can never run on this cluster.
func (s *simulator) stuck(onlyTick bool, started int) bool {
	pending, running := s.cl.Counts()
	if !onlyTick || started > 0 || running > 0 || pending == 0 || s.q.len() > 0 {
		s.idle = 0
		return false
	}
	s.idle++
	return s.idle >= 10
}

func (s *simulator) scheduleTick() {
	if pending, _ := s.cl.Counts(); pending == 0 || s.ticked >= s.now {
		return
	}
	s.ticked = s.now + s.o.Interval
	s.q.push(event{at: s.ticked, kind: evTick})
}

func (s *simulator) wall(t time.Duration) time.Time { return s.o.Epoch.Add(t) }

// apply performs one event on the cluster.
func (s *simulator) apply(e event) error {
	if e.kind == evTick {
		return nil
	}
	j := &s.jobs[e.job]
	switch e.kind {
	case evSubmit:
		spec := j.Spec
		spec.Submit = s.wall(s.now)
		if err := s.cl.Submit(spec); err != nil {
			return err
		}
		s.m.submitted(j)
	case evEnd:
		if j.running && e.epoch == j.epoch {
			return s.finish(j, s.endState(j))
		}
	case evKill:
		if j.running && e.epoch == j.epoch {
			return s.kill(j)
		}
	case evCancel:
		return s.cancel(j)
	}
	return nil
}

// endState is the state of a run that reached its scheduled end: TIMEOUT
// when the work did not fit the limit, else the recorded end state.
func (s *simulator) endState(j *jobRun) string {
	if s.now-j.runStart < j.remaining {
		return "TIMEOUT"
	}
	switch j.Rec.State {
	case "RUNNING", "PENDING", "PREEMPTED", "TIMEOUT", "":
		return "COMPLETED"
	}
	return j.Rec.State
}

func (s *simulator) finish(j *jobRun, state string) error {
	if err := s.cl.End(j.Spec.ID, s.wall(s.now)); err != nil {
		return err
	}
	s.m.stopped(j)
	j.worked = j.Run - j.remaining + (s.now - j.runStart)
	j.running, j.done, j.state, j.end = false, true, state, s.now
	return nil
}

// kill ends a preemption victim's grace window: it is requeued having lost
// the run time since its last checkpoint, or, when the preemption cancels
// (PreemptMode=CANCEL) or the job may not be requeued, it ends PREEMPTED.
func (s *simulator) kill(j *jobRun) error {
	info, ok := s.cl.Job(j.Spec.ID)
	if !ok || info.Running == nil || !info.Running.Preempting {
		return fmt.Errorf("kill job %d: not a preempted running job", j.Spec.ID)
	}
	ran := s.now - j.runStart
	saved := s.savedProgress(j, ran)
	lost := ran - saved
	j.remaining -= saved
	j.lostGPUSec += float64(j.gpus) * lost.Seconds()
	s.m.lost(j, s.now-lost, s.now)
	if j.mode == sched.PreemptCancel || !info.Running.Requeue {
		return s.finish(j, "PREEMPTED")
	}
	if err := s.cl.Requeue(j.Spec.ID, s.wall(s.now), lost); err != nil {
		return err
	}
	s.m.stopped(j)
	s.m.repended(j)
	j.running = false
	s.log.requeue(s.now, j.Spec.ID, lost)
	return nil
}

// savedProgress is the work a victim keeps after running for ran: up to
// its last periodic checkpoint, or with checkpoint-on-signal everything but
// the grace window it spent saving.
func (s *simulator) savedProgress(j *jobRun, ran time.Duration) time.Duration {
	var saved time.Duration
	if s.o.Checkpoint > 0 {
		saved = ran / s.o.Checkpoint * s.o.Checkpoint
	}
	if s.o.CheckpointOnSignal {
		saved = max(saved, ran-j.grace)
	}
	return min(saved, j.remaining)
}

// cancel is the user giving up on a job that never ran in the recorded
// system: pending, it leaves the queue; running (it started earlier here),
// it ends CANCELLED.
func (s *simulator) cancel(j *jobRun) error {
	switch {
	case j.done:
		return nil
	case j.running:
		return s.finish(j, "CANCELLED")
	}
	if err := s.cl.Cancel(j.Spec.ID); err != nil {
		return err
	}
	s.m.cancelled(j)
	j.done, j.state, j.end = true, "CANCELLED", s.now
	return nil
}

// cycle runs one scheduling pass at s.now and acts on its plan.
func (s *simulator) cycle() (started int, err error) {
	now := s.wall(s.now)
	s.cl.Advance(now)
	snap := s.cl.Snapshot(now)
	plan := s.sched.Cycle(snap)
	s.cycles++
	if plan == nil {
		return 0, errors.New("scheduler returned no plan")
	}
	if s.o.Check != nil && !s.o.SkipCheck {
		if err := s.o.Check(s.o.Config, snap, plan); err != nil {
			return 0, fmt.Errorf("invariant violated: %w", err)
		}
	}
	s.log.plan(s.now, s.o.Epoch, plan)
	s.m.fragmentation(plan.Fragmentation)
	s.m.reasons(plan.Pending)
	acts, err := s.cl.ApplyPlan(plan)
	if err != nil {
		return 0, fmt.Errorf("cluster refused the plan: %w", err)
	}
	for _, a := range acts {
		if err := s.act(a); err != nil {
			return 0, err
		}
		if a.Kind == cluster.ActLaunch {
			started++
		}
	}
	return started, s.refuseNeverRunnable(plan)
}

func (s *simulator) act(a cluster.Action) error {
	i, ok := s.byID[a.Job]
	if !ok {
		return fmt.Errorf("plan acts on job %d, which the trace does not have", a.Job)
	}
	j := &s.jobs[i]
	switch a.Kind {
	case cluster.ActLaunch:
		j.epoch++
		j.running, j.runStart = true, s.now
		if j.firstStart < 0 {
			j.firstStart = s.now
		}
		j.gpus = allocGPUs(a.Alloc)
		d := j.remaining
		if a.Limit > 0 && a.Limit < d {
			d = a.Limit
		}
		s.q.push(event{at: s.now + d, kind: evEnd, job: i, epoch: j.epoch})
		s.m.started(j)
	case cluster.ActPreempt:
		j.preempted++
		j.grace, j.mode = a.Grace, a.Mode
		s.m.preempted(j, a.Grace)
		s.q.push(event{at: a.Deadline.Sub(s.o.Epoch), kind: evKill, job: i, epoch: j.epoch})
	}
	return nil
}

func allocGPUs(alloc []sched.NodeAlloc) int {
	n := 0
	for _, a := range alloc {
		n += len(a.GPUs)
	}
	return n
}
