package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// prologFailEvent is what a node daemon reports when the job's prolog
// failed there (its supervisor's launch failure).
func prologFailEvent(id uint32, seq uint64) api.JobEvent {
	run := 0
	return api.JobEvent{Seq: seq, JobID: id, Run: &run, Kind: api.EventLaunchFailed, ExitCode: job.ExitCode{Signal: 53},
		FailCode: prologFailCode, Message: "Error running slurm prolog: 3", Drain: "Prolog error"}
}

// nodeReason is n's drain state and reason as scontrol shows them.
func (h *harness) nodeReason(name string) (bool, string, string) {
	h.c.mu.RLock()
	defer h.c.mu.RUnlock()
	n := h.c.nodes[name]
	return n.admin.Drain, n.admin.Reason, n.admin.ReasonUser
}

// TestPrologFailure: as on the peer, a failed prolog drains the node
// (Reason=Prolog error by root) and the job's fate follows its kind.
func TestPrologFailure(t *testing.T) {
	no := false
	tests := map[string]struct {
		mod         func(*job.Request)
		interactive bool
		noHold      bool
		state       job.State
		reason      job.Reason
		desc        string
		restarts    int
		exit        job.ExitCode
	}{
		"a batch job is requeued held": {
			state: job.Pending, reason: job.ReasonJobHeldAdmin, desc: "launch failed requeued held", restarts: 1},
		"with nohold_on_prolog_fail it is requeued, not held": {
			noHold: true, state: job.Pending, reason: job.ReasonBeginTime, restarts: 1},
		"a --no-requeue batch job is cancelled": {
			mod: func(r *job.Request) { r.Requeue = &no }, state: job.Cancelled},
		"an interactive job is cancelled with 0:54": {
			interactive: true, state: job.Cancelled, exit: job.ExitCode{Signal: 54}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			n := h.node("n01")
			if tc.noHold {
				h.c.mu.Lock()
				h.c.confNow().conf.SchedulerParameters.NoHoldOnPrologFail = true
				h.c.mu.Unlock()
			}
			mods := []func(*job.Request){}
			if tc.mod != nil {
				mods = append(mods, tc.mod)
			}
			var id uint32
			if tc.interactive {
				var sub api.SubmitResponse
				in := api.AllocateRequest{Job: job.Request{Name: "srun", WorkDir: "/tmp"}, Command: "/bin/true"}
				if err := h.call(alice, api.PathAllocate, in, &sub); err != nil {
					t.Fatal(err)
				}
				id = sub.JobID
			} else {
				id = h.mustSubmit(alice, simpleJob(mods...))
			}
			h.cycle()
			n.Launch(t, id, 5*time.Second)
			h.sendEvents("n01", prologFailEvent(id, 1<<40))
			j := h.job(fmt.Sprint(id))
			if j.JobState != tc.state || j.Restarts != tc.restarts || j.ExitCode != tc.exit {
				t.Errorf("job: %s restarts=%d exit=%s; want %s restarts=%d exit=%s",
					j.JobState, j.Restarts, j.ExitCode, tc.state, tc.restarts, tc.exit)
			}
			if tc.state == job.Pending && (j.StateReason != tc.reason || j.StateDescription != tc.desc) {
				t.Errorf("reason %q (%q), want %q (%q)", j.StateReason, j.StateDescription, tc.reason, tc.desc)
			}
			if drain, why, user := h.nodeReason("n01"); !drain || why != "Prolog error" || user != "root" {
				t.Errorf("node: drain=%v reason %q by %q, want Prolog error by root", drain, why, user)
			}
		})
	}
}

