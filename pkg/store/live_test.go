package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPreemptionsByWindow: rows come back by signal time, the window's end
// excluded.
func TestPreemptionsByWindow(t *testing.T) {
	s := open(t, t.TempDir())
	rows := []PreemptionRow{
		{Time: 100, JobID: 1, Account: "a", User: "u", Partition: "batch", Beneficiary: 9, Reason: "urgent", GPUs: 8, LostSeconds: 60, Requeued: true, Checkpointed: true},
		{Time: 200, JobID: 2, Account: "b", Reason: "reclaim", GPUs: 2, LostSeconds: 5},
		{Time: 300, JobID: 3, Account: "a"},
	}
	err := s.Update(func(tx *Tx) error {
		for _, r := range rows {
			if err := tx.AddPreemption(r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Preemptions(100, 300)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(rows[:2], got); diff != "" {
		t.Errorf("preemptions in [100,300) (-want +got):\n%s", diff)
	}
}

// TestPriorityAuditAndPrune: the trail of the asked jobs only, oldest
// first; pruning drops what is older than the cut.
func TestPriorityAuditAndPrune(t *testing.T) {
	s := open(t, t.TempDir())
	err := s.Update(func(tx *Tx) error {
		for i, at := range []int64{10, 20, 30} {
			if err := tx.AddPriorityChange(uint32(i%2+1), at, int64(i), int64(i+1), "age", []byte(`{"age":1}`)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.PriorityAudit([]uint32{1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []AuditRow{{1, 10, 0, 1, "age", []byte(`{"age":1}`)}, {1, 30, 2, 3, "age", []byte(`{"age":1}`)}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("audit of job 1 (-want +got):\n%s", diff)
	}
	if err := s.Update(func(tx *Tx) error { return tx.PruneAudit(25) }); err != nil {
		t.Fatal(err)
	}
	got, _ = s.PriorityAudit([]uint32{1, 2}, 0)
	if len(got) != 1 || got[0].Time != 30 {
		t.Errorf("after pruning before 25: %+v", got)
	}
	if got, _ := s.PriorityAudit(nil, 0); got != nil {
		t.Errorf("no jobs asked: %+v", got)
	}
}
