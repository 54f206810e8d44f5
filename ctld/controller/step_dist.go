package controller

import (
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// distribute numbers the tasks of each node by -m's first level: block
// (consecutive ids per node), cyclic (dealt one at a time over the
// nodes) or plane=N (dealt N at a time, a node that is full skipped: the
// peer's -n4 -m plane=2 over 3+1 CPUs puts tasks 0,1,3 on the first node
// and 2 on the second). The second level (block:cyclic) places tasks on
// sockets and does not change the ids.
func distribute(counts []int, dist string) [][]int {
	first, _, _ := strings.Cut(strings.ToLower(dist), ":")
	switch {
	case strings.HasPrefix(first, "cyclic"):
		return dealt(counts, 1)
	case strings.HasPrefix(first, "plane="):
		if n, err := strconv.Atoi(strings.TrimPrefix(first, "plane=")); err == nil && n > 0 {
			return dealt(counts, n)
		}
	}
	return taskIDs(counts)
}

// dealt deals task ids over the nodes up to size at a time, each node
// taking at most its count.
func dealt(counts []int, size int) [][]int {
	out := make([][]int, len(counts))
	next := 0
	for more := true; more; {
		more = false
		for i, c := range counts {
			for k := 0; k < size && len(out[i]) < c; k++ {
				out[i] = append(out[i], next)
				next++
				more = true
			}
		}
	}
	return out
}

// arbitrary lays out a step with -m arbitrary: task i runs on the i-th
// node of TaskNodes (the first -n of them), the nodes in allocation order,
// as the peer's SLURM_HOSTFILE of cpu002,cpu001,cpu002,cpu002 gives
// cpu001 task 1 and cpu002 tasks 0,2,3. A node outside the allocation, or
// fewer nodes listed than tasks, is refused as -w is; more tasks than a
// node's CPUs are not (the peer runs 3 tasks on a node of the job's with
// 1 CPU).
func arbitrary(alloc []api.NodeAllocation, req *api.StepCreateRequest) ([]api.NodeAllocation, []int, [][]int, *api.Error) {
	tasks := req.NTasks
	if tasks == 0 {
		tasks = len(req.TaskNodes)
	}
	if tasks > len(req.TaskNodes) {
		return nil, nil, nil, api.NewError(api.CodeBadTaskCount)
	}
	index := map[string]int{}
	for i, a := range alloc {
		index[a.Node] = i
	}
	perNode := make([][]int, len(alloc))
	for t, name := range req.TaskNodes[:tasks] {
		i, ok := index[name]
		if !ok {
			return nil, nil, nil, api.NewError(api.CodeNodeConfigUnavailable)
		}
		perNode[i] = append(perNode[i], t)
	}
	var (
		nodes  []api.NodeAllocation
		counts []int
		ids    [][]int
	)
	for i, a := range alloc {
		if len(perNode[i]) == 0 {
			continue
		}
		nodes, counts, ids = append(nodes, a), append(counts, len(perNode[i])), append(ids, perNode[i])
	}
	return nodes, counts, ids, nil
}
