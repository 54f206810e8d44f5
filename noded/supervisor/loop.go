package supervisor

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/loamhpc/loam/noded/lifecycle"
	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/isolation"
	"github.com/loamhpc/loam/pkg/job"
)

// start loads the cgroup the daemon created and starts the job; a
// non-nil result means it never ran.
func (s *Supervisor) start() *api.JobEvent {
	l := &s.launch
	if s.groups == nil {
		return launchFailed(FailSetup, "cgroups are unavailable on %s", l.Node)
	}
	g, err := s.groups.Load(l.Group)
	if err != nil {
		s.log.WithError(err).Error("load cgroup")
		if why, rerr := os.ReadFile(filepath.Join(s.dir, GroupErrorFile)); rerr == nil {
			return launchFailed(FailSetup, "%s", why)
		}
		return launchFailed(FailSetup, "load cgroup: %v", err)
	}
	s.group = g
	if !l.Request.Batch {
		s.job = newAllocation(g)
		s.ctl.setRunning(time.Now(), 0)
		return nil
	}
	b, res := s.startBatch(g)
	if res != nil {
		s.log.WithField("reason", res.Message).Warn("launch failed")
		s.cleanup()
		return res
	}
	s.job = b
	st := spool.Start{Time: time.Now(), Pid: b.cmd.Process.Pid}
	if err := spool.WriteJSON(filepath.Join(s.dir, spool.StartFile), st); err != nil {
		s.log.WithError(err).Warn("write start")
	}
	s.ctl.setRunning(st.Time, st.Pid)
	s.log.WithField("pid", st.Pid).Info("job started")
	return nil
}

// limits are the job's lifecycle limits from its launch.
func (s *Supervisor) limits() lifecycle.Limits {
	r := &s.launch.Request
	start, _ := s.ctl.status()
	lim := lifecycle.Limits{Start: start.Start, Warn: r.Signal, KillWait: time.Duration(r.KillWait) * time.Second}
	if r.StartTime > 0 {
		lim.Start = time.Unix(r.StartTime, 0)
	}
	// Slurm reads a time limit of 0 as none, like UNLIMITED.
	if r.TimeLimit > 0 {
		lim.TimeLimit = time.Duration(r.TimeLimit) * time.Second
	}
	return lim
}

// loop drives the running job until its batch script (or allocation)
// ends, then returns its result.
func (s *Supervisor) loop() *api.JobEvent {
	m := lifecycle.New(s.limits())
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	done := s.job.Done()
	var exitedAt time.Time
	var poll <-chan time.Time // while steps outlive the batch shell
	for {
		timer.Stop()
		var wake <-chan time.Time
		if next, ok := m.Next(); ok {
			timer.Reset(time.Until(next))
			wake = timer.C
		}
		select {
		case <-done:
			exitedAt = time.Now()
			if !s.lingers(m) {
				return s.ended(m.Exited(exitedAt))
			}
			done = nil
			ticker := time.NewTicker(lingerPoll)
			defer ticker.Stop()
			poll = ticker.C
		case <-poll:
			if !s.lingers(m) {
				return s.ended(m.Exited(exitedAt))
			}
		case <-wake:
			s.apply(m.Tick(time.Now()))
			if poll != nil && !s.lingers(m) {
				return s.ended(m.Exited(exitedAt)) // the grace is over
			}
		case req := <-s.ctl.reqs:
			s.apply(s.order(m, req))
			close(req.done)
		}
		if s.killFailed { // processes outlived SIGKILL: end without them
			return s.ended(m.Exited(time.Now()))
		}
		s.releaseIdle(m)
	}
}

// lingerPoll is how often the supervisor looks whether a job's steps
// that outlived its batch shell have ended.
const lingerPoll = 100 * time.Millisecond

// lingers reports whether the job's other processes (its steps) may
// outlive the batch shell: the job is being ended (cancel, preemption,
// time limit), its SIGKILL is still to come, and processes are left in
// its cgroup. As in Slurm, a step keeps the grace (KillWait) to save its
// work when the batch shell dies at once on SIGTERM; the SIGKILL at the
// end of the grace ends whatever is left.
func (s *Supervisor) lingers(m *lifecycle.Machine) bool {
	if !m.InGrace() || s.group == nil {
		return false
	}
	pids, err := s.group.Pids()
	return err == nil && len(pids) > 0
}

// releaseIdle ends an allocation being ended at once when it holds no
// processes: there is nothing to wait KillWait for.
func (s *Supervisor) releaseIdle(m *lifecycle.Machine) {
	a, ok := s.job.(*allocation)
	if !ok || !m.Ending() {
		return
	}
	if pids, err := a.group.Pids(); err == nil && len(pids) == 0 {
		_ = a.KillAll()
	}
}

