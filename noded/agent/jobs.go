package agent

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/noded/supervisor"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/isolation"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// jobEntry is a job whose supervisor the daemon watches.
type jobEntry struct {
	id     uint32
	run    int // the job's restart count: which run of the job this is; unknownRun when lost
	dir    string
	client *supervisor.Client
	cpus   []int
	pid    int // the supervisor's, when this daemon started it
	start  time.Time
	// ready is closed once the supervisor serves its socket (or failed to
	// start); orders wait for it. gone is closed when the entry is
	// removed: the run has ended here.
	ready, gone chan struct{}
	// failed is why the supervisor did not start, set before ready is
	// closed: the answer to the same launch sent again meanwhile, which
	// must not take the pid of a job that never ran for a success.
	failed *api.Error
}

// unknownRun is the run of a re-adopted job whose launch record is lost:
// its events go without a run, which the controller applies to the job's
// current one, rather than with a guess that would have it drop them.
const unknownRun = -1

// runRef is the run to put in e's events: nil when unknown.
func (e *jobEntry) runRef() *int {
	if e.run == unknownRun {
		return nil
	}
	run := e.run
	return &run
}

// newEntry returns the entry of run run of job id, whose supervisor
// serves in dir.
func newEntry(id uint32, run int, dir string, cpus []int) *jobEntry {
	return &jobEntry{id: id, run: run, dir: dir, client: supervisor.NewClient(dir), cpus: cpus,
		ready: make(chan struct{}), gone: make(chan struct{})}
}

