package slurmconf

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/slurmtime"
)

// TestResvOverRun: minutes or UNLIMITED, printed as scontrol show config
// prints it (the peer: "ResvOverRun = 0 min").
func TestResvOverRun(t *testing.T) {
	type out struct {
		D    time.Duration
		Show string
	}
	tests := map[string]struct {
		line string
		want out
	}{
		"unset is 0":            {"", out{0, "0 min"}},
		"minutes":               {"ResvOverRun=15\n", out{15 * time.Minute, "15 min"}},
		"the largest finite":    {"ResvOverRun=65533\n", out{65533 * time.Minute, "65533 min"}},
		"UNLIMITED in any case": {"ResvOverRun=unlimited\n", out{slurmtime.Unlimited, "UNLIMITED"}},
		"INFINITE":              {"ResvOverRun=INFINITE\n", out{slurmtime.Unlimited, "UNLIMITED"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := parseOK(t, tc.line)
			got := out{c.ResvOverRun, resvOverRunText(c.ResvOverRun)}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestResvOverRunRefusals(t *testing.T) {
	for name, v := range map[string]string{
		"a time, not minutes": "1:00:00",
		"negative":            "-1",
		"past the 16-bit top": "65534",
		"a word":              "soon",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(fstest.MapFS{"slurm.conf": {Data: []byte(header + "ResvOverRun=" + v + "\n")}}, "slurm.conf")
			checkErrorPrefixes(t, err, []string{`slurm.conf:3: ResvOverRun: invalid value: "` + v + `" is not a number of minutes`})
		})
	}
}