// order turns a control request into lifecycle actions.
func (s *Supervisor) order(m *lifecycle.Machine, req request) []lifecycle.Action {
	now := time.Now()
	switch {
	case req.signal != nil:
		return []lifecycle.Action{{Kind: lifecycle.Signal, Signal: syscall.Signal(req.signal.Signal), Scope: signalScope(req.signal)}}
	case req.terminate != nil:
		t := req.terminate
		return m.Terminate(now, t.Reason, syscall.Signal(t.Signal), time.Duration(t.Grace)*time.Second)
	case req.timeLimit != nil:
		limit := time.Duration(req.timeLimit.TimeLimit) * time.Second
		if req.timeLimit.TimeLimit <= 0 {
			limit = 0
		}
		return m.SetTimeLimit(now, limit)
	case req.notify != nil:
		s.notify(req) // notify.go
	case req.suspend != nil:
		return suspendActions(m, now, req.suspend) // suspend.go
	}
	return nil
}

// signalScope is the scope of scancel --signal: -b the batch shell, -f
// every process, else the steps.
func signalScope(req *api.SignalRequest) lifecycle.Scope {
	switch {
	case req.BatchOnly:
		return lifecycle.ScopeBatch
	case req.Full:
		return lifecycle.ScopeAll
	}
	return lifecycle.ScopeSteps
}

// apply carries out lifecycle actions.
func (s *Supervisor) apply(acts []lifecycle.Action) {
	for _, a := range acts {
		var err error
		switch a.Kind {
		case lifecycle.Announce:
			s.announceSteps(a.Reason) // steps_ending.go
			s.job.Announce(announceLine(s.launch.Node, s.launch.Request.JobID, a.Reason, time.Now()))
		case lifecycle.Signal:
			err = s.job.Signal(a.Signal, a.Scope)
		case lifecycle.Kill:
			err = s.killAll() // unkillable.go
		case lifecycle.Freeze, lifecycle.Thaw:
			err = s.setFrozen(a.Kind == lifecycle.Freeze) // suspend.go
		}
		if err != nil {
			s.log.WithError(err).WithField("action", a.Kind).Warn("job action")
		}
	}
}

// ended kills what the script left behind, reads the OOM count, removes
// the cgroup and builds the result.
func (s *Supervisor) ended(o lifecycle.Outcome) *api.JobEvent {
	killErr := s.killAll()
	if killErr != nil && !s.killFailed {
		s.log.WithError(killErr).Error("kill leftover processes")
	}
	res := &api.JobEvent{
		Kind:          api.EventEnded,
		ExitCode:      job.FromWaitStatus(int(s.exitStatus())),
		TimedOut:      o.TimedOut,
		Terminated:    o.Terminated,
		ExitedInGrace: o.ExitedInGrace,
	}
	res.Usage = s.usage() // usage.go
	if n, err := s.group.OOMKills(); err != nil {
		s.log.WithError(err).Warn("read OOM count")
	} else if n > 0 {
		res.OOM = true
		res.Message = "Detected " + itoa(int(n)) + " oom_kill event in " + s.group.Name()
		s.job.Announce(oomLine(s.launch.Node, s.launch.Request.JobID, uint64(n))) // oom.go
	}
	switch {
	case s.killFailed:
		s.unkillable(res) // unkillable.go: the group keeps its processes
	case killErr == nil:
		s.remove() // KillAll emptied the group: no second kill round
	default:
		s.cleanup()
	}
	return res
}

// cleanup kills what is left in the job's cgroup and removes it;
// processes that refuse to die keep it (and are logged) rather than being
// orphaned outside any group.
func (s *Supervisor) cleanup() {
	if s.group == nil {
		return
	}
	if err := s.group.Kill(); err != nil {
		s.log.WithError(err).Error("remove cgroup")
		return
	}
	s.remove()
}

// remove removes the job's empty cgroup.
func (s *Supervisor) remove() {
	if err := s.group.Delete(); err != nil && !errors.Is(err, isolation.ErrNotExist) {
		s.log.WithError(err).Error("remove cgroup")
	}
}

// allocation is a non-batch node's share of a job: a cgroup held for the
// job's steps until it is killed.
type allocation struct {
	group isolation.Group
	done  chan struct{}
}

func newAllocation(g isolation.Group) *allocation {
	return &allocation{group: g, done: make(chan struct{})}
}

// Signal signals the allocation's steps; it has no batch shell.
func (a *allocation) Signal(sig syscall.Signal, scope lifecycle.Scope) error {
	if scope == lifecycle.ScopeBatch {
		return nil
	}
	return a.group.Signal(sig)
}

func (a *allocation) KillAll() error {
	err := a.group.Kill()
	select {
	case <-a.done:
	default:
		close(a.done)
	}
	return err
}

func (a *allocation) Done() <-chan struct{}      { return a.done }
func (a *allocation) Status() syscall.WaitStatus { return 0 }
func (a *allocation) Announce(string)            {}
