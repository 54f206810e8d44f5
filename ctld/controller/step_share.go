package controller

import (
	"github.com/loamhpc/loam/pkg/api"
)

// Concurrent steps share their job's allocation as in Slurm 22.05: a step
// holds CPUs, memory and GPUs on its nodes while it runs, and a later
// step that needs what is held waits (srun asks again: "Requested nodes
// are busy").
//
//   - CPUs: all the job's CPUs on the node, or with --exact only those
//     its tasks use there.
//   - Memory: --mem, else --mem-per-cpu (or the job's memory per CPU)
//     times those CPUs. More than the job has on the node is refused
//     ("Memory required by task is not available"); memory that other
//     steps hold makes the step wait like busy CPUs: the peer's srun
//     --exact --mem=1000 beside a step holding 1500 of 2000 MB retried
//     ("Requested nodes are busy") and ran when that step ended.
//   - GPUs: those the GPU options ask for, else every GPU of the job
//     there.
//
// A step with --overlap holds nothing from the others and shares their
// memory too (the peer ran the --overlap --mem=1000 step at once); it is
// only refused memory beyond the job's.

// stepHold is what one step uses on one of its nodes; Shared (--overlap)
// when it holds none of it from other steps.
type stepHold struct {
	Node   string `json:"node"`
	CPUs   int    `json:"cpus,omitempty"`
	Memory int64  `json:"memory,omitempty"`
	GPUs   []int  `json:"gpus,omitempty"`
	Shared bool   `json:"shared,omitempty"`
	// Ended: the step's tasks there ended (its node said so) though srun
	// has not reported the step's end yet.
	Ended bool `json:"ended,omitempty"`
}

// releaseHold lets go of what step s holds on node once its tasks ended
// there (the node daemon's step usage event), so that a step whose srun
// died before reporting its end does not keep later steps waiting.
func (s *stepRecord) releaseHold(node string) {
	for i := range s.Holds {
		if s.Holds[i].Node == node {
			s.Holds[i].Ended = true
		}
	}
}

// stepUse is the CPUs and memory a step uses on all its nodes, which
// scontrol show step and sacct report (an --exact -n1 step: 1 CPU).
func stepUse(holds []stepHold) (int, int64) {
	cpus, mem := 0, int64(0)
	for _, h := range holds {
		cpus += h.CPUs
		mem += h.Memory
	}
	return cpus, mem
}

// heldOnNode is what a job's running steps without --overlap hold
// together on one node.
type heldOnNode struct {
	cpus   int
	memory int64
	gpus   map[int]bool
}

// stepsHeld sums what job id's running steps hold, per node. The caller
// holds c.mu.
func (c *Controller) stepsHeld(id uint32) map[string]*heldOnNode {
	out := map[string]*heldOnNode{}
	js := c.steps[id]
	if js == nil {
		return out
	}
	for _, s := range js.list {
		if !s.running() {
			continue
		}
		for _, h := range s.Holds {
			if !h.Shared && !h.Ended {
				addHold(out, h)
			}
		}
	}
	return out
}

func addHold(held map[string]*heldOnNode, h stepHold) {
	n := held[h.Node]
	if n == nil {
		n = &heldOnNode{gpus: map[int]bool{}}
		held[h.Node] = n
	}
	n.cpus += h.CPUs
	n.memory += h.Memory
	for _, g := range h.GPUs {
		n.gpus[g] = true
	}
}

// heldOn is what others hold on node (nothing for a step with --overlap,
// which shares it).
func heldOn(held map[string]*heldOnNode, node string) *heldOnNode {
	if n := held[node]; n != nil {
		return n
	}
	return &heldOnNode{gpus: map[int]bool{}}
}

// stepNeeds is the CPUs and memory a step with tasks tasks uses on node a.
func stepNeeds(a api.NodeAllocation, tasks int, req *api.StepCreateRequest) (int, int64) {
	cpus := a.CPUs
	if req.Exact {
		cpus = min(tasks*max(req.CPUsPerTask, 1), max(a.CPUs, 1))
	}
	switch {
	case req.MemPerNode > 0:
		return cpus, req.MemPerNode
	case req.MemPerCPU > 0:
		return cpus, req.MemPerCPU * int64(cpus)
	case cpus == a.CPUs:
		return cpus, a.Memory
	case a.CPUs > 0:
		return cpus, a.Memory / int64(a.CPUs) * int64(cpus)
	}
	return cpus, 0
}

// holdOn checks that what a step needs on node a is free and returns what
// it holds there: a busy refusal when others hold the CPUs, a memory
// refusal when they hold the memory.
func holdOn(a api.NodeAllocation, tasks int, gpus []int, req *api.StepCreateRequest, others *heldOnNode) (stepHold, *api.Error) {
	cpus, mem := stepNeeds(a, tasks, req)
	if !req.Overlap && cpus > a.CPUs-others.cpus {
		return stepHold{}, api.NewError(api.CodeNodesBusy)
	}
	switch {
	case mem <= 0 || a.Memory <= 0:
	case mem > a.Memory:
		return stepHold{}, api.NewError(api.CodeInvalidTaskMemory)
	case !req.Overlap && mem > a.Memory-others.memory:
		return stepHold{}, api.NewError(api.CodeNodesBusy)
	}
	return stepHold{Node: a.Node, CPUs: cpus, Memory: mem, GPUs: gpus, Shared: req.Overlap}, nil
}

// freeFirst orders candidate nodes so that those where other steps hold
// no CPUs come first (a step on fewer nodes than the job's starts where
// it can), keeping allocation order otherwise.
func freeFirst(nodes []api.NodeAllocation, held map[string]*heldOnNode) []api.NodeAllocation {
	var free, busy []api.NodeAllocation
	for _, a := range nodes {
		if heldOn(held, a.Node).cpus == 0 {
			free = append(free, a)
		} else {
			busy = append(busy, a)
		}
	}
	return append(free, busy...)
}

// freeGPUs picks want GPUs of node a that others do not hold, lowest
// first; false when fewer are free.
func freeGPUs(a api.NodeAllocation, want int, others *heldOnNode) ([]int, bool) {
	var out []int
	for _, g := range a.GPUs {
		if len(out) == want {
			break
		}
		if !others.gpus[g] {
			out = append(out, g)
		}
	}
	return out, len(out) == want
}
