package supervisor

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/loamhpc/loam/noded/spool"
)

func TestLockAndAlive(t *testing.T) {
	tests := map[string]struct {
		hold      func(t *testing.T, dir string) func()
		wantAlive bool
	}{
		"nobody holds it": {hold: func(*testing.T, string) func() { return func() {} }},
		"a supervisor holds the directory": {wantAlive: true, hold: func(t *testing.T, dir string) func() {
			f, err := Lock(dir)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Lock(dir); !errors.Is(err, spool.ErrLocked) {
				t.Errorf("second Lock = %v, want ErrLocked", err)
			}
			return func() { f.Close() }
		}},
		"an earlier supervisor holds the lock file": {wantAlive: true, hold: func(t *testing.T, dir string) func() {
			f, err := spool.Lock(dir)
			if err != nil {
				t.Fatal(err)
			}
			return func() { f.Close() }
		}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			release := tc.hold(t, dir)
			if got := Alive(dir); got != tc.wantAlive {
				t.Errorf("Alive = %v, want %v", got, tc.wantAlive)
			}
			release()
			if Alive(dir) {
				t.Error("Alive after the lock was released")
			}
			f, err := Lock(dir)
			if err != nil {
				t.Fatalf("Lock after release: %v", err)
			}
			f.Close()
		})
	}
	if Alive(filepath.Join(t.TempDir(), "gone")) {
		t.Error("Alive for a directory that does not exist")
	}
}
