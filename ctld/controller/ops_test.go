package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

const (
	alice = 54321
	bob   = 54322
)

func results(t *testing.T, h *harness, uid uint32, path string, in any) []api.JobResult {
	t.Helper()
	var out api.JobResults
	if err := h.call(uid, path, in, &out); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out.Results
}

// updateCode is scontrol update of job id by uid: the first job's error
// code, "" when it took the change.
func updateCode(t *testing.T, h *harness, uid uint32, id string, u api.JobUpdate) api.Code {
	t.Helper()
	return firstErr(results(t, h, uid, api.PathUpdate, api.UpdateRequest{JobIDs: []string{id}, Update: u}))
}

func firstErr(rs []api.JobResult) api.Code {
	for _, r := range rs {
		if r.Error != nil {
			return r.Error.Code
		}
	}
	return ""
}

// TestAuthorization: users act on their own jobs only; root does all; an
// administrator's hold is released by administrators only.
func TestAuthorization(t *testing.T) {
	h := newHarness(t)
	a := fmt.Sprint(h.mustSubmit(alice, simpleJob()))
	tests := []struct {
		name     string
		uid      uint32
		path     string
		in       any
		wantCode api.Code
		wantSt   job.Reason
	}{
		// The peer answers another user's hold and update "Invalid user id",
		// and the cancel "Access/permission denied".
		{"bob cannot hold alice's job", bob, api.PathHold, api.HoldRequest{JobIDs: []string{a}}, api.CodeUserIDMissing, job.ReasonNone},
		{"bob cannot cancel it", bob, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{a}}}, api.CodeAccessDenied, job.ReasonNone},
		{"bob cannot update it", bob, api.PathUpdate, api.UpdateRequest{JobIDs: []string{a}, Update: api.JobUpdate{Name: ptr("x")}}, api.CodeUserIDMissing, job.ReasonNone},
		{"root holds as admin", 0, api.PathHold, api.HoldRequest{JobIDs: []string{a}}, "", job.ReasonJobHeldAdmin},
		{"alice cannot release an admin hold", alice, api.PathRelease, api.ReleaseRequest{JobIDs: []string{a}}, api.CodeAccessDenied, job.ReasonJobHeldAdmin},
		{"root releases", 0, api.PathRelease, api.ReleaseRequest{JobIDs: []string{a}}, "", job.ReasonNone},
		{"alice holds her own: user hold", alice, api.PathHold, api.HoldRequest{JobIDs: []string{a}}, "", job.ReasonJobHeldUser},
		{"alice releases her own", alice, api.PathRelease, api.ReleaseRequest{JobIDs: []string{a}}, "", job.ReasonNone},
		{"root uhold is a user hold", 0, api.PathHold, api.HoldRequest{JobIDs: []string{a}, User: true}, "", job.ReasonJobHeldUser},
		{"alice may release it", alice, api.PathRelease, api.ReleaseRequest{JobIDs: []string{a}}, "", job.ReasonNone},
		{"alice cannot raise her priority", alice, api.PathUpdate, api.UpdateRequest{JobIDs: []string{a}, Update: api.JobUpdate{Priority: ptr(int64(50000))}}, api.CodeAccessDenied, job.ReasonNone},
		// A pending job's user may lengthen it within MaxTime (2 days).
		{"alice may lengthen her pending job", alice, api.PathUpdate, api.UpdateRequest{JobIDs: []string{a}, Update: api.JobUpdate{TimeLimit: ptr(int64(7200))}}, "", job.ReasonNone},
		{"alice cannot lengthen it beyond MaxTime", alice, api.PathUpdate, api.UpdateRequest{JobIDs: []string{a}, Update: api.JobUpdate{TimeLimit: ptr(int64(3 * 86400))}}, api.CodeAccessDenied, job.ReasonNone},
		{"alice may shorten it", alice, api.PathUpdate, api.UpdateRequest{JobIDs: []string{a}, Update: api.JobUpdate{TimeLimit: ptr(int64(600))}}, "", job.ReasonNone},
		{"root may lengthen it", 0, api.PathUpdate, api.UpdateRequest{JobIDs: []string{a}, Update: api.JobUpdate{TimeLimit: ptr(int64(7200))}}, "", job.ReasonNone},
		{"priority 0 by root holds", 0, api.PathUpdate, api.UpdateRequest{JobIDs: []string{a}, Update: api.JobUpdate{Priority: ptr(int64(0))}}, "", job.ReasonJobHeldAdmin},
	}
	for _, tc := range tests {
		rs := results(t, h, tc.uid, tc.path, tc.in)
		if got := firstErr(rs); got != tc.wantCode {
			t.Errorf("%s: error %q, want %q", tc.name, got, tc.wantCode)
		}
		if j := h.job(a); j.StateReason != tc.wantSt {
			t.Errorf("%s: reason %s, want %s", tc.name, j.StateReason, tc.wantSt)
		}
	}
	if j := h.job(a); j.TimeLimit != 7200 || !j.Hold || j.Priority != 0 {
		t.Errorf("after the updates: limit %d hold %v priority %d", j.TimeLimit, j.Hold, j.Priority)
	}
	// Everyone sees every job (Slurm's default PrivateData).
	var list api.JobsResponse
	if err := h.call(bob, api.PathJobs, api.JobQuery{}, &list); err != nil || len(list.Jobs) != 1 {
		t.Errorf("bob sees %d jobs (%v)", len(list.Jobs), err)
	}
}

