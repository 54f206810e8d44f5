package lifecycle

import (
	"syscall"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

var (
	freeze = Action{Kind: Freeze}
	thaw   = Action{Kind: Thaw}
)

// TestSuspendScenarios checks that a suspended job's time limit stands
// still, that its deadline moves by the time suspended, and that ending a
// suspended job thaws it first so it can handle SIGTERM.
func TestSuspendScenarios(t *testing.T) {
	tests := map[string]struct {
		lim   Limits
		steps []step
	}{
		"suspended ten minutes: the limit moves by ten minutes": {
			lim: Limits{TimeLimit: time.Hour, KillWait: 30 * time.Second},
			steps: []step{
				{at: 20 * time.Minute, op: "suspend", want: []Action{freeze}, wantNext: -1},
				{at: 2 * time.Hour, op: "tick", wantNext: -1},
				{at: 2 * time.Hour, op: "resume", want: []Action{thaw}, wantNext: 2*time.Hour + 40*time.Minute},
				{at: 2*time.Hour + 40*time.Minute, op: "tick", want: []Action{announce(ReasonTimeout), sig(syscall.SIGCONT), sig(syscall.SIGTERM)},
					wantNext: 2*time.Hour + 40*time.Minute + 30*time.Second},
			},
		},
		"two suspensions add up": {
			lim: Limits{TimeLimit: time.Hour},
			steps: []step{
				{at: 10 * time.Minute, op: "suspend", want: []Action{freeze}, wantNext: -1},
				{at: 15 * time.Minute, op: "resume", want: []Action{thaw}, wantNext: 65 * time.Minute},
				{at: 20 * time.Minute, op: "suspend", want: []Action{freeze}, wantNext: -1},
				{at: 30 * time.Minute, op: "resume", want: []Action{thaw}, wantNext: 75 * time.Minute},
			},
		},
		"suspend twice and resume twice: one freeze, one thaw": {
			lim: Limits{TimeLimit: time.Hour},
			steps: []step{
				{at: time.Minute, op: "suspend", want: []Action{freeze}, wantNext: -1},
				{at: 2 * time.Minute, op: "suspend", wantNext: -1},
				{at: 3 * time.Minute, op: "resume", want: []Action{thaw}, wantNext: 62 * time.Minute},
				{at: 4 * time.Minute, op: "resume", wantNext: 62 * time.Minute},
			},
		},
		"cancel of a suspended job thaws it before SIGTERM": {
			lim: Limits{TimeLimit: time.Hour},
			steps: []step{
				{at: time.Minute, op: "suspend", want: []Action{freeze}, wantNext: -1},
				{at: 5 * time.Minute, op: "terminate", reason: api.TerminateCancel, grace: 30 * time.Second,
					want:     []Action{thaw, announce(api.TerminateCancel), sig(syscall.SIGCONT), sig(syscall.SIGTERM)},
					wantNext: 5*time.Minute + 30*time.Second},
				{at: 6 * time.Minute, op: "resume", wantNext: 5*time.Minute + 30*time.Second},
			},
		},
		"an ending job is not frozen": {
			lim: Limits{TimeLimit: time.Hour},
			steps: []step{
				{at: time.Minute, op: "terminate", reason: api.TerminateCancel, grace: time.Minute,
					want: []Action{announce(api.TerminateCancel), sig(syscall.SIGCONT), sig(syscall.SIGTERM)}, wantNext: 2 * time.Minute},
				{at: 90 * time.Second, op: "suspend", wantNext: 2 * time.Minute},
			},
		},
		"a new limit still leaves out the time suspended": {
			lim: Limits{TimeLimit: time.Hour, KillWait: time.Second},
			steps: []step{
				{at: 0, op: "suspend", want: []Action{freeze}, wantNext: -1},
				{at: time.Hour, op: "resume", want: []Action{thaw}, wantNext: 2 * time.Hour},
				{at: time.Hour, op: "limit", limit: 30 * time.Minute, wantNext: 90 * time.Minute},
				{at: 90 * time.Minute, op: "tick", want: []Action{announce(ReasonTimeout), sig(syscall.SIGCONT), sig(syscall.SIGTERM)},
					wantNext: 90*time.Minute + time.Second},
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) { playSteps(t, tc.lim, tc.steps) })
	}
}

func TestSuspended(t *testing.T) {
	m := New(Limits{Start: t0})
	m.Suspend(t0)
	if !m.Suspended() {
		t.Error("Suspended after Suspend = false")
	}
	m.Resume(t0.Add(time.Minute))
	if m.Suspended() {
		t.Error("Suspended after Resume = true")
	}
}