// watch follows a job's supervisor: it numbers the job's start and end as
// events and, when the supervisor's socket goes away, checks whether it is
// still alive (a daemon restart only breaks the connection).
func (a *Agent) watch(ctx context.Context, e *jobEntry) {
	st, err := e.client.Wait(ctx, supervisor.Running)
	if err == nil && !st.Start.IsZero() {
		a.started(e, st.Start)
	}
	a.watchCompleting(ctx, e) // nodeprolog.go
	for wait := 50 * time.Millisecond; ; wait = min(2*wait, time.Second) {
		st, err = e.client.Wait(ctx, supervisor.Ended)
		if err == nil && st.Result != nil {
			break
		}
		if ctx.Err() != nil {
			return // the daemon stops; the next one re-adopts the job
		}
		if !supervisor.Alive(e.dir) {
			break
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := a.endJob(e.id); err != nil {
		a.log.WithError(err).WithField("job_id", e.id).Error("report job end")
	}
}

// started numbers a job's start once (its ev-started.json keeps the
// number across restarts).
func (a *Agent) started(e *jobEntry, at time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	e.start = at
	if err := a.startEvent(e.dir, e.id, e.runRef(), at); err != nil {
		a.log.WithError(err).WithField("job_id", e.id).Error("record job start")
	}
}

// startEvent writes and queues the Started event of the job in dir unless
// it has one. The caller holds a.mu.
func (a *Agent) startEvent(dir string, id uint32, run *int, at time.Time) error {
	path := filepath.Join(dir, spool.StartedEvent)
	if spool.Exists(path) {
		return nil
	}
	ev := api.JobEvent{Seq: a.out.next(time.Now()), JobID: id, Run: run, Kind: api.EventStarted, Time: at.Unix(), TimeNanos: at.UnixNano()}
	if err := spool.WriteJSON(path, ev); err != nil {
		return err
	}
	a.out.add(ev)
	return nil
}

// endJob reports the end of job id, whose supervisor is gone: its
// result.json (or, when the supervisor died without one, a failure), the
// Started event it may still lack, then the move to done/. The caller
// holds a.mu.
func (a *Agent) endJob(id uint32) error {
	dir := a.spool.JobDir(id)
	run := unknownRun // not known yet: numberEnd reads it from the launch record
	if e := a.jobs[id]; e != nil {
		run = e.run
		a.cpus.release(e.cpus)
		delete(a.jobs, id)
		close(e.gone)
	}
	var ev api.JobEvent
	err := a.readRecord(filepath.Join(dir, spool.EndedEvent), &ev)
	if errors.Is(err, fs.ErrNotExist) {
		ev, err = a.numberEnd(dir, id, run)
	}
	if err != nil {
		return err
	}
	if err := a.spool.Finish(id, ev.Seq); err != nil {
		return err
	}
	a.out.doneDirs[ev.Seq] = ev.Seq
	a.out.add(ev)
	a.log.WithField("job_id", id).WithField("exit_code", ev.ExitCode.String()).Info("job end reported")
	return nil
}

// numberEnd turns the supervisor's result into the numbered Ended event
// of run run (-1: read it from the job's launch record).
func (a *Agent) numberEnd(dir string, id uint32, run int) (api.JobEvent, error) {
	runp := &run
	if run < 0 {
		var l spool.Launch
		if err := spool.ReadJSON(filepath.Join(dir, spool.LaunchFile), &l); err != nil {
			a.log.WithError(err).WithField("job_id", id).Warn("job's run unknown: its end is reported without it")
			runp = nil
		} else {
			run = l.Request.Restarts
		}
	}
	var st spool.Start
	if err := a.readRecord(filepath.Join(dir, spool.StartFile), &st); err == nil {
		if err := a.startEvent(dir, id, runp, st.Time); err != nil {
			return api.JobEvent{}, err
		}
	}
	var res api.JobEvent
	err := a.readRecord(filepath.Join(dir, spool.ResultFile), &res)
	if errors.Is(err, fs.ErrNotExist) {
		res = a.lostSupervisor(dir, id, st)
	} else if err != nil {
		return api.JobEvent{}, err
	}
	res.JobID, res.Run = id, runp
	res.Seq = a.out.next(time.Now())
	if err := spool.WriteJSON(filepath.Join(dir, spool.EndedEvent), res); err != nil {
		return api.JobEvent{}, err
	}
	return res, nil
}

// lostSupervisor handles a job whose supervisor died without a result:
// whatever is left of the job is killed, and the job is reported failed
// (never started: a launch failure; else ended by node failure).
func (a *Agent) lostSupervisor(dir string, id uint32, st spool.Start) api.JobEvent {
	var l spool.Launch
	if err := spool.ReadJSON(filepath.Join(dir, spool.LaunchFile), &l); err == nil && l.Group != "" && a.iso != nil {
		if g, err := a.iso.Load(l.Group); err == nil {
			_ = g.Kill()
			_ = g.Delete()
		} else if !errors.Is(err, isolation.ErrNotExist) {
			a.log.WithError(err).WithField("job_id", id).Warn("clean up lost job's cgroup")
		}
	}
	now := time.Now()
	a.log.WithField("job_id", id).Error("job supervisor died without a result")
	if st.Time.IsZero() {
		return api.JobEvent{Kind: api.EventLaunchFailed, Time: now.Unix(), TimeNanos: now.UnixNano(),
			ExitCode: job.ExitCode{Signal: 53}, FailCode: supervisor.FailSetup,
			Message: "job supervisor ended before the job started"}
	}
	return api.JobEvent{Kind: api.EventEnded, Time: now.Unix(), TimeNanos: now.UnixNano(),
		ExitCode: job.ExitCode{Signal: 9}, Terminated: api.TerminateNodeFail,
		Message: "job supervisor died; the job was killed"}
}

// recover rebuilds the outbox from the spool and re-adopts the jobs of an
// earlier daemon: live supervisors are watched again, the others have
// their ends reported.
func (a *Agent) recover(ctx context.Context) error {
	a.out.read = a.readRecord // corrupt.go
	acked, err := a.spool.Acked()
	if err != nil { // numbers are times: events sent again are known
		a.log.WithError(err).Error("spool: unreadable acknowledgement; every kept event is sent again")
		acked = 0
	}
	strays, err := a.spool.Strays()
	if err != nil {
		return err
	}
	for _, p := range strays {
		a.log.WithField("file", p).Warn("spool: not a job's directory; left alone")
	}
	a.out.acked, a.out.last = acked, acked
	done, err := a.spool.Done()
	if err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, seq := range done {
		top, err := a.out.loadEvents(a.spool.DoneDir(seq))
		if err != nil {
			return err
		}
		a.out.doneDirs[seq] = max(top, seq)
	}
	// Directories already acknowledged go now.
	for _, seq := range a.out.ack(acked) {
		_ = removeAll(a.spool.DoneDir(seq))
	}
	ids, err := a.spool.Jobs()
	if err != nil {
		return err
	}
	for _, id := range ids {
		if err := a.adopt(ctx, id); err != nil {
			a.log.WithError(err).WithField("job_id", id).Error("re-adopt job")
		}
	}
	return nil
}

// adopt takes over job id's directory after a restart. The caller holds
// a.mu.
func (a *Agent) adopt(ctx context.Context, id uint32) error {
	dir := a.spool.JobDir(id)
	if _, err := a.out.loadEvents(dir); err != nil {
		return err
	}
	if !supervisor.Alive(dir) {
		return a.endJob(id)
	}
	var l spool.Launch
	run := unknownRun
	if err := spool.ReadJSON(filepath.Join(dir, spool.LaunchFile), &l); err != nil {
		// Its live supervisor read it; the CPUs to keep and the run are
		// lost, the job runs on.
		a.log.WithError(err).WithField("job_id", id).Error("re-adopt job without its launch record: its CPUs are not held, its run is unknown")
	} else {
		run = l.Request.Restarts
	}
	cpus, _ := resource.ParseCPUList(l.Request.Alloc.CPUIDs)
	for _, c := range cpus {
		if c < len(a.cpus.used) {
			a.cpus.used[c] = true
		}
	}
	e := newEntry(id, run, dir, cpus)
	close(e.ready)
	a.jobs[id] = e
	a.log.WithField("job_id", id).Info("re-adopted running job")
	a.adoptSteps(e) // step_usage.go
	go a.watch(ctx, e)
	return nil
}
