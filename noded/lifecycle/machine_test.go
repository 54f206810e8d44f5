package lifecycle

import (
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// step is one event of a scenario at t0+at.
type step struct {
	at        time.Duration
	op        string // tick, suspend, resume, terminate, limit, exit
	reason    api.TerminateReason
	sig       syscall.Signal
	grace     time.Duration
	limit     time.Duration
	want      []Action
	wantNext  time.Duration // -1: nothing pending
	wantFinal Outcome       // for exit
}

var (
	announce = func(r api.TerminateReason) Action { return Action{Kind: Announce, Reason: r} }
	sig      = func(s syscall.Signal) Action { return Action{Kind: Signal, Signal: s} }
	// warn is an --signal warning without "B:": it reaches the steps,
	// not the batch shell, as in Slurm.
	warn = func(s syscall.Signal) Action { return Action{Kind: Signal, Signal: s, Scope: ScopeSteps} }
	kill = Action{Kind: Kill}
)

func TestScenarios(t *testing.T) {
	usr1 := &job.Signal{Number: 10, Seconds: 60}
	batchUsr2 := &job.Signal{Number: 12, Seconds: 30, Batch: true}
	tests := map[string]struct {
		lim   Limits
		steps []step
	}{
		"job ends on its own before any limit": {
			lim: Limits{TimeLimit: time.Hour, KillWait: 30 * time.Second},
			steps: []step{
				{at: 0, op: "tick", wantNext: time.Hour},
				{at: 10 * time.Minute, op: "exit", wantNext: -1, wantFinal: Outcome{}},
			},
		},
		"time limit: SIGTERM, KillWait, SIGKILL, TIMEOUT": {
			lim: Limits{TimeLimit: time.Minute, KillWait: 5 * time.Second},
			steps: []step{
				{at: time.Minute, op: "tick", want: []Action{announce(ReasonTimeout), sig(syscall.SIGCONT), sig(syscall.SIGTERM)}, wantNext: 65 * time.Second},
				{at: 65 * time.Second, op: "tick", want: []Action{kill}, wantNext: -1},
				{at: 65 * time.Second, op: "exit", wantNext: -1, wantFinal: Outcome{TimedOut: true, Killed: true}},
			},
		},
		"time limit, script exits on SIGTERM: still TIMEOUT": {
			lim: Limits{TimeLimit: time.Minute, KillWait: 5 * time.Second},
			steps: []step{
				{at: time.Minute, op: "tick", want: []Action{announce(ReasonTimeout), sig(syscall.SIGCONT), sig(syscall.SIGTERM)}, wantNext: 65 * time.Second},
				{at: 61 * time.Second, op: "exit", wantNext: -1, wantFinal: Outcome{TimedOut: true}},
			},
		},
		"--signal=USR1@60 then the limit": {
			lim: Limits{TimeLimit: 10 * time.Minute, Warn: usr1, KillWait: 30 * time.Second},
			steps: []step{
				{at: 0, op: "tick", wantNext: 9 * time.Minute},
				{at: 9 * time.Minute, op: "tick", want: []Action{warn(syscall.SIGUSR1)}, wantNext: 10 * time.Minute},
				{at: 10 * time.Minute, op: "tick", want: []Action{announce(ReasonTimeout), sig(syscall.SIGCONT), sig(syscall.SIGTERM)}, wantNext: 10*time.Minute + 30*time.Second},
			},
		},
		"--signal=B:USR2@30 goes to the batch shell only": {
			lim: Limits{TimeLimit: time.Minute, Warn: batchUsr2, KillWait: time.Second},
			steps: []step{
				{at: 30 * time.Second, op: "tick", want: []Action{{Kind: Signal, Signal: syscall.SIGUSR2, Scope: ScopeBatch}}, wantNext: time.Minute},
			},
		},
		"a late tick fires warning and limit together": {
			lim: Limits{TimeLimit: time.Minute, Warn: usr1, KillWait: time.Second},
			steps: []step{
				{at: 2 * time.Minute, op: "tick", want: []Action{warn(syscall.SIGUSR1), announce(ReasonTimeout), sig(syscall.SIGCONT), sig(syscall.SIGTERM)}, wantNext: 2*time.Minute + time.Second},
			},
		},
		"scancel: SIGTERM, KillWait, SIGKILL": {
			lim: Limits{TimeLimit: time.Hour, KillWait: 30 * time.Second},
			steps: []step{
				{at: time.Minute, op: "terminate", reason: api.TerminateCancel, grace: 30 * time.Second, want: []Action{announce(api.TerminateCancel), sig(syscall.SIGCONT), sig(syscall.SIGTERM)}, wantNext: 90 * time.Second},
				{at: 90 * time.Second, op: "tick", want: []Action{kill}, wantNext: -1},
				{at: 90 * time.Second, op: "exit", wantNext: -1, wantFinal: Outcome{Terminated: api.TerminateCancel, Killed: true}},
			},
		},
		"preemption: checkpoint signal, job exits inside the grace window": {
			lim: Limits{TimeLimit: time.Hour},
			steps: []step{
				{at: time.Minute, op: "terminate", reason: api.TerminatePreempt, sig: syscall.SIGUSR1, grace: 2 * time.Minute, want: []Action{announce(api.TerminatePreempt), sig(syscall.SIGCONT), sig(syscall.SIGUSR1)}, wantNext: 3 * time.Minute},
				{at: 2 * time.Minute, op: "exit", wantNext: -1, wantFinal: Outcome{Terminated: api.TerminatePreempt, ExitedInGrace: true}},
			},
		},
		"preemption: grace runs out, SIGKILL, checkpoint not done": {
			lim: Limits{TimeLimit: time.Hour},
			steps: []step{
				{at: time.Minute, op: "terminate", reason: api.TerminatePreempt, sig: syscall.SIGUSR1, grace: 2 * time.Minute, want: []Action{announce(api.TerminatePreempt), sig(syscall.SIGCONT), sig(syscall.SIGUSR1)}, wantNext: 3 * time.Minute},
				{at: 3 * time.Minute, op: "tick", want: []Action{kill}, wantNext: -1},
				{at: 3 * time.Minute, op: "exit", wantNext: -1, wantFinal: Outcome{Terminated: api.TerminatePreempt, Killed: true}},
			},
		},
		"preemption without grace kills at once": {
			lim: Limits{},
			steps: []step{
				{at: 0, op: "terminate", reason: api.TerminatePreempt, sig: syscall.SIGUSR1, want: []Action{announce(api.TerminatePreempt), sig(syscall.SIGCONT), sig(syscall.SIGUSR1), kill}, wantNext: -1},
			},
		},
		"cancel during a preemption grace brings the kill forward": {
			lim: Limits{},
			steps: []step{
				{at: 0, op: "terminate", reason: api.TerminatePreempt, sig: syscall.SIGUSR1, grace: 5 * time.Minute, want: []Action{announce(api.TerminatePreempt), sig(syscall.SIGCONT), sig(syscall.SIGUSR1)}, wantNext: 5 * time.Minute},
				{at: time.Minute, op: "terminate", reason: api.TerminateCancel, grace: 10 * time.Second, want: []Action{sig(syscall.SIGTERM)}, wantNext: 70 * time.Second},
				{at: 70 * time.Second, op: "tick", want: []Action{kill}, wantNext: -1},
				{at: 70 * time.Second, op: "exit", wantNext: -1, wantFinal: Outcome{Terminated: api.TerminateCancel, Killed: true}},
			},
		},
		"a second terminate never delays the kill": {
			lim: Limits{},
			steps: []step{
				{at: 0, op: "terminate", reason: api.TerminateCancel, grace: 10 * time.Second, want: []Action{announce(api.TerminateCancel), sig(syscall.SIGCONT), sig(syscall.SIGTERM)}, wantNext: 10 * time.Second},
				{at: time.Second, op: "terminate", reason: api.TerminatePreempt, sig: syscall.SIGUSR1, grace: time.Hour, want: []Action{sig(syscall.SIGUSR1)}, wantNext: 10 * time.Second},
				{at: 5 * time.Second, op: "exit", wantNext: -1, wantFinal: Outcome{Terminated: api.TerminateCancel}},
			},
		},
		"time limit raised by scontrol update": {
			lim: Limits{TimeLimit: time.Minute, KillWait: time.Second},
			steps: []step{
				{at: 30 * time.Second, op: "limit", limit: 2 * time.Minute, wantNext: 2 * time.Minute},
				{at: time.Minute, op: "tick", wantNext: 2 * time.Minute},
			},
		},
		"time limit lowered below the run time ends the job now": {
			lim: Limits{TimeLimit: time.Hour, KillWait: time.Second},
			steps: []step{
				{at: 2 * time.Minute, op: "limit", limit: time.Minute, want: []Action{announce(ReasonTimeout), sig(syscall.SIGCONT), sig(syscall.SIGTERM)}, wantNext: 2*time.Minute + time.Second},
			},
		},
		"unlimited job never times out": {
			lim: Limits{TimeLimit: -1, Warn: usr1},
			steps: []step{
				{at: 1000 * time.Hour, op: "tick", wantNext: -1},
			},
		},
		"nothing happens after exit": {
			lim: Limits{TimeLimit: time.Minute},
			steps: []step{
				{at: 0, op: "exit", wantNext: -1, wantFinal: Outcome{}},
				{at: time.Hour, op: "tick", wantNext: -1},
				{at: time.Hour, op: "terminate", reason: api.TerminateCancel, wantNext: -1},
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) { playSteps(t, tc.lim, tc.steps) })
	}
}

// playSteps runs steps on a machine with limits lim started at t0 and
// checks each step's actions and the machine's Next after it.
func playSteps(t *testing.T, lim Limits, steps []step) {
	t.Helper()
	lim.Start = t0
	m := New(lim)
	for i, s := range steps {
		now := t0.Add(s.at)
		var got []Action
		switch s.op {
		case "tick":
			got = m.Tick(now)
		case "suspend":
			got = m.Suspend(now)
		case "resume":
			got = m.Resume(now)
		case "terminate":
			got = m.Terminate(now, s.reason, s.sig, s.grace)
		case "limit":
			got = m.SetTimeLimit(now, s.limit)
		case "exit":
			if diff := cmp.Diff(s.wantFinal, m.Exited(now)); diff != "" {
				t.Errorf("step %d: outcome (-want +got):\n%s", i, diff)
			}
		}
		if diff := cmp.Diff(s.want, got); diff != "" {
			t.Errorf("step %d (%s at %s): actions (-want +got):\n%s", i, s.op, s.at, diff)
		}
		gotNext := time.Duration(-1)
		if next, ok := m.Next(); ok {
			gotNext = next.Sub(t0)
		}
		if gotNext != s.wantNext {
			t.Errorf("step %d (%s): Next = %s, want %s", i, s.op, gotNext, s.wantNext)
		}
	}
}

// TestDrivenByNext runs a job the way the supervisor does, waking only at
// Next, and checks the actions arrive at their exact times.
func TestDrivenByNext(t *testing.T) {
	m := New(Limits{Start: t0, TimeLimit: 10 * time.Minute, KillWait: 30 * time.Second, Warn: &job.Signal{Number: 10, Seconds: 120}})
	type fired struct {
		at   time.Duration
		acts []Action
	}
	var got []fired
	for range 10 {
		next, ok := m.Next()
		if !ok {
			break
		}
		got = append(got, fired{at: next.Sub(t0), acts: m.Tick(next)})
	}
	want := []fired{
		{at: 8 * time.Minute, acts: []Action{warn(syscall.SIGUSR1)}},
		{at: 10 * time.Minute, acts: []Action{announce(ReasonTimeout), sig(syscall.SIGCONT), sig(syscall.SIGTERM)}},
		{at: 10*time.Minute + 30*time.Second, acts: []Action{kill}},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(fired{})); diff != "" {
		t.Errorf("timeline (-want +got):\n%s", diff)
	}
}

func TestEnding(t *testing.T) {
	m := New(Limits{Start: t0})
	if m.Ending() {
		t.Error("a running job is not ending")
	}
	m.Terminate(t0, api.TerminateCancel, 0, time.Minute)
	if !m.Ending() {
		t.Error("a terminated job is ending")
	}
	m.Exited(t0)
	if m.Ending() {
		t.Error("an exited job is not ending any more")
	}
}
