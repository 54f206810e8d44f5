package slurmconf

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// TestStepLimitsCluster: KillOnBadExit, MaxTasksPerNode and MaxStepCount
// are read (not ignored with a warning) and scontrol show config prints
// them as the peer's does (defaults 0, 512, 40000).
func TestStepLimitsCluster(t *testing.T) {
	type out struct {
		Kill            bool
		Tasks, Steps    int64
		ShowKill        string
		ShowTasks       string
		ShowSteps       string
		WarningsForKeys int
	}
	tests := map[string]struct {
		conf string
		want out
	}{
		"unset": {"", out{false, 512, 40000, "0", "512", "40000", 0}},
		"the peer's experiment": {"KillOnBadExit=1\nMaxTasksPerNode=8\nMaxStepCount=3\n",
			out{true, 8, 3, "1", "8", "3", 0}},
		"zero keeps the defaults": {"KillOnBadExit=0\nMaxTasksPerNode=0\nMaxStepCount=0\n",
			out{false, 512, 40000, "0", "512", "40000", 0}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := parseOK(t, tc.conf+limitsNodes)
			show := map[string]string{}
			for _, kv := range c.ShowConfig(ShowContext{}) {
				show[kv.Key] = kv.Value
			}
			warned := 0
			for _, w := range c.Warnings {
				for _, k := range []string{"KillOnBadExit", "MaxTasksPerNode", "MaxStepCount"} {
					if w.Key == k {
						warned++
					}
				}
			}
			got := out{c.KillOnBadExit, c.MaxTasksPerNode, c.MaxStepCount,
				show["KillOnBadExit"], show["MaxTasksPerNode"], show["MaxStepCount"], warned}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestStepLimitsRefusals(t *testing.T) {
	for name, tc := range map[string]struct{ line, want string }{
		"KillOnBadExit word":  {"KillOnBadExit=yes", `slurm.conf:3: KillOnBadExit: invalid value: "yes" is not a valid number`},
		"MaxTasksPerNode -1":  {"MaxTasksPerNode=-1", `slurm.conf:3: MaxTasksPerNode: invalid value: "-1" is not a valid number`},
		"MaxStepCount a word": {"MaxStepCount=many", `slurm.conf:3: MaxStepCount: invalid value: "many" is not a valid number`},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(fstest.MapFS{"slurm.conf": {Data: []byte(header + tc.line + "\n" + limitsNodes)}}, "slurm.conf")
			checkErrorPrefixes(t, err, []string{tc.want})
		})
	}
}
