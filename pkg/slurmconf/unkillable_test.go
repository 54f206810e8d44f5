package slurmconf

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestUnkillableKeys(t *testing.T) {
	tests := map[string]struct {
		lines string
		want  Unkillable
	}{
		"unset: Slurm's 60 seconds, no program": {"", Unkillable{Timeout: 60 * time.Second}},
		"both keys": {"UnkillableStepTimeout=120\nUnkillableStepProgram=/usr/sbin/unkillable\n",
			Unkillable{Timeout: 120 * time.Second, Program: "/usr/sbin/unkillable"}},
		// 22.05 has no floor at 5*MessageTimeout (later releases derive
		// the default from it).
		"below 5*MessageTimeout":   {"MessageTimeout=30\nUnkillableStepTimeout=5\n", Unkillable{Timeout: 5 * time.Second}},
		"zero is taken as written": {"UnkillableStepTimeout=0\n", Unkillable{}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := parseOK(t, tc.lines)
			if diff := cmp.Diff(tc.want, c.Unkillable); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnkillableRefusals(t *testing.T) {
	for name, tc := range map[string]struct{ line, want string }{
		"a timeout over 16 bits": {"UnkillableStepTimeout=65536", `slurm.conf:3: UnkillableStepTimeout: invalid value`},
		"a timeout not a number": {"UnkillableStepTimeout=1m", `slurm.conf:3: UnkillableStepTimeout: invalid value`},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(fstest.MapFS{"slurm.conf": {Data: []byte(header + tc.line + "\n")}}, "slurm.conf")
			checkErrorPrefixes(t, err, []string{tc.want})
		})
	}
}