func ptr[T any](v T) *T { return &v }

// TestFinishedBeforeOwner: slurmctld's update, hold and release check
// that a job has finished before whose it is, so the peer tells another
// user "Job has already finished" of a completed job; its requeue,
// suspend and top check the owner first ("Access/permission denied").
func TestFinishedBeforeOwner(t *testing.T) {
	h := newHarness(t)
	a := fmt.Sprint(h.mustSubmit(alice, simpleJob()))
	if rs := results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{a}}}); firstErr(rs) != "" {
		t.Fatalf("cancel: %+v", rs)
	}
	for _, tc := range []struct {
		name string
		path string
		in   any
		want api.Code
	}{
		{"update", api.PathUpdate, api.UpdateRequest{JobIDs: []string{a}, Update: api.JobUpdate{Name: ptr("x")}}, api.CodeJobFinished},
		{"hold", api.PathHold, api.HoldRequest{JobIDs: []string{a}}, api.CodeJobFinished},
		{"release", api.PathRelease, api.ReleaseRequest{JobIDs: []string{a}}, api.CodeJobFinished},
		{"cancel", api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{a}}}, api.CodeAccessDenied},
	} {
		if got := firstErr(results(t, h, bob, tc.path, tc.in)); got != tc.want {
			t.Errorf("bob's %s of alice's ended job: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestCancelPendingAndFilters(t *testing.T) {
	h := newHarness(t)
	a1 := h.mustSubmit(alice, simpleJob())
	a2 := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Name = "other" }))
	b1 := h.mustSubmit(bob, simpleJob())
	rs := results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{Users: []string{fmt.Sprint(alice)}, Names: []string{"wrap"}}})
	if len(rs) != 1 || rs[0].JobID != fmt.Sprint(a1) || rs[0].Error != nil {
		t.Fatalf("cancel -u alice -n wrap: %+v", rs)
	}
	if j := h.job(fmt.Sprint(a1)); j.JobState != job.Cancelled {
		t.Errorf("job %d %s", a1, j.JobState)
	}
	for _, id := range []uint32{a2, b1} {
		if j := h.job(fmt.Sprint(id)); j.JobState != job.Pending {
			t.Errorf("job %d %s, want untouched", id, j.JobState)
		}
	}
	rs = results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(a1), "999"}}})
	if rs[0].Error == nil || rs[0].Error.Code != api.CodeAlreadyDone || rs[1].Error == nil || rs[1].Error.Code != api.CodeInvalidJobID {
		t.Errorf("second cancel: %+v", rs)
	}
	var empty api.JobResults
	if err := h.call(alice, api.PathCancel, api.CancelRequest{}, &empty); err == nil {
		t.Errorf("cancel with no filter at all was accepted")
	}
}

