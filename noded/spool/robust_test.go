package spool

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
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
