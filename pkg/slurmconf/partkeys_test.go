package slurmconf

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// TestPartKeys: the peer's igpu, imax, iexcl and iroot partitions, and
// the cluster's DefCPUPerGPU that a partition's own overrides (the peer
// ran --gpus=3 with 6 CPUs under DefCPUPerGPU=2, with 12 in igpu).
func TestPartKeys(t *testing.T) {
	type out struct {
		PerGPU, Own, MaxCPUs int64
		ExclusiveUser, Root  bool
	}
	tests := map[string]struct {
		cluster, part string
		want          out
	}{
		"nothing set":              {"", "", out{0, 0, 0, false, false}},
		"igpu":                     {"", " DefCPUPerGPU=4", out{4, 4, 0, false, false}},
		"cluster default":          {"DefCPUPerGPU=2\n", "", out{2, 0, 0, false, false}},
		"partition over cluster":   {"DefCPUPerGPU=2\n", " DefCPUPerGPU=4", out{4, 4, 0, false, false}},
		"imax":                     {"", " MaxCPUsPerNode=16", out{0, 0, 16, false, false}},
		"MaxCPUsPerNode=UNLIMITED": {"", " MaxCPUsPerNode=UNLIMITED", out{0, 0, 0, false, false}},
		"iexcl":                    {"", " ExclusiveUser=YES", out{0, 0, 0, true, false}},
		"iroot":                    {"", " RootOnly=YES", out{0, 0, 0, false, true}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := parseOK(t, tc.cluster+limitsNodes+"PartitionName=p Nodes=n1"+tc.part+"\n")
			p, _ := c.Partition("p")
			got := out{c.CPUsPerGPUDefault(p), p.DefCPUPerGPU, p.CPUsPerNodeLimit(), p.ExclusiveUser, p.RootOnly}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestPartKeysBad: a value that is not a count or a boolean is named.
func TestPartKeysBad(t *testing.T) {
	for _, line := range []string{"MaxCPUsPerNode=many", "DefCPUPerGPU=-1", "RootOnly=maybe"} {
		_, err := Parse(fstest.MapFS{"slurm.conf": {Data: []byte(header + limitsNodes + "PartitionName=p Nodes=n1 " + line + "\n")}}, "slurm.conf")
		if err == nil || !strings.Contains(err.Error(), strings.Split(line, "=")[0]) {
			t.Errorf("%s: error %v, want one naming the key", line, err)
		}
	}
}

// TestPartKeysShowConfig: JobDefaults as the peer's scontrol show config
// printed it with and without DefCPUPerGPU=2.
func TestPartKeysShowConfig(t *testing.T) {
	for conf, want := range map[string]string{"": "(null)", "DefCPUPerGPU=2\n": "DefCpuPerGPU=2"} {
		c := parseOK(t, conf+limitsNodes)
		got := ""
		for _, kv := range c.ShowConfig(ShowContext{}) {
			if kv.Key == "JobDefaults" {
				got = kv.Value
			}
		}
		if got != want {
			t.Errorf("%q: JobDefaults = %q, want %q", conf, got, want)
		}
	}
}
