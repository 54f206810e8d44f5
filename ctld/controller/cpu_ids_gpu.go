package controller

import (
	"slices"
	"strings"

	"github.com/loamhpc/loam/pkg/job"
)

// jobCPUIDs picks count of a node's CPUs (used marks the taken ones) for
// a job of request q. The tasks of a --gpus-per-task job with more than
// one CPU each (-c, or --cpus-per-gpu) go one task's CPUs a socket in
// turn: the peer's -N2 -n4 --gpus-per-task=1 --cpus-per-gpu=2 pins
// CPU_IDs=0-3,32-33 for three tasks and -N2 -n8 --gpus-per-task=1 -c2
// 0-7,32-37 for seven, where -N2 -n4 -c2 pins 0-5. Every other job takes
// pickCPUs' layout.
func jobCPUIDs(q *job.Request, used []bool, sockets, count int) []int {
	if blockCores(q.Distribution) {
		return lowestCPUs(used, count)
	}
	unit := taskCPUs(q) // task_layout.go
	if unit <= 1 || len(q.GPUsPerTask) == 0 {
		return pickCPUs(used, sockets, count, unit)
	}
	sockets = max(sockets, 1)
	if len(used)%sockets != 0 {
		sockets = 1
	}
	per := len(used) / sockets
	next := make([]int, sockets)
	for s := range next {
		next[s] = s * per
	}
	var out []int
	for took := true; took && len(out) < count; {
		took = false
		for s := 0; s < sockets && len(out) < count; s++ {
			for k := 0; k < unit && len(out) < count; k++ {
				for next[s] < (s+1)*per && used[next[s]] {
					next[s]++
				}
				if next[s] == (s+1)*per {
					break
				}
				out = append(out, next[s])
				next[s]++
				took = true
			}
		}
	}
	for id := 0; id < len(used) && len(out) < count; id++ {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// blockCores reports whether -m dist lays a node's tasks on its cores in
// blocks (a second level of block, or plane), where Slurm takes the
// lowest free CPUs in order: the peer's -n3 -m block:block and -m
// plane=2 pin CPU_IDs=0-2 on an idle 2x16-core node where -n3 pins
// 0-1,16; -m block alone keeps the default (block:cyclic).
func blockCores(dist string) bool {
	d := strings.ToLower(dist)
	if strings.HasPrefix(d, "plane") {
		return true
	}
	levels := strings.Split(d, ":")
	return len(levels) > 1 && levels[1] == "block"
}

// lowestCPUs is the count lowest free CPU ids (used marks the taken
// ones), then the lowest taken ones again on an overcommitted node.
func lowestCPUs(used []bool, count int) []int {
	var out []int
	for id := 0; id < len(used) && len(out) < count; id++ {
		if !used[id] {
			out = append(out, id)
		}
	}
	for id := 0; id < len(used) && len(out) < count; id++ {
		if used[id] {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}
