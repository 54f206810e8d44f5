package controller

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

func cpusAlloc(cpus ...int) []api.NodeAllocation {
	out := make([]api.NodeAllocation, len(cpus))
	for i, c := range cpus {
		out[i] = api.NodeAllocation{Node: "n" + string(rune('1'+i)), CPUs: c}
	}
	return out
}

// TestTasksPerNodeFollowsCPUs checks SLURM_TASKS_PER_NODE against what the
// peer printed for the same allocations.
func TestTasksPerNodeFollowsCPUs(t *testing.T) {
	tests := map[string]struct {
		req   job.Request
		alloc []api.NodeAllocation
		want  []int
	}{
		"-N2 -n4 holds 3,1":         {job.Request{NTasks: 4}, cpusAlloc(3, 1), []int{3, 1}},
		"-N3 -n4 holds 2,1,1":       {job.Request{NTasks: 4}, cpusAlloc(2, 1, 1), []int{2, 1, 1}},
		"-N2 -n5 holds 4,1":         {job.Request{NTasks: 5}, cpusAlloc(4, 1), []int{4, 1}},
		"-N2 -n4 -c2 holds 6,2":     {job.Request{NTasks: 4, CPUsPerTask: 2}, cpusAlloc(6, 2), []int{3, 1}},
		"-N3 -n7 -c2 holds 10,2,2":  {job.Request{NTasks: 7, CPUsPerTask: 2}, cpusAlloc(10, 2, 2), []int{5, 1, 1}},
		"-N2 -n40 spilled as 18,22": {job.Request{NTasks: 40}, cpusAlloc(18, 22), []int{18, 22}},
		// The peer's spilled layouts: -N2 -n100 64,36; -N4 -n140
		// 64(x2),11,1; -N3 -n100 with 50 CPUs busy on the middle node
		// 64,14,22; -N3 -n25 -c3 holds 63,9,3 and runs 21,3,1.
		"-N2 -n100 holds 64,36":         {job.Request{NTasks: 100}, cpusAlloc(64, 36), []int{64, 36}},
		"-N4 -n140 holds 64,64,11,1":    {job.Request{NTasks: 140}, cpusAlloc(64, 64, 11, 1), []int{64, 64, 11, 1}},
		"-N3 -n100 holds 64,14,22":      {job.Request{NTasks: 100}, cpusAlloc(64, 14, 22), []int{64, 14, 22}},
		"-N3 -n25 -c3 holds 63,9,3":     {job.Request{NTasks: 25, CPUsPerTask: 3}, cpusAlloc(63, 9, 3), []int{21, 3, 1}},
		"-N3 -n70 --ntasks-per-node=30": {job.Request{NTasks: 70, NTasksPerNode: 30}, cpusAlloc(30, 30, 30), []int{30, 30, 30}},
		"whole nodes spread the tasks":  {job.Request{NTasks: 4}, cpusAlloc(32, 32), []int{2, 2}},
		"-N2 alone runs a task a node":  {job.Request{}, cpusAlloc(1, 1), []int{1, 1}},
		// Without -n the CPUs set the task count: the peer's --exclusive
		// 32, --gpus=2 --cpus-per-gpu=4 8, -N2 --gpus-per-node=2
		// --cpus-per-gpu=3 6(x2), -N2 -c3 1(x2).
		"--exclusive without -n":      {job.Request{}, cpusAlloc(32), []int{32}},
		"--cpus-per-gpu without -n":   {job.Request{}, cpusAlloc(8), []int{8}},
		"-N2 cpus-per-gpu without -n": {job.Request{}, cpusAlloc(6, 6), []int{6, 6}},
		"-N2 -c3 without -n":          {job.Request{CPUsPerTask: 3}, cpusAlloc(3, 3), []int{1, 1}},
		"--ntasks-per-node":           {job.Request{NTasks: 4, NTasksPerNode: 2}, cpusAlloc(2, 2), []int{2, 2}},
		"overcommit deals the rest":   {job.Request{NTasks: 5}, cpusAlloc(1, 1), []int{3, 2}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, tasksPerNode(&tc.req, tc.alloc)); diff != "" {
				t.Errorf("tasks per node (-want +got):\n%s", diff)
			}
		})
	}
}
