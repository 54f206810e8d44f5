package slurmconf

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/slurmtime"
)

const limitsNodes = "NodeName=n1 CPUs=4\n"

// TestLimitsCluster: the cluster keys, and EnforcePartLimits as the peer's
// scontrol show config prints it (YES as ANY).
func TestLimitsCluster(t *testing.T) {
	type out struct {
		Enforce, Show string
		Over          time.Duration
		NoRoot        bool
	}
	tests := map[string]struct {
		conf string
		want out
	}{
		"unset":                 {"", out{"NO", "NO", 0, false}},
		"ALL in any case":       {"EnforcePartLimits=all\n", out{"ALL", "ALL", 0, false}},
		"YES is ANY":            {"EnforcePartLimits=YES\n", out{"ANY", "ANY", 0, false}},
		"OverTimeLimit minutes": {"OverTimeLimit=5\n", out{"NO", "NO", 5 * time.Minute, false}},
		"OverTimeLimit UNLIMITED": {"OverTimeLimit=UNLIMITED\n",
			out{"NO", "NO", slurmtime.Unlimited, false}},
		"DisableRootJobs": {"DisableRootJobs=YES\n", out{"NO", "NO", 0, true}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := parseOK(t, tc.conf+limitsNodes)
			show := ""
			for _, kv := range c.ShowConfig(ShowContext{}) {
				if kv.Key == "EnforcePartLimits" {
					show = kv.Value
				}
			}
			got := out{c.EnforcePartLimits, show, c.OverTimeLimit, c.DisableRootJobs}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestLimitsPartition: a partition's OverTimeLimit overrides the
// cluster's; its DisableRootJobs defaults to the cluster's.
func TestLimitsPartition(t *testing.T) {
	type out struct {
		Own, Effective time.Duration
		NoRoot         bool
	}
	tests := map[string]struct {
		conf string
		want out
	}{
		"nothing set": {"PartitionName=p Nodes=n1\n", out{OverTimeInherit, 0, false}},
		"the cluster's applies": {"OverTimeLimit=3\nDisableRootJobs=YES\nPartitionName=p Nodes=n1\n",
			out{OverTimeInherit, 3 * time.Minute, true}},
		"the partition's wins": {"OverTimeLimit=3\nDisableRootJobs=YES\nPartitionName=p Nodes=n1 OverTimeLimit=1 DisableRootJobs=NO\n",
			out{time.Minute, time.Minute, false}},
		"partition UNLIMITED": {"PartitionName=p Nodes=n1 OverTimeLimit=UNLIMITED\n",
			out{slurmtime.Unlimited, slurmtime.Unlimited, false}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := parseOK(t, limitsNodes+tc.conf)
			p := &c.Partitions[0]
			got := out{p.OverTimeLimit, c.OverTime(p), p.DisableRootJobs}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestLimitsRefusals(t *testing.T) {
	for name, tc := range map[string]struct{ line, want string }{
		"EnforcePartLimits word": {"EnforcePartLimits=SOME", `slurm.conf:3: EnforcePartLimits: invalid value: "SOME" is not one of ALL, ANY, NO, YES`},
		"OverTimeLimit a time":   {"OverTimeLimit=1:00:00", `slurm.conf:3: OverTimeLimit: invalid value: "1:00:00" is not a number of minutes`},
		"DisableRootJobs word":   {"DisableRootJobs=maybe", `slurm.conf:3: DisableRootJobs: invalid value: "maybe" is not a boolean`},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(fstest.MapFS{"slurm.conf": {Data: []byte(header + tc.line + "\n" + limitsNodes)}}, "slurm.conf")
			checkErrorPrefixes(t, err, []string{tc.want})
		})
	}
}
