package api

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWinsizeRoundTrip(t *testing.T) {
	for name, want := range map[string]StepPty{
		"a common terminal": {Rows: 24, Cols: 80},
		"an unknown size":   {},
		"the largest size":  {Rows: 65535, Cols: 65535},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := ParseWinsize(want.AppendWinsize(nil))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseWinsizeRejectsBadPayloads(t *testing.T) {
	for name, data := range map[string][]byte{
		"empty":     nil,
		"too short": {0, 24, 0},
		"too long":  {0, 24, 0, 80, 0},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := ParseWinsize(data); !errors.Is(err, ErrIOFrame) {
				t.Errorf("ParseWinsize(%v) = %v, want ErrIOFrame", data, err)
			}
		})
	}
}

func FuzzParseWinsize(f *testing.F) {
	f.Add([]byte{0, 24, 0, 80})
	f.Add([]byte{1})
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseWinsize(data)
		if err == nil && string(p.AppendWinsize(nil)) != string(data) {
			t.Errorf("%v does not round-trip: %+v", data, p)
		}
	})
}
