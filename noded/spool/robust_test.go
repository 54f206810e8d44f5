package spool

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRobustReadJSONTellsCorruptFromMissing: a record cut short by a crash
// is ErrCorrupt, a missing one fs.ErrNotExist, so that the daemon can move
// the first aside and carry on.
func TestRobustReadJSONTellsCorruptFromMissing(t *testing.T) {
	dir := t.TempDir()
	tests := map[string]struct {
		data        *string
		wantCorrupt bool
		wantMissing bool
	}{
		"half-written":   {data: ptr(`{"request":{"job_id":`), wantCorrupt: true},
		"zero-filled":    {data: ptr("\x00\x00\x00"), wantCorrupt: true},
		"empty":          {data: ptr(""), wantCorrupt: true},
		"missing":        {wantMissing: true},
		"a valid record": {data: ptr(`{"time":"2026-01-01T00:00:00Z","pid":5}`)},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, name)
			if tc.data != nil {
				if err := os.WriteFile(p, []byte(*tc.data), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			var st Start
			err := ReadJSON(p, &st)
			if errors.Is(err, ErrCorrupt) != tc.wantCorrupt || errors.Is(err, fs.ErrNotExist) != tc.wantMissing {
				t.Errorf("err = %v; want corrupt %v, missing %v", err, tc.wantCorrupt, tc.wantMissing)
			}
		})
	}
}

func ptr(s string) *string { return &s }

// TestRobustAckedDamaged: an acknowledgement file that holds no number is
// ErrCorrupt naming the file, and the next SetAcked leaves it readable,
// whatever length the damage had.
func TestRobustAckedDamaged(t *testing.T) {
	for name, data := range map[string]string{
		"empty":        "",
		"garbage":      "not a number\n",
		"a long tail":  "00000000000000000042\nand a tail longer than the number itself\n",
		"zero-filled":  "\x00\x00\x00\x00",
		"over 64 bits": "99999999999999999999999\n",
	} {
		t.Run(name, func(t *testing.T) {
			s, err := Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(s.Root, ackedFile)
			if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err = s.Acked()
			if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), path) {
				t.Errorf("Acked() = %v, want ErrCorrupt naming %s", err, path)
			}
			if err := s.SetAcked(7); err != nil {
				t.Fatal(err)
			}
			if n, err := s.Acked(); n != 7 || err != nil {
				t.Errorf("after SetAcked(7): %d, %v", n, err)
			}
		})
	}
}

// TestRobustStrays: entries of jobs/ and done/ that are not numbered
// directories are listed as strays, never as jobs or ends.
func TestRobustStrays(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"jobs/12", "jobs/junk", "jobs/4294967296", "done/34", "done/x"} {
		if err := os.MkdirAll(filepath.Join(s.Root, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"jobs/13", "done/README"} {
		if err := os.WriteFile(filepath.Join(s.Root, f), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	jobs, _ := s.Jobs()
	done, _ := s.Done()
	strays, err := s.Strays()
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range strays {
		strays[i] = strings.TrimPrefix(p, s.Root+"/")
	}
	if fmt.Sprint(jobs, done, strays) != "[12] [34] [jobs/13 jobs/4294967296 jobs/junk done/README done/x]" {
		t.Errorf("jobs %v, done %v, strays %v", jobs, done, strays)
	}
}
