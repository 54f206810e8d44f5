package store

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAdvResvRoundTrip(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	steps := []func(*Tx) error{
		func(tx *Tx) error { return tx.PutAdvResv(AdvResvRow{Name: "maint", End: 200, Record: []byte("m1")}) },
		func(tx *Tx) error { return tx.PutAdvResv(AdvResvRow{Name: "root_1", End: 100, Record: []byte("r")}) },
		func(tx *Tx) error { return tx.PutAdvResv(AdvResvRow{Name: "gone", End: 300, Record: []byte("g")}) },
		func(tx *Tx) error { return tx.PutAdvResv(AdvResvRow{Name: "maint", End: 250, Record: []byte("m2")}) },
		func(tx *Tx) error { return tx.DeleteAdvResv("gone") },
		func(tx *Tx) error { return tx.SetNextResvSuffix(4) },
		func(tx *Tx) error { return tx.SetNextResvSuffix(2) }, // never moves back
	}
	for _, fn := range steps {
		if err := s.Update(fn); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	s = open(t, dir)
	got, err := s.LoadAdvResvs()
	if err != nil {
		t.Fatal(err)
	}
	want := []AdvResvRow{{Name: "maint", End: 250, Record: []byte("m2")}, {Name: "root_1", End: 100, Record: []byte("r")}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reservations after reopen (-want +got):\n%s", diff)
	}
	if n, err := s.NextResvSuffix(); err != nil || n != 4 {
		t.Errorf("NextResvSuffix = %d, %v; want 4", n, err)
	}
	if err := s.Update(func(tx *Tx) error { return tx.DeleteAdvResv("root_1") }); err != nil {
		t.Fatal(err)
	}
	got, err = s.LoadAdvResvs()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want[:1], got); diff != "" {
		t.Errorf("after delete (-want +got):\n%s", diff)
	}
}

func TestNextResvSuffixDefault(t *testing.T) {
	s := open(t, t.TempDir())
	if n, err := s.NextResvSuffix(); err != nil || n != 1 {
		t.Errorf("NextResvSuffix on a new store = %d, %v; want 1", n, err)
	}
}
