package agent

import (
	"testing"

	"github.com/loamhpc/loam/pkg/job"
)

// TestCPUSetReserve: CPUs slurm.conf sets aside (CoreSpecCount,
// CPUSpecList) are never the lowest free ones a job without the
// controller's pinning gets.
func TestCPUSetReserve(t *testing.T) {
	tests := map[string]struct {
		reserve []int
		count   int
		want    string
	}{
		"nothing reserved":             {nil, 3, "0-2"},
		"CPUSpecList=0,1":              {[]int{0, 1}, 3, "2-4"},
		"CoreSpecCount=2 on 2x4":       {[]int{3, 7}, 6, "0-2,4-6"},
		"out-of-range ids are skipped": {[]int{-1, 99}, 2, "0-1"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := newCPUSet(8, []int{0, 1})
			c.reserve(tc.reserve)
			got, err := c.take(tc.count, "")
			if err != nil {
				t.Fatal(err)
			}
			if s := job.FormatRanges(got); s != tc.want {
				t.Errorf("take(%d) = %s, want %s", tc.count, s, tc.want)
			}
		})
	}
}
