package store

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

func open(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestMigrations(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.SchemaVersion()
	if err != nil || v != len(ms) {
		t.Fatalf("schema version %d (%v), want %d", v, err, len(ms))
	}
	if err := s.Update(func(tx *Tx) error { return tx.PutJob(7, []byte("r"), []byte("s")) }); err != nil {
		t.Fatal(err)
	}
	s.Close()

	// Reopening applies nothing twice and keeps the data.
	s2 := open(t, dir)
	if n, err := s2.CountJobs(); err != nil || n != 1 {
		t.Fatalf("after reopen: %d jobs (%v), want 1", n, err)
	}
	s2.Close()

	// A database from a newer loam-ctld is refused.
	db, err := sql.Open("sqlite3", "file:"+dir+"/"+FileName)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(fmt.Sprintf("PRAGMA user_version = %d", len(ms)+1)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := Open(dir, Options{}); err == nil || !strings.Contains(err.Error(), "newer than this loam-ctld") {
		t.Fatalf("Open of a newer schema: %v", err)
	}
}

func TestOpenRefusesBadSync(t *testing.T) {
	if _, err := Open(t.TempDir(), Options{Sync: "SOMETIMES"}); err == nil {
		t.Fatal("Open accepted an unknown sync level")
	}
}

// TestGroupCommit: many concurrent changes commit in fewer transactions
// than changes, and every one of them is stored.
func TestGroupCommit(t *testing.T) {
	s := open(t, t.TempDir())
	const writers, each = 16, 50
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				id := uint32(w*each + i + 1)
				errs <- s.Update(func(tx *Tx) error {
					return errors.Join(tx.PutJob(id, []byte("req"), []byte("st")), tx.SetNextJobID(id+1))
				})
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	commits, changes := s.Stats()
	if changes != writers*each {
		t.Fatalf("changes = %d, want %d", changes, writers*each)
	}
	if commits >= changes {
		t.Errorf("%d commits for %d changes: nothing was grouped", commits, changes)
	}
	n, _ := s.CountJobs()
	next, err := s.NextJobID()
	if n != writers*each || err != nil || next != writers*each+1 {
		t.Errorf("stored %d jobs, next id %d (%v)", n, next, err)
	}
	t.Logf("%d changes in %d commits", changes, commits)
}

// TestFailedChangeIsRolledBackAlone: a change that fails (or panics) undoes
// only its own writes; the others in the same transaction commit.
func TestFailedChangeIsRolledBackAlone(t *testing.T) {
	s := open(t, t.TempDir())
	s.mu.Lock() // hold the committer so all three land in one batch
	p1 := s.enqueueLocked(func(tx *Tx) error { return tx.PutJob(1, []byte("a"), []byte("a")) })
	p2 := s.enqueueLocked(func(tx *Tx) error {
		if err := tx.PutJob(2, []byte("b"), []byte("b")); err != nil {
			return err
		}
		return errors.New("refused")
	})
	p3 := s.enqueueLocked(func(tx *Tx) error {
		_ = tx.PutJob(3, []byte("c"), []byte("c"))
		panic("boom")
	})
	p4 := s.enqueueLocked(func(tx *Tx) error { return tx.PutJob(4, []byte("d"), []byte("d")) })
	s.mu.Unlock()
	s.signal()
	if err := p1.Wait(); err != nil {
		t.Errorf("change 1: %v", err)
	}
	if err := p2.Wait(); err == nil || err.Error() != "refused" {
		t.Errorf("change 2: %v, want refused", err)
	}
	if err := p3.Wait(); err == nil || !strings.Contains(err.Error(), "panicked") {
		t.Errorf("change 3: %v, want a panic error", err)
	}
	if err := p4.Wait(); err != nil {
		t.Errorf("change 4: %v", err)
	}
	var ids []uint32
	if err := s.LoadJobs(func(r JobRow) error { ids = append(ids, r.ID); return nil }); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(ids) != "[1 4]" {
		t.Errorf("stored jobs %v, want [1 4]", ids)
	}
}

func (s *Store) enqueueLocked(fn func(*Tx) error) *Pending {
	p := &Pending{fn: fn, done: make(chan struct{})}
	s.queue = append(s.queue, p)
	return p
}

func TestClosedStoreRefusesChanges(t *testing.T) {
	s := open(t, t.TempDir())
	s.Close()
	if err := s.Update(func(*Tx) error { return nil }); !errors.Is(err, ErrClosed) {
		t.Errorf("Update after Close: %v", err)
	}
}

func TestNextJobIDNeverMovesBack(t *testing.T) {
	s := open(t, t.TempDir())
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.Update(func(tx *Tx) error { return tx.SetNextJobID(100) }))
	must(s.Update(func(tx *Tx) error { return tx.SetNextJobID(50) }))
	if next, _ := s.NextJobID(); next != 100 {
		t.Errorf("next = %d, want 100", next)
	}
	// An id beyond the sequence (accounting of a job whose sequence write
	// was lost) still moves the next id past it.
	must(s.Update(func(tx *Tx) error {
		return tx.PutAcct(AcctRow{ID: 250, UserName: "u", State: "COMPLETED", Record: []byte("{}")})
	}))
	if next, _ := s.NextJobID(); next != 251 {
		t.Errorf("next = %d, want 251", next)
	}
}

func TestAccountingQuery(t *testing.T) {
	s := open(t, t.TempDir())
	rows := []AcctRow{
		{ID: 1, UserID: 1000, UserName: "alice", Account: "research", Partition: "normal", Name: "a", State: "COMPLETED", SubmitTime: 100, EndTime: 200},
		{ID: 2, UserID: 1001, UserName: "bob", Account: "product", Partition: "batch", Name: "b", State: "FAILED", SubmitTime: 150, EndTime: 300},
		{ID: 3, ArrayJobID: 2, UserID: 1001, UserName: "bob", Account: "product", Partition: "batch", Name: "b", State: "COMPLETED", SubmitTime: 150, EndTime: 400},
	}
	if err := s.Update(func(tx *Tx) error {
		for _, r := range rows {
			r.Record = []byte("{}")
			if err := tx.PutAcct(r); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		f    AcctFilter
		want string
	}{
		"everything":               {AcctFilter{}, "[1 2 3]"},
		"one user":                 {AcctFilter{UserIDs: []uint32{1001}}, "[2 3]"},
		"array id matches tasks":   {AcctFilter{JobIDs: []uint32{2}}, "[2 3]"},
		"state":                    {AcctFilter{States: []string{"FAILED"}}, "[2]"},
		"ended after a start time": {AcctFilter{Start: 250}, "[2 3]"},
		"submitted before an end":  {AcctFilter{End: 120}, "[1]"},
		"account and partition":    {AcctFilter{Accounts: []string{"research"}, Partitions: []string{"normal"}}, "[1]"},
		"names without case":       {AcctFilter{Names: []string{"B"}, Accounts: []string{"PRODUCT"}, Partitions: []string{"Batch"}}, "[2 3]"},
		"limit":                    {AcctFilter{Limit: 1}, "[1]"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := s.QueryAcct(tc.f)
			if err != nil {
				t.Fatal(err)
			}
			var ids []uint32
			for _, r := range got {
				ids = append(ids, r.ID)
			}
			if fmt.Sprint(ids) != tc.want {
				t.Errorf("ids %v, want %s", ids, tc.want)
			}
		})
	}
}

func TestNodesAndEvents(t *testing.T) {
	s := open(t, t.TempDir())
	if err := s.Update(func(tx *Tx) error {
		return errors.Join(tx.PutNode("gpu01", []byte(`{"drain":true}`)), tx.PutNode("gpu02", []byte(`{}`)),
			tx.DeleteNode("gpu02"), tx.AddJobEvent(5, 10, "requeue", nil), tx.AddPriorityChange(5, 10, 1, 2, "age", nil))
	}); err != nil {
		t.Fatal(err)
	}
	nodes, err := s.LoadNodes()
	if err != nil || len(nodes) != 1 || string(nodes["gpu01"]) != `{"drain":true}` {
		t.Errorf("nodes %v (%v)", nodes, err)
	}
	ev, err := s.JobEvents(5)
	if err != nil || len(ev) != 1 || ev[0].Kind != "requeue" {
		t.Errorf("events %v (%v)", ev, err)
	}
}

// TestBarrierWaitsForEarlierChanges: once Barrier returns, every change
// enqueued before it is committed and readable.
func TestBarrierWaitsForEarlierChanges(t *testing.T) {
	s := open(t, t.TempDir())
	s.mu.Lock()
	p := s.enqueueLocked(func(tx *Tx) error { return tx.PutJob(7, []byte("r"), []byte("s")) })
	s.mu.Unlock()
	if err := s.Barrier(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.Done():
	default:
		t.Fatal("Barrier returned before the change enqueued ahead of it was committed")
	}
	if n, err := s.CountJobs(); err != nil || n != 1 {
		t.Errorf("CountJobs = %d, %v after Barrier; want 1", n, err)
	}
}
