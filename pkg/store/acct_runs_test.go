package store

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAcctRuns: a requeue keeps the ended run and drops the job's current
// record; the runs are queried with the same filters as acct_jobs.
func TestAcctRuns(t *testing.T) {
	s := open(t, t.TempDir())
	job := func(id uint32, state string, submit, end int64) AcctRow {
		return AcctRow{ID: id, UserID: 1000, UserName: "alice", State: state, SubmitTime: submit, StartTime: submit,
			EndTime: end, Record: []byte(state)}
	}
	if err := s.Update(func(tx *Tx) error {
		return tx.PutAcct(job(7, "COMPLETED", 100, 200)) // ended, then requeued by hand
	}); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(func(tx *Tx) error {
		for _, step := range []struct {
			run int
			row AcctRow
		}{{0, job(7, "REQUEUED", 100, 200)}, {1, job(7, "PREEMPTED", 300, 400)}, {0, job(8, "NODE_FAIL", 150, 500)}} {
			if err := tx.PutAcctRun(step.run, step.row); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.QueryAcct(AcctFilter{JobIDs: []uint32{7}}); err != nil || len(got) != 0 {
		t.Errorf("acct_jobs still holds job 7 after its requeue: %d rows (%v)", len(got), err)
	}
	tests := map[string]struct {
		f    AcctFilter
		want []string
	}{
		"every run in submit order": {AcctFilter{}, []string{"7 REQUEUED", "8 NODE_FAIL", "7 PREEMPTED"}},
		"one job":                   {AcctFilter{JobIDs: []uint32{7}}, []string{"7 REQUEUED", "7 PREEMPTED"}},
		"by state":                  {AcctFilter{States: []string{"NODE_FAIL"}}, []string{"8 NODE_FAIL"}},
		"ended after a start":       {AcctFilter{Start: 450}, []string{"8 NODE_FAIL"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			rows, err := s.QueryAcctRuns(tc.f)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rows {
				got = append(got, fmt.Sprintf("%d %s", r.ID, r.Record))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("runs (-want +got):\n%s", diff)
			}
		})
	}
}