// TestJobLifeOnNodes: launch, end, exit codes and states as the node
// daemon reports them.
func TestJobLifeOnNodes(t *testing.T) {
	tests := map[string]struct {
		end func(n interface {
			End(uint32, job.ExitCode, ...func(*api.JobEvent)) error
		}, id uint32) error
		wantState job.State
		wantExit  string
		wantWhy   job.Reason
	}{
		"exit 0": {func(n interface {
			End(uint32, job.ExitCode, ...func(*api.JobEvent)) error
		}, id uint32) error {
			return n.End(id, job.ExitCode{})
		}, job.Completed, "0:0", job.ReasonNone},
		"exit 3": {func(n interface {
			End(uint32, job.ExitCode, ...func(*api.JobEvent)) error
		}, id uint32) error {
			return n.End(id, job.ExitCode{Status: 3})
		}, job.Failed, "3:0", job.ReasonNonZeroExitCode},
		"oom kill": {func(n interface {
			End(uint32, job.ExitCode, ...func(*api.JobEvent)) error
		}, id uint32) error {
			return n.End(id, job.ExitCode{Signal: 9}, func(e *api.JobEvent) { e.OOM = true })
		}, job.OutOfMemory, "0:125", job.ReasonOutOfMemory}, // as Slurm reports an OOM kill
		"time limit": {func(n interface {
			End(uint32, job.ExitCode, ...func(*api.JobEvent)) error
		}, id uint32) error {
			return n.End(id, job.ExitCode{Signal: 15}, func(e *api.JobEvent) { e.TimedOut = true })
		}, job.Timeout, "0:15", job.ReasonTimeLimit},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			n := h.node("n01")
			id := h.mustSubmit(alice, simpleJob())
			h.cycle()
			j := h.job(fmt.Sprint(id))
			if j.JobState != job.Running || j.BatchHost != "n01" || j.Nodes != "n01" {
				t.Fatalf("after a cycle: %s on %q", j.JobState, j.BatchHost)
			}
			l := n.Launch(t, id, 5*time.Second)
			if l.UserID != alice || l.ClusterName != "unit" || l.StdOut != "/tmp/slurm-%j.out" || l.TimeLimit != 3600 {
				t.Errorf("launch %+v", l)
			}
			if err := tc.end(n, id); err != nil {
				t.Fatal(err)
			}
			j = h.waitState(fmt.Sprint(id), tc.wantState)
			if j.ExitCode.String() != tc.wantExit || j.StateReason != tc.wantWhy || j.EndTime == 0 {
				t.Errorf("exit %s reason %s end %d", j.ExitCode, j.StateReason, j.EndTime)
			}
			var acct api.AcctResponse
			if err := h.call(alice, api.PathAccounting, api.AcctQuery{JobIDs: []string{fmt.Sprint(id)}}, &acct); err != nil {
				t.Fatal(err)
			}
			if len(acct.Jobs) != 1 || acct.Jobs[0].State != tc.wantState || len(acct.Jobs[0].Steps) != 1 {
				t.Errorf("accounting %+v", acct.Jobs)
			}
		})
	}
}

func TestCancelRunningJob(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	rs := results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(id)}}})
	if firstErr(rs) != "" {
		t.Fatalf("cancel: %+v", rs)
	}
	j := h.waitState(fmt.Sprint(id), job.Cancelled)
	if j.ExitCode.String() != "0:15" {
		t.Errorf("exit code %s, want 0:15", j.ExitCode)
	}
	terms := n.Terminations()
	if len(terms) != 1 || terms[0].Reason != api.TerminateCancel || terms[0].Grace != 2 {
		t.Errorf("terminations %+v", terms)
	}
}

func TestSignalRunningJob(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	pend := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	rs := results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(id), fmt.Sprint(pend)}}, Signal: 10, BatchOnly: true})
	if rs[0].Error != nil || rs[1].Error == nil || rs[1].Error.Code != api.CodeTransitionState {
		t.Fatalf("signal results %+v", rs)
	}
	h.c.inflight.Wait()
	if s := n.Signals(); len(s) != 1 || s[0].Signal != 10 || !s[0].BatchOnly {
		t.Errorf("signals %+v", s)
	}
	if j := h.job(fmt.Sprint(id)); j.JobState != job.Running {
		t.Errorf("signalled job is %s", j.JobState)
	}
}

func TestRequeueRunningJob(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	if rs := results(t, h, alice, api.PathRequeue, api.RequeueRequest{JobIDs: []string{fmt.Sprint(id)}}); firstErr(rs) != "" {
		t.Fatalf("requeue %+v", rs)
	}
	j := h.waitState(fmt.Sprint(id), job.Pending)
	if j.Restarts != 1 || j.Nodes != "" {
		t.Errorf("restarts %d nodes %q", j.Restarts, j.Nodes)
	}
	h.pastRequeueDelay() // requeue_delay_test.go
	h.cycle()
	h.waitState(fmt.Sprint(id), job.Running)
	noRequeue := h.mustSubmit(alice, simpleJob(func(r *job.Request) { f := false; r.Requeue = &f }))
	rs := results(t, h, alice, api.PathRequeue, api.RequeueRequest{JobIDs: []string{fmt.Sprint(noRequeue)}})
	if firstErr(rs) != api.CodeDisabled {
		t.Errorf("requeue of a --no-requeue job: %+v", rs)
	}
}

func TestRunningTimeLimitUpdateReachesNode(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	results(t, h, 0, api.PathUpdate, api.UpdateRequest{JobIDs: []string{fmt.Sprint(id)}, Update: api.JobUpdate{TimeLimit: ptr(int64(120))}})
	h.c.inflight.Wait()
	if l := n.TimeLimits(); len(l) != 1 || l[0].TimeLimit != 120 {
		t.Errorf("time limit updates %+v", l)
	}
	rs := results(t, h, alice, api.PathUpdate, api.UpdateRequest{JobIDs: []string{fmt.Sprint(id)}, Update: api.JobUpdate{Partition: ptr("batch")}})
	if firstErr(rs) != api.CodeJobNotPending {
		t.Errorf("partition change of a running job: %+v", rs)
	}
}