// TestEpilogKeepsJobCompleting: the batch node reports the job's end
// when its epilog starts; the job shows COMPLETING (its node too) until
// the Ended event, then takes the end decided at the first report. A
// failed epilog drains the node and leaves the job's end as it was.
func TestEpilogKeepsJobCompleting(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	run := 0
	exit2 := job.ExitCode{Status: 2}
	h.sendEvents("n01", api.JobEvent{Seq: 1 << 40, JobID: id, Run: &run, Kind: api.EventCompleting, ExitCode: exit2})
	if j := h.job(fmt.Sprint(id)); j.JobState != job.Completing {
		t.Fatalf("while the epilog runs: %s, want COMPLETING", j.JobState)
	}
	h.c.mu.RLock()
	completing := h.c.completingOn(h.c.nodes["n01"])
	h.c.mu.RUnlock()
	if !completing {
		t.Error("the node does not show COMPLETING while the epilog runs")
	}
	h.sendEvents("n01", api.JobEvent{Seq: 1<<40 + 1, JobID: id, Run: &run, Kind: api.EventEnded, ExitCode: exit2, Drain: "Epilog error"})
	j := h.job(fmt.Sprint(id))
	if j.JobState != job.Failed || j.ExitCode != exit2 || j.StateReason != job.ReasonNonZeroExitCode {
		t.Errorf("after the epilog: %s %s %s, want FAILED 2:0 NonZeroExitCode", j.JobState, j.ExitCode, j.StateReason)
	}
	if drain, why, user := h.nodeReason("n01"); !drain || why != "Epilog error" || user != "root" {
		t.Errorf("node: drain=%v reason %q by %q, want Epilog error by root", drain, why, user)
	}
}

// TestPrologFailureRefusesSteps: srun's step in an interactive job whose
// node prolog failed gets slurmd's answer, as the peer's srun prints it
// ("Task launch for StepId=J.0 failed on node cpu002: Job prolog
// failed"), not "Job is not running".
func TestPrologFailureRefusesSteps(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	var sub api.SubmitResponse
	in := api.AllocateRequest{Job: job.Request{Name: "srun", WorkDir: "/tmp"}, Command: "/bin/true"}
	if err := h.call(alice, api.PathAllocate, in, &sub); err != nil {
		t.Fatal(err)
	}
	h.cycle()
	n.Launch(t, sub.JobID, 5*time.Second)
	h.sendEvents("n01", prologFailEvent(sub.JobID, 1<<40))
	aerr := h.call(alice, api.PathStepCreate, stepReq(sub.JobID), nil)
	if aerr == nil {
		t.Fatal("step created in a job whose prolog failed")
	}
	want := fmt.Sprintf("Task launch for StepId=%d.0 failed on node n01: Job prolog failed", sub.JobID)
	if aerr.Code != api.CodePrologFailed || aerr.Message != "Job prolog failed" || aerr.Detail != want {
		t.Errorf("refusal %s %q %q, want %s %q %q", aerr.Code, aerr.Message, aerr.Detail, api.CodePrologFailed, "Job prolog failed", want)
	}
}

// TestPrologFailureAccounting: sacct after a failed node prolog, as the
// accounting peer lists it: the cancelled job "CANCELLED by 0" with 0:0,
// its batch step CANCELLED with a blank exit code (it never ran), the same
// blank for the requeued run's batch step; the pending record 0:0.
func TestPrologFailureAccounting(t *testing.T) {
	no := false
	tests := map[string]struct {
		mod  func(*job.Request)
		want []string
	}{
		"--no-requeue: cancelled by SlurmUser": {
			mod:  func(r *job.Request) { r.Requeue = &no },
			want: []string{"CANCELLED 0:0 by=0 batch:CANCELLED:"}},
		"requeued held: the ended run": {
			want: []string{"REQUEUED 0:0 by=- batch:CANCELLED:", "PENDING 0:0 by=-"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			n := h.node("n01")
			mods := []func(*job.Request){}
			if tc.mod != nil {
				mods = append(mods, tc.mod)
			}
			id := h.mustSubmit(alice, simpleJob(mods...))
			h.cycle()
			n.Launch(t, id, 5*time.Second)
			h.sendEvents("n01", prologFailEvent(id, 1<<40))
			var out api.AcctResponse
			q := api.AcctQuery{JobIDs: []string{fmt.Sprint(id)}, Duplicates: true}
			if err := h.call(0, api.PathAccounting, q, &out); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, j := range out.Jobs {
				by := "-"
				if j.CancelledBy != nil {
					by = fmt.Sprint(*j.CancelledBy)
				}
				line := fmt.Sprintf("%s %s by=%s", j.State, j.ExitCode, by)
				for _, s := range j.Steps {
					exit := s.ExitCode.String()
					if s.NoExitCode {
						exit = ""
					}
					line += fmt.Sprintf(" %s:%s:%s", s.StepID, s.State, exit)
				}
				got = append(got, line)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("sacct -D (-want +got):\n%s", diff)
			}
		})
	}
}
