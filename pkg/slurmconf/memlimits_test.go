package slurmconf

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMemLimitsPairs: the per-CPU key of each pair wins; a partition that
// writes either key of a pair replaces the cluster's pair (the peer's
// emdef partition, DefMemPerNode=3000 under the cluster's DefMemPerCPU=1024,
// gives its jobs MinMemoryNode=3000M).
func TestMemLimitsPairs(t *testing.T) {
	type out struct{ DefCPU, DefNode, MaxCPU, MaxNode int64 }
	tests := map[string]struct {
		cluster, part string
		want          out
	}{
		"nothing set": {"", "", out{0, 0, 0, 0}},
		"cluster DefMemPerNode": {"DefMemPerNode=3000\n", "",
			out{0, 3000, 0, 0}},
		"both defaults: per CPU wins": {"DefMemPerCPU=1024\nDefMemPerNode=3000\n", "",
			out{1024, 0, 0, 0}},
		"partition DefMemPerNode replaces cluster DefMemPerCPU": {"DefMemPerCPU=1024\n", " DefMemPerNode=3000",
			out{0, 3000, 0, 0}},
		"partition DefMemPerCPU replaces cluster DefMemPerNode": {"DefMemPerNode=3000\n", " DefMemPerCPU=500",
			out{500, 0, 0, 0}},
		"cluster MaxMemPerCPU inherited": {"MaxMemPerCPU=2000\n", "",
			out{0, 0, 2000, 0}},
		"partition MaxMemPerNode replaces cluster MaxMemPerCPU": {"MaxMemPerCPU=2000\n", " MaxMemPerNode=4000",
			out{0, 0, 0, 4000}},
		"partition MaxMemPerCPU replaces cluster MaxMemPerNode": {"MaxMemPerNode=4000\n", " MaxMemPerCPU=1500",
			out{0, 0, 1500, 0}},
		"MaxMemPerCPU UNLIMITED": {"MaxMemPerCPU=UNLIMITED\n", "", out{0, 0, 0, 0}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := parseOK(t, tc.cluster+limitsNodes+"PartitionName=p Nodes=n1"+tc.part+"\n")
			p, _ := c.Partition("p")
			dc, dn := c.DefaultMemory(p)
			mc, mn := c.MemoryMaximum(p)
			if diff := cmp.Diff(tc.want, out{dc, dn, mc, mn}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestMemLimitsShowConfig: scontrol show config prints one key of each
// pair, as the peer does (DefMemPerCPU = 1024, MaxMemPerNode = UNLIMITED).
func TestMemLimitsShowConfig(t *testing.T) {
	tests := map[string]struct {
		conf string
		want []string
	}{
		"peer's":           {"DefMemPerCPU=1024\n", []string{"DefMemPerCPU=1024", "MaxMemPerNode=UNLIMITED"}},
		"per node default": {"DefMemPerNode=3000\n", []string{"DefMemPerNode=3000", "MaxMemPerNode=UNLIMITED"}},
		"per CPU maximum":  {"MaxMemPerCPU=2000\n", []string{"DefMemPerNode=UNLIMITED", "MaxMemPerCPU=2000"}},
		"per node maximum": {"MaxMemPerNode=4000\n", []string{"DefMemPerNode=UNLIMITED", "MaxMemPerNode=4000"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := parseOK(t, tc.conf+limitsNodes)
			var got []string
			for _, kv := range c.ShowConfig(ShowContext{}) {
				if strings.HasPrefix(kv.Key, "DefMemPer") || strings.HasPrefix(kv.Key, "MaxMemPer") {
					got = append(got, kv.Key+"="+kv.Value)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
