package controller

import (
	"slices"
	"strings"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// nodeCPUIDs picks the cpus CPU ids of a job of request q on a node
// (used marks the ones taken; see spreadGRESCores for freeGPUs and
// gpusLeft): the cores Slurm's gres filter keeps, then jobCPUIDs' layout
// of them.
func nodeCPUIDs(q *job.Request, used []bool, sockets, cpus, freeGPUs, gpusLeft int) []int {
	spreadGRESCores(q, used, sockets, cpus, freeGPUs, gpusLeft)
	return jobCPUIDs(q, used, sockets, cpus)
}

// spreadGRESCores narrows a node's free CPUs (used marks the taken ones)
// for a job with generic resources as the gres filter of Slurm's
// cons_tres (gres_select_filter_sock_core) narrows the free cores before
// any is picked: it keeps as many as the node's tasks can use, or its
// GPUs with --cpus-per-gpu, and drops the others one at a time from the
// socket with the most left, highest id first, so that what is kept
// spreads over the sockets near the GPUs. On the peer's idle 2x32-core
// GPU node -n1 --gres=gpu:1 pins CPU 32, -n1 -c8 --gres=gpu:8 0-3,32-35
// and -N1 -n2 -c3 --gres=gpu:1 0-2,32-34, where -n1 -c8 without a GPU
// pins 0-7 and -n2 -c5 --gres=gpu:1, whose task count on a node is open,
// 0-9. cpus is the job's CPUs on the node, freeGPUs the node's GPUs no
// other job holds, gpusLeft the job's GPUs (as -G or --gpus-per-task
// count them) not on the nodes pinned before this one. Dropped CPUs are
// marked used.
func spreadGRESCores(q *job.Request, used []bool, sockets, cpus, freeGPUs, gpusLeft int) {
	if !hasGRES(q) {
		return
	}
	sockets = max(sockets, 1)
	if len(used)%sockets != 0 {
		sockets = 1
	}
	per := len(used) / sockets
	free := make([]int, sockets)
	total := 0
	for id, u := range used {
		if !u {
			free[id/per]++
			total++
		}
	}
	for total -= keptGRESCPUs(q, total, cpus, freeGPUs, gpusLeft); total > 0; total-- {
		fullest := 0
		for s := range free {
			if free[s] > free[fullest] {
				fullest = s
			}
		}
		for id := (fullest+1)*per - 1; id >= fullest*per; id-- {
			if !used[id] {
				used[id] = true
				break
			}
		}
		free[fullest]--
	}
}

// keptGRESCPUs is how many of a node's free CPUs the gres filter keeps:
// the CPUs of the most tasks the node can take (nodeTaskCount, then no
// more than its usable GPUs allow with --gpus-per-task), at least those
// --cpus-per-gpu asks for its GPUs, and at least cpus, the job's CPUs
// there. With --cpus-per-gpu the usable GPUs are also no more than the
// job has left to place (the peer's -N2 -n4 --gpus-per-task=1
// --cpus-per-gpu=2 pins 0-3,32-33 for three tasks and 0,32 for the
// fourth on the other node).
func keptGRESCPUs(q *job.Request, free, cpus, freeGPUs, gpusLeft int) int {
	cpt := taskCPUs(q) // task_layout.go
	tasks, fixed := nodeTaskCount(q)
	if !fixed {
		tasks = free / cpt
	}
	usable := freeGPUs
	if q.CPUsPerGPU > 0 && gpusLeft > 0 {
		usable = min(usable, gpusLeft)
	}
	gpt := resource.GPUCount(q.GPUsPerTask)
	if gpt > 0 {
		tasks = min(tasks, usable/gpt)
	}
	var gpus int
	switch perNode := q.NodeGPUs(); {
	case perNode > 0:
		gpus = perNode
	case gpt > 0:
		gpus = gpt * tasks
	default:
		gpus = usable
	}
	return max(tasks*cpt, gpus*q.CPUsPerGPU, cpus)
}

// jobGPUs is the job's GPU count when it is asked for the whole job
// (-G, or --gpus-per-task times -n), else 0.
func jobGPUs(q *job.Request) int {
	if n := resource.GPUCount(q.GPUs); n > 0 {
		return n
	}
	return resource.GPUCount(q.GPUsPerTask) * q.NTasks
}

// nodeTaskCount is the task count cons_tres fixes for each of a job's
// nodes before it looks at their cores (_select_cores, where the least
// and the most are equal): --ntasks-per-node; -n over -N with
// --ntasks-per-gpu; -n on one node (-N1); a single task; a task a node.
// Otherwise the count is open (fixed false) and bounded by the free CPUs.
func nodeTaskCount(q *job.Request) (tasks int, fixed bool) {
	oneNode := q.NodesSet && q.MinNodes == 1 && q.MaxNodes == 1
	switch {
	case q.NTasksPerNode > 0:
		return q.NTasksPerNode, true
	case q.NTasksPerSocket > 0, q.NTasksPerCore > 0:
		return 0, false
	case q.NTasksPerGPU > 0:
		if q.NTasks == 0 || q.NodesSet && q.MinNodes == 0 {
			return 0, false
		}
		return q.NTasks / max(q.MinNodes, 1), true
	case oneNode:
		return q.NTasks, q.NTasks > 0
	case q.NTasks == 1, q.NTasks > 0 && q.NodesSet && q.NTasks == q.MinNodes && q.MinNodes == q.MaxNodes:
		return 1, true
	}
	return 0, false
}

// hasGRES reports whether q asks for any generic resource (GPUs by any
// option, or --gres).
func hasGRES(q *job.Request) bool {
	return len(q.GPUs) > 0 || len(q.GPUsPerNode) > 0 || len(q.GPUsPerTask) > 0 || len(q.GRES) > 0
}

// jobCPUIDs picks count of a node's CPUs (used marks the taken ones) for
// a job of request q. The tasks of a --gpus-per-task job whose CPUs come
// from --cpus-per-gpu go one task's CPUs a socket in turn: the peer's
// -N2 -n4 --gpus-per-task=1 --cpus-per-gpu=2 pins CPU_IDs=0-3,32-33 for
// three tasks, where -n2 --gpus-per-task=1 -c4 pins 0-7. Every other job
// takes pickCPUs' layout.
func jobCPUIDs(q *job.Request, used []bool, sockets, count int) []int {
	if blockCores(q.Distribution) {
		return lowestCPUs(used, count)
	}
	unit := taskCPUs(q) // task_layout.go
	if unit <= 1 || len(q.GPUsPerTask) == 0 || q.CPUsPerTask > 0 {
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
