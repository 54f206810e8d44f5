package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStepsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	put := func(r StepRow) {
		t.Helper()
		if err := s.Update(func(tx *Tx) error { return tx.PutStep(r) }); err != nil {
			t.Fatal(err)
		}
	}
	put(StepRow{JobID: 9, StepID: 1, Record: []byte("b")})
	put(StepRow{JobID: 9, StepID: 0, Record: []byte("a")})
	put(StepRow{JobID: 3, StepID: 0, Record: []byte("x")})
	put(StepRow{JobID: 9, StepID: 0, Record: []byte("a2")}) // rewritten at its end
	if err := s.Update(func(tx *Tx) error { return tx.DeleteSteps(3) }); err != nil {
		t.Fatal(err)
	}
	s.Close()

	var got []StepRow
	if err := open(t, dir).LoadSteps(func(r StepRow) error { got = append(got, r); return nil }); err != nil {
		t.Fatal(err)
	}
	want := []StepRow{{JobID: 9, StepID: 0, Record: []byte("a2")}, {JobID: 9, StepID: 1, Record: []byte("b")}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("steps after reopen (-want +got):\n%s", diff)
	}
}
