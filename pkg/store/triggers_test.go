package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTriggersSurviveReopen(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	if n, err := s.NextTriggerID(); err != nil || n != 1 {
		t.Fatalf("NextTriggerID of a new store = %d, %v; want 1", n, err)
	}
	steps := []func(*Tx) error{
		func(tx *Tx) error { return tx.PutTrigger(TriggerRow{ID: 1, Record: []byte("a")}) },
		func(tx *Tx) error { return tx.PutTrigger(TriggerRow{ID: 2, Record: []byte("b")}) },
		func(tx *Tx) error { return tx.SetNextTriggerID(5) }, // refused ones take ids too
		func(tx *Tx) error { return tx.PutTrigger(TriggerRow{ID: 5, Record: []byte("c")}) },
		func(tx *Tx) error { return tx.DeleteTrigger(1) },
		func(tx *Tx) error { return tx.SetNextTriggerID(3) }, // never moves back
	}
	for _, fn := range steps {
		if err := s.Update(fn); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	s = open(t, dir)
	defer s.Close()
	got, err := s.LoadTriggers()
	if err != nil {
		t.Fatal(err)
	}
	want := []TriggerRow{{ID: 2, Record: []byte("b")}, {ID: 5, Record: []byte("c")}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("triggers after reopen (-want +got):\n%s", diff)
	}
	if n, err := s.NextTriggerID(); err != nil || n != 6 {
		t.Errorf("NextTriggerID = %d, %v; want 6", n, err)
	}
}
