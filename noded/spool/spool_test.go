package spool

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLayoutAndFinish(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "node1"))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []uint32{12, 3} {
		if err := os.MkdirAll(s.JobDir(id), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(s.Root, "jobs", "not-a-job"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	ids, err := s.Jobs()
	if diff := cmp.Diff([]uint32{12, 3}, ids); err != nil || diff != "" {
		t.Errorf("Jobs (-want +got): %v\n%s", err, diff)
	}
	if err := s.Finish(12, 1000); err != nil {
		t.Fatal(err)
	}
	done, _ := s.Done()
	if diff := cmp.Diff([]uint64{1000}, done); diff != "" || Exists(s.JobDir(12)) {
		t.Errorf("after Finish: done %v, job dir still there %v", done, Exists(s.JobDir(12)))
	}
	if err := s.Finish(12, 1001); err == nil {
		t.Error("finishing a job twice succeeded")
	}
}

func TestAcked(t *testing.T) {
	s, _ := Open(t.TempDir())
	if n, err := s.Acked(); n != 0 || err != nil {
		t.Errorf("fresh Acked = %d, %v", n, err)
	}
	if err := s.SetAcked(1795950318121616313); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Acked(); n != 1795950318121616313 || err != nil {
		t.Errorf("Acked = %d, %v", n, err)
	}
	// In place: a smaller number overwrites every digit of a larger one,
	// and a file an older daemon wrote ("N\n") is overwritten whole.
	if err := s.SetAcked(7); err != nil {
		t.Fatal(err)
	}
	if n, err := s.Acked(); n != 7 || err != nil {
		t.Errorf("Acked after a smaller number = %d, %v", n, err)
	}
	old, _ := Open(t.TempDir())
	_ = os.WriteFile(filepath.Join(old.Root, "acked"), []byte("12\n"), 0o600)
	if err := old.SetAcked(1795950318121616313); err != nil {
		t.Fatal(err)
	}
	if n, err := old.Acked(); n != 1795950318121616313 || err != nil {
		t.Errorf("Acked over an older file = %d, %v", n, err)
	}
	_ = os.WriteFile(filepath.Join(s.Root, "acked"), []byte("garbage"), 0o600)
	if _, err := s.Acked(); err == nil {
		t.Error("garbage acked file accepted")
	}
}

func TestJSONRoundTripAndMissing(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.json")
	in := Start{Pid: 42}
	if err := WriteJSON(p, in); err != nil {
		t.Fatal(err)
	}
	var out Start
	if err := ReadJSON(p, &out); err != nil || out.Pid != 42 {
		t.Errorf("ReadJSON = %+v, %v", out, err)
	}
	if Exists(p + ".tmp") {
		t.Error("temporary file left behind")
	}
	if err := ReadJSON(filepath.Join(dir, "none.json"), &out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestLock: the lock is exclusive while held and free once released,
// which is how the daemon tells a live supervisor from a dead one.
func TestLock(t *testing.T) {
	dir := t.TempDir()
	if SupervisorAlive(dir) {
		t.Fatal("alive without a lock file")
	}
	f, err := Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !SupervisorAlive(dir) {
		t.Error("not alive while the lock is held")
	}
	if _, err := Lock(dir); !errors.Is(err, ErrLocked) {
		t.Errorf("second Lock = %v, want ErrLocked", err)
	}
	f.Close()
	if SupervisorAlive(dir) {
		t.Error("alive after the lock was released")
	}
}
