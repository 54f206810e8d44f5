package command

import (
	"context"
	"sync"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// endHook runs a function once when the job a notice watch follows ends
// while salloc's command runs (scancel, its time limit): the peer's
// salloc says "Job allocation N has been revoked." at that moment, lets
// its command run on, and has no allocation left to relinquish after it.
type endHook struct {
	mu    sync.Mutex
	ended bool
	f     func()
	after string // printed once the command ended (setAfter)
}

// fire marks the job ended and runs the function set, if any.
func (h *endHook) fire() {
	h.mu.Lock()
	h.ended = true
	f := h.f
	h.mu.Unlock()
	if f != nil {
		f()
	}
}

// onEnd sets the function to run when the job ends; it runs at once
// when the job already ended.
func (h *endHook) onEnd(f func()) {
	h.mu.Lock()
	ended := h.ended
	h.f = f
	h.mu.Unlock()
	if ended {
		f()
	}
}

// setAfter keeps lines to print once salloc's command has ended.
func (h *endHook) setAfter(lines string) {
	h.mu.Lock()
	h.after = lines
	h.mu.Unlock()
}

// afterCommand returns the lines setAfter kept.
func (h *endHook) afterCommand() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.after
}

// hasEnded reports whether the watch saw the job end.
func (h *endHook) hasEnded() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.ended
}

// revokedUnder starts announcing that salloc's granted allocation is
// revoked, watching the job's notices when nothing does yet; it returns
// the watch.
func revokedUnder(ctx context.Context, a *allocator, id uint32) *noticeWatch {
	if a.notices == nil {
		a.notices = watchNotices(ctx, a.c, a.w, "salloc", id)
	}
	if a.notices != nil {
		end := &a.notices.end
		end.onEnd(func() {
			now, after := revokedLines(ctx, a.c, id)
			end.setAfter(after)
			a.w.raw(now)
		})
	}
	return a.notices
}

// revokedLines is what the peer's salloc says when its job ends under its
// command: the time limit has its own words, any other end (scancel,
// preemption) the plain revocation. A job a node's Prolog cancelled
// (0:54) is reported as the failure at once, and relinquished and revoked
// once the command ends (after).
func revokedLines(ctx context.Context, c Controller, id uint32) (now, after string) {
	resp, err := c.Jobs(ctx, &api.JobQuery{JobIDs: []string{u32s(id)}})
	revoked := "salloc: Job allocation " + u32s(id) + " has been revoked.\n"
	if err != nil || len(resp.Jobs) != 1 {
		return revoked, ""
	}
	switch j := resp.Jobs[0]; {
	case j.JobState == job.Timeout:
		return "salloc: Job " + u32s(id) + " has exceeded its time limit and its allocation has been revoked.\n", ""
	case j.JobState == job.Cancelled && j.ExitCode == (job.ExitCode{Signal: 54}) && j.BatchHost != "":
		return "salloc: Prolog failure on node " + j.BatchHost + "\n",
			"salloc: Relinquishing job allocation " + u32s(id) + "\n" + revoked
	}
	return revoked, ""
}

// endedAtOnce says that the controller ended the job before it was first
// waited for, as it does for a job that cannot meet its --deadline (a
// check Slurm makes after the job has its id). The peer's salloc then
// prints its pending lines, "Job has been cancelled" and the revocation,
// its srun the queued line and "Job has been cancelled"; both end with
// the refusal.
func (a *allocator) endedAtOnce() {
	id := u32s(a.id)
	if a.prog == "salloc" {
		a.w.raw("salloc: Pending job allocation " + id + "\n")
	}
	a.w.raw(a.prog + ": job " + id + " queued and waiting for resources\n" + a.prog + ": Job has been cancelled\n")
	if a.prog == "salloc" {
		a.w.raw("salloc: Job allocation " + id + " has been revoked.\n")
	}
	a.w.errf("%s: %s", allocFailed[a.prog], api.CodeAlreadyDone.Text())
}

// endedPending says that the job ended (scancel) while it waited for its
// allocation: salloc with the peer's three lines, srun with its one.
func (a *allocator) endedPending() {
	id := u32s(a.id)
	if a.prog != "salloc" {
		a.w.raw(a.prog + ": error: Job allocation " + id + " has been revoked.\n")
		return
	}
	a.w.raw("salloc: Job allocation " + id + " has been revoked.\nsalloc: Job has been cancelled\n")
	a.w.errf("Job submit/allocate failed: %s", api.CodeAlreadyDone.Text())
}
