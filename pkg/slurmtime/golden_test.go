package slurmtime

import (
	"bufio"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// readGolden reads the tab-separated lines captured from Slurm by
// testdata/capture.sh.
func readGolden(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, strings.Split(sc.Text(), "\t"))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(lines) == 0 {
		t.Fatalf("%s: no cases", path)
	}
	return lines
}

// TestTimeLimitMatchesSlurm checks ParseTimeLimit, FormatDuration and
// FormatElapsed against sbatch --time, scontrol's TimeLimit and squeue's %l.
func TestTimeLimitMatchesSlurm(t *testing.T) {
	for _, f := range readGolden(t, "testdata/durations.golden") {
		in := f[0]
		d, err := ParseTimeLimit(in)
		if f[1] == "ERROR" {
			if err == nil {
				t.Errorf("ParseTimeLimit(%q) = %v, want an error as sbatch gives", in, d)
			} else if !errors.Is(err, ErrInvalidDuration) {
				t.Errorf("ParseTimeLimit(%q) error %v does not wrap ErrInvalidDuration", in, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseTimeLimit(%q): %v", in, err)
			continue
		}
		got := []string{in, FormatDuration(d), FormatElapsed(d)}
		if diff := cmp.Diff(f, got); diff != "" {
			t.Errorf("ParseTimeLimit(%q) = %v; [input TimeLimit squeue] (-want +got):\n%s", in, d, diff)
		}
	}
}

// TestParseTimeMatchesSlurm checks ParseTime against the EligibleTime that
// sbatch --begin gave, at the same now. Slurm prints a begin time that is
// not in the future as Unknown.
func TestParseTimeMatchesSlurm(t *testing.T) {
	for _, f := range readGolden(t, "testdata/times.golden") {
		in, want := f[0], f[2]
		secs, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			t.Fatalf("bad golden line %q", f)
		}
		now := time.Unix(secs, 0).UTC()
		got, err := ParseTime(in, now)
		switch {
		case want == "ERROR":
			if err == nil {
				t.Errorf("ParseTime(%q) = %s, want an error as sbatch gives", in, FormatTime(got))
			} else if !errors.Is(err, ErrInvalidTime) {
				t.Errorf("ParseTime(%q) error %v does not wrap ErrInvalidTime", in, err)
			}
		case err != nil:
			t.Errorf("ParseTime(%q) at %s: %v", in, FormatTime(now), err)
		case want == "Unknown":
			if got.After(now) {
				t.Errorf("ParseTime(%q) at %s = %s, want a time not after now", in, FormatTime(now), FormatTime(got))
			}
		case FormatTime(got) != want:
			t.Errorf("ParseTime(%q) at %s = %s, want %s", in, FormatTime(now), FormatTime(got), want)
		}
	}
}
