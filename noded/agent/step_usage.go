package agent

import (
	"errors"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/noded/step"
	"github.com/loamhpc/loam/noded/unkillable"
	"github.com/loamhpc/loam/noded/usage"
	"github.com/loamhpc/loam/pkg/api"
)

// Step usage events: when a step process exits, the daemon numbers what
// the step used here (its usage.json) as an api.EventStepUsage event in
// the step's directory (usage.EventFile) and queues it in the outbox, so
// that sacct shows a finished step of a still-running job. The event file
// is the commit: a restarted daemon loads it with the job's other events
// (loadStepEvents) and sends it again with the same number, and the job's
// end event leaves such steps out (usage.ScanSteps). Steps ending while
// the job ends go with the job's end event; those that ended while no
// daemon watched are numbered when the next one adopts the job
// (adoptSteps), or go with the job's end if it ended too.

// maxBatchTasks bounds the task records of one events request: with
// api.MaxEventTasks per event, about 2.3 MiB.
const maxBatchTasks = 32 * api.MaxEventTasks

// watchStep waits, without holding a thread, for the step process pid of
// step id of job entry e to exit, then numbers the step's usage.
func (a *Agent) watchStep(e *jobEntry, id uint32, pid int) {
	dir := step.Dir(e.dir, id)
	go func() {
		exited, err := usage.WaitExit(a.ctx, pid)
		if !exited {
			if err != nil && a.ctx.Err() == nil {
				a.log.WithError(err).WithField("job_id", e.id).WithField("step_id", id).Warn("watch step process")
			}
			return // the daemon stops: the next one re-adopts the step
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		if err := a.stepUsageEvent(e, id, dir); err != nil {
			a.log.WithError(err).WithField("job_id", e.id).WithField("step_id", id).Warn("report step usage")
		}
	}()
}

// stepUsageEvent numbers the usage step id left in dir as its event and
// queues it, unless the job's run has ended here (its end event carries
// what was recorded), the step has its event already, recorded nothing,
// or the job's result already carries it. The caller holds a.mu.
func (a *Agent) stepUsageEvent(e *jobEntry, id uint32, dir string) error {
	if a.jobs[e.id] != e || spool.Exists(filepath.Join(dir, usage.EventFile)) {
		return nil
	}
	n, err := usage.ReadStep(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if inResult(e.dir, id) {
		return nil
	}
	if len(n.Tasks) > api.MaxEventTasks {
		a.log.WithField("job_id", e.id).WithField("step_id", id).WithField("tasks_left_out", len(n.Tasks)-api.MaxEventTasks).
			Warn("too many tasks in a step to report: later tasks unmeasured")
		n.Tasks = n.Tasks[:api.MaxEventTasks]
	}
	now := time.Now()
	ev := api.JobEvent{Seq: a.out.next(now), JobID: e.id, Run: e.runRef(), Kind: api.EventStepUsage, Time: now.Unix(), TimeNanos: now.UnixNano(),
		Usage: &api.JobUsage{Steps: []api.StepNodeUsage{{StepID: id, Usage: n}}}}
	if spool.Exists(filepath.Join(dir, step.KillFailedFile)) {
		ev.Drain = unkillable.DrainReason // the controller drains the node
	}
	if err := spool.WriteJSON(filepath.Join(dir, usage.EventFile), ev); err != nil {
		return err
	}
	a.out.add(ev)
	return nil
}

// inResult reports whether the job's supervisor already put step id's
// usage into the job's result (its end event): a step that ended while
// the job ended.
func inResult(jobDir string, id uint32) bool {
	var res api.JobEvent
	if err := spool.ReadJSON(filepath.Join(jobDir, spool.ResultFile), &res); err != nil || res.Usage == nil {
		return false
	}
	for _, s := range res.Usage.Steps {
		if s.StepID == id {
			return true
		}
	}
	return false
}

// adoptSteps takes over the steps of job entry e after a restart: a step
// process still running is watched again, one that exited meanwhile has
// its usage numbered now. The caller holds a.mu.
func (a *Agent) adoptSteps(e *jobEntry) {
	for _, id := range stepIDs(e.dir) {
		dir := step.Dir(e.dir, id)
		if spool.Exists(filepath.Join(dir, usage.EventFile)) {
			continue // loaded with the job's events
		}
		if pid, err := step.Process(dir); err == nil {
			a.watchStep(e, id, pid)
			continue
		}
		if err := a.stepUsageEvent(e, id, dir); err != nil {
			a.log.WithError(err).WithField("job_id", e.id).WithField("step_id", id).Warn("report step usage")
		}
	}
}

// loadStepEvents reads the step-usage events of the job or done directory
// dir into the outbox and returns the highest number found (0: none).
func (o *outbox) loadStepEvents(dir string) (uint64, error) {
	var paths []string
	for _, id := range stepIDs(dir) {
		paths = append(paths, filepath.Join(step.Dir(dir, id), usage.EventFile))
	}
	return o.loadEventFiles(paths)
}

// eventTasks counts the task records ev carries.
func eventTasks(ev *api.JobEvent) int {
	if ev.Usage == nil {
		return 0
	}
	n := 0
	if ev.Usage.Batch != nil {
		n += len(ev.Usage.Batch.Tasks)
	}
	for _, s := range ev.Usage.Steps {
		n += len(s.Usage.Tasks)
	}
	return n
}
