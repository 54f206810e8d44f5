package cluster

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/slurmconf"
)

// TestPartKeysShape: --exclusive=user (what a partition's
// ExclusiveUser=YES gives a job) makes a user-exclusive shape, not whole
// nodes; MaxCPUsPerNode reaches the scheduler's partition.
func TestPartKeysShape(t *testing.T) {
	type out struct{ Exclusive, ExclusiveUser bool }
	tests := map[string]struct {
		opts string
		want out
	}{
		"--exclusive=user": {"--exclusive=user", out{false, true}},
		"--exclusive":      {"--exclusive", out{true, false}},
		"neither":          {"", out{false, false}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			s, err := ShapeOf(request(t, tc.opts), &slurmconf.Config{}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, out{s.Exclusive, s.ExclusiveUser}); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	p := slurmconf.Partition{Name: "imax", PartKeys: slurmconf.PartKeys{MaxCPUsPerNode: 16}}
	if got := schedPartition(p).MaxCPUsPerNode; got != 16 {
		t.Errorf("MaxCPUsPerNode = %d, want 16", got)
	}
	p.MaxCPUsPerNode = slurmconf.Unlimited
	if got := schedPartition(p).MaxCPUsPerNode; got != 0 {
		t.Errorf("UNLIMITED: MaxCPUsPerNode = %d, want 0", got)
	}
}
