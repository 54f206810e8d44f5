package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

func TestCredExpire(t *testing.T) {
	tests := map[string]struct {
		authInfo string
		want     time.Duration
	}{
		"no AuthInfo keeps Slurm's 120 s":           {"", 120 * time.Second},
		"other options only":                        {"socket=/run/munge.sock", 120 * time.Second},
		"cred_expire among options":                 {"socket=/x,cred_expire=300", 300 * time.Second},
		"key in any case, spaces trimmed":           {"Cred_Expire= 30 ", 30 * time.Second},
		"the smallest Slurm accepts":                {"cred_expire=5", 5 * time.Second},
		"below 5 s is invalid: the default":         {"cred_expire=4", 120 * time.Second},
		"not a number is invalid: the default":      {"cred_expire=soon", 120 * time.Second},
		"the first cred_expire is the one honoured": {"cred_expire=60,cred_expire=90", 60 * time.Second},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := credExpire(tc.authInfo); got != tc.want {
				t.Errorf("credExpire(%q) = %v, want %v", tc.authInfo, got, tc.want)
			}
		})
	}
}

// requeueTimes is what scontrol show job prints about a requeued job's
// times, as offsets in seconds from when it was requeued.
func requeueTimes(j api.Job, at int64) string {
	return fmt.Sprintf("%s %s restarts=%d submit=%+d eligible=%+d accrue=%+d start=%+d",
		j.JobState, j.StateReason, j.Restarts, j.SubmitTime-at, j.EligibleTime-at, j.AccrueTime-at, j.StartTime-at)
}

// TestRequeueDelayLife: scontrol requeue of a running job puts it back as
// the Slurm 22.05 peer does: PENDING, Reason=BeginTime, SubmitTime the
// requeue time and EligibleTime, AccrueTime and StartTime 121 s later
// (cred_expire 120 + 1); it does not start before then, and does after.
func TestRequeueDelayLife(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	h.clock.Advance(10 * time.Second)
	at := h.clock.Now().Unix()
	ids := []string{fmt.Sprint(id)}
	if rs := results(t, h, alice, api.PathRequeue, api.RequeueRequest{JobIDs: ids}); firstErr(rs) != "" {
		t.Fatalf("requeue: %+v", rs)
	}
	h.waitState(ids[0], job.Pending)
	got := []string{requeueTimes(h.job(ids[0]), at)}
	h.clock.Advance(120 * time.Second) // no housekeeping: the node's silence would fail it
	h.cycle()
	got = append(got, requeueTimes(h.job(ids[0]), at))
	h.clock.Advance(time.Second)
	h.cycle()
	got = append(got, string(h.job(ids[0]).JobState))
	want := []string{
		"PENDING BeginTime restarts=1 submit=+0 eligible=+121 accrue=+121 start=+121",
		"PENDING BeginTime restarts=1 submit=+0 eligible=+121 accrue=+121 start=+121",
		"RUNNING",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requeued job (-want +got):\n%s", diff)
	}
}

// TestRequeueFinishedKeepsExitCode: a failed job requeued keeps its exit
// code while it waits (the peer: ExitCode=1:0 with JobState=PENDING
// Reason=BeginTime), and waits 121 s like a running one.
func TestRequeueFinishedKeepsExitCode(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	if err := n.End(id, job.ExitCode{Status: 1}); err != nil {
		t.Fatal(err)
	}
	ids := []string{fmt.Sprint(id)}
	h.waitState(ids[0], job.Failed)
	at := h.clock.Now().Unix()
	if rs := results(t, h, alice, api.PathRequeue, api.RequeueRequest{JobIDs: ids}); firstErr(rs) != "" {
		t.Fatalf("requeue: %+v", rs)
	}
	j := h.job(ids[0])
	got := requeueTimes(j, at) + " exit=" + j.ExitCode.String()
	want := "PENDING BeginTime restarts=1 submit=+0 eligible=+121 accrue=+121 start=+121 exit=1:0"
	if got != want {
		t.Errorf("requeued failed job:\n got %s\nwant %s", got, want)
	}
}

// TestRequeueDelayFromAuthInfo: the delay follows AuthInfo=cred_expire,
// as Slurm's does (cred_expire + 1 s).
func TestRequeueDelayFromAuthInfo(t *testing.T) {
	h := newHarness(t)
	appendConf(t, h, "AuthInfo=cred_expire=30\n")
	h.restart()
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	if err := n.End(id, job.ExitCode{}); err != nil {
		t.Fatal(err)
	}
	ids := []string{fmt.Sprint(id)}
	h.waitState(ids[0], job.Completed)
	at := h.clock.Now().Unix()
	if rs := results(t, h, alice, api.PathRequeue, api.RequeueRequest{JobIDs: ids}); firstErr(rs) != "" {
		t.Fatalf("requeue: %+v", rs)
	}
	if got := h.job(ids[0]).EligibleTime - at; got != 31 {
		t.Errorf("eligible %+d s after the requeue, want +31 (cred_expire=30 + 1)", got)
	}
}

// TestRequeueKeepsLaterBegin: a job whose --begin is still ahead keeps it
// (Slurm sets the delay only when the begin time has passed).
func TestRequeueKeepsLaterBegin(t *testing.T) {
	h := newHarness(t)
	begin := h.clock.Now().Add(time.Hour)
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Begin = &begin }))
	r := h.c.jobs[id]
	h.c.mu.Lock()
	h.c.delayRequeued(r, h.clock.Now(), false, false)
	got := r.St.Begin
	h.c.mu.Unlock()
	if got != begin.Unix() {
		t.Errorf("begin %d, want the job's own %d", got, begin.Unix())
	}
}

// TestNodeFailRequeueDelay: a job requeued because its node stopped
// answering waits 121 s too, as slurmctld's requeue after a node failure
// goes through the same path (batch_requeue_fini).
func TestNodeFailRequeueDelay(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	n.Stop()
	h.tick(2 * time.Minute)
	at := h.clock.Now().Unix()
	j := h.job(fmt.Sprint(id))
	got := fmt.Sprintf("%s %s restarts=%d eligible=%+d", j.JobState, j.StateReason, j.Restarts, j.EligibleTime-at)
	if want := "PENDING BeginTime restarts=1 eligible=+121"; got != want {
		t.Errorf("job of a failed node:\n got %s\nwant %s", got, want)
	}
}

// pastRequeueDelay moves the clock past the wait a requeued job has
// before it may run again.
func (h *harness) pastRequeueDelay() {
	h.clock.Advance(h.c.requeueDelay())
}
