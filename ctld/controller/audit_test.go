package controller

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// applyResult applies a hand-made cycle result as a cycle would.
func applyResult(h *harness, res *CycleResult) {
	var b batch
	h.c.mu.Lock()
	h.c.applyCycle(&b, res)
	h.c.mu.Unlock()
	h.c.finishBatch(&b)
}

// TestPriorityAudit: each reported change is stored with its factors and
// a reason naming what moved; sprio's current view keeps the factors of
// jobs whose priority did not change in the latest cycle; the trail is
// pruned past the retention.
func TestPriorityAudit(t *testing.T) {
	h := newHarness(t)
	id := h.mustSubmit(alice, simpleJob()) // no cycle runs: it stays pending
	f1 := api.PriorityFactors{Age: 10, Fairshare: 500, JobSize: 20}
	f2 := api.PriorityFactors{Age: 30, Fairshare: 480, JobSize: 20}
	now := h.clock.Now()
	applyResult(h, &CycleResult{Now: now, Pending: []PendingInfo{{JobID: id, Reason: job.ReasonPriority, Priority: 530, Factors: &f1}},
		Priorities: []PriorityInfo{{JobID: id, Old: 0, New: 530, Factors: f1}}})
	applyResult(h, &CycleResult{Now: now.Add(time.Minute), Pending: []PendingInfo{{JobID: id, Reason: job.ReasonPriority, Priority: 530, Factors: &f2}},
		Priorities: []PriorityInfo{{JobID: id, Old: 530, New: 530, Factors: f2}}})
	applyResult(h, &CycleResult{Now: now.Add(2 * time.Minute), Pending: []PendingInfo{{JobID: id, Reason: job.ReasonPriority, Priority: 530}}})

	var cur api.PrioResponse
	if err := h.call(alice, api.PathPriorities, api.PrioQuery{}, &cur); err != nil {
		t.Fatal(err)
	}
	if len(cur.Jobs) != 1 || cur.Jobs[0].Factors != f2 || cur.Jobs[0].Priority != 530 {
		t.Errorf("current factors %+v: want the last reported ones", cur.Jobs)
	}
	var hist api.PrioResponse
	if err := h.call(alice, api.PathPriorities, api.PrioQuery{JobIDs: []uint32{id}, History: true}, &hist); err != nil {
		t.Fatal(err)
	}
	want := []api.PriorityAudit{
		{JobID: id, Time: now.Unix(), Old: 0, New: 530, Reason: "initial", Factors: f1},
		{JobID: id, Time: now.Add(time.Minute).Unix(), Old: 530, New: 530, Reason: "age+20,fairshare-20", Factors: f2},
	}
	if diff := cmp.Diff(want, hist.History); diff != "" {
		t.Errorf("trail (-want +got):\n%s", diff)
	}
	h.tick(h.c.auditRetention() + 2*time.Hour)
	var after api.PrioResponse
	h.call(alice, api.PathPriorities, api.PrioQuery{JobIDs: []uint32{id}, History: true}, &after)
	if len(after.History) != 0 {
		t.Errorf("after the retention: %+v", after.History)
	}
}

func TestChangeReason(t *testing.T) {
	tests := map[string]struct {
		prev api.PriorityFactors
		had  bool
		pc   PriorityInfo
		want string
	}{
		"a new job":           {pc: PriorityInfo{New: 10}, want: "initial"},
		"after a restart":     {pc: PriorityInfo{Old: 10, New: 12}, want: "recomputed"},
		"compensation leads":  {had: true, prev: api.PriorityFactors{Age: 1}, pc: PriorityInfo{Old: 1, New: 300, Factors: api.PriorityFactors{Age: 2, Compensation: 299}}, want: "compensation+299,age+1"},
		"a nice lowers it":    {had: true, pc: PriorityInfo{Old: 100, New: 90, Factors: api.PriorityFactors{Nice: 10}}, want: "nice-10"},
		"only rounding moved": {had: true, prev: api.PriorityFactors{Age: 1.2}, pc: PriorityInfo{Old: 1, New: 2, Factors: api.PriorityFactors{Age: 1.6}}, want: "rounding"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := changeReason(tc.prev, tc.had, tc.pc); got != tc.want {
				t.Errorf("reason %q, want %q", got, tc.want)
			}
		})
	}
}
