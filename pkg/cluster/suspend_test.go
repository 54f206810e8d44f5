package cluster

import (
	"errors"
	"testing"
	"time"
)

// TestSuspendKeepsResources: a suspended job keeps its resources with no
// known end; resumed, its end moves by the time it spent suspended.
func TestSuspendKeepsResources(t *testing.T) {
	c := newTestCluster(t, 1)
	mustSubmit(t, c, spec(1, 4))
	mustApply(t, c, startPlan(at(10), 1, alloc("gpu01", 0, 1, 2, 3)))
	if err := c.Suspend(1); err != nil {
		t.Fatalf("Suspend: %v", err)
	}
	run := c.Snapshot(at(20)).Running[0]
	if run.Limit != 0 {
		t.Errorf("suspended job's limit = %v, want 0 (no known end)", run.Limit)
	}
	if u, _ := c.Used("gpu01"); u.GPUs != 4 || u.Jobs != 1 {
		t.Errorf("gpu01 used while suspended = %+v, want the job's 4 GPUs", u)
	}
	if err := c.Resume(1, 90*time.Second); err != nil {
		t.Fatalf("Resume: %v", err)
	}
	if got := c.Snapshot(at(100)).Running[0].Limit; got != time.Hour+90*time.Second {
		t.Errorf("resumed job's limit = %v, want 1h1m30s", got)
	}
}

func TestSuspendRefusals(t *testing.T) {
	c := newTestCluster(t, 1)
	mustSubmit(t, c, spec(1, 1))
	if err := c.Suspend(1); !errors.Is(err, ErrJobState) {
		t.Errorf("Suspend of a pending job = %v, want ErrJobState", err)
	}
	if err := c.Resume(1, -time.Second); !errors.Is(err, ErrInvalid) {
		t.Errorf("Resume with a negative time = %v, want ErrInvalid", err)
	}
	if err := c.Resume(7, 0); err == nil {
		t.Error("Resume of an unknown job succeeded")
	}
}
