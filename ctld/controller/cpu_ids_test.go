package controller

import (
	"testing"

	"github.com/loamhpc/loam/pkg/job"
)

// TestPickCPUsLikeSlurm checks CPU_IDs against `scontrol show job -d` on
// the peer (nodes of 2 sockets x 16 or 32 cores).
func TestPickCPUsLikeSlurm(t *testing.T) {
	tests := map[string]struct {
		cpus, count, cpt int
		busy             []int
		want             string
	}{
		"-n1":                          {32, 1, 1, nil, "0"},
		"-n2 alternates sockets":       {32, 2, 1, nil, "0,16"},
		"-n3":                          {32, 3, 1, nil, "0-1,16"},
		"-n5":                          {32, 5, 1, nil, "0-2,16-17"},
		"-n17":                         {32, 17, 1, nil, "0-8,16-23"},
		"-c3 keeps a task whole":       {32, 3, 3, nil, "0-2"},
		"-n2 -c3 packs a socket":       {32, 6, 3, nil, "0-5"},
		"held CPUs are skipped":        {32, 4, 1, []int{0, 16}, "1-2,17-18"},
		"a 64-CPU node, 15 CPUs":       {64, 15, 1, nil, "0-7,32-38"},
		"overcommit reuses the lowest": {2, 3, 1, []int{0, 1}, "0-1"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			used := make([]bool, tc.cpus)
			for _, id := range tc.busy {
				used[id] = true
			}
			if got := job.FormatRanges(pickCPUs(used, 2, tc.count, tc.cpt)); got != tc.want {
				t.Errorf("CPU_IDs = %q, want %q", got, tc.want)
			}
		})
	}
}
