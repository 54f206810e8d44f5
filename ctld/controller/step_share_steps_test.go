package controller

import (
	"errors"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// TestPlanStepSharing: what a step may take when the job's other steps
// hold part of the allocation, as the peer's srun found it (job of two
// nodes, 2 CPUs and 2048 MB each; "busy" is "Requested nodes are busy",
// srun asks again).
func TestPlanStepSharing(t *testing.T) {
	two := withMem([]api.NodeAllocation{{Node: "n01", CPUs: 2, GPUs: []int{0, 1}}, {Node: "n02", CPUs: 2, GPUs: []int{2, 3}}}, 2048)
	whole := func(node string, gpus ...int) stepHold {
		return stepHold{Node: node, CPUs: 2, Memory: 2048, GPUs: gpus}
	}
	tests := map[string]struct {
		held     []stepHold
		req      api.StepCreateRequest
		wantIDs  map[string][]int // node: task ids
		wantGPUs map[string][]int
		wantHold []stepHold
		wantCode api.Code
	}{
		"a step holds every CPU, the memory and GPUs of its nodes": {
			req:      api.StepCreateRequest{NTasks: 2},
			wantIDs:  map[string][]int{"n01": {0}, "n02": {1}},
			wantGPUs: map[string][]int{"n01": {0, 1}, "n02": {2, 3}},
			wantHold: []stepHold{whole("n01", 0, 1), whole("n02", 2, 3)},
		},
		"a second step on held CPUs is busy": {
			held: []stepHold{whole("n01", 0, 1), whole("n02", 2, 3)}, req: api.StepCreateRequest{NTasks: 2},
			wantCode: api.CodeNodesBusy,
		},
		"-n1 runs on the node no step holds": {
			held: []stepHold{whole("n01", 0, 1)}, req: api.StepCreateRequest{NTasks: 1, Nodes: 1},
			wantIDs: map[string][]int{"n02": {0}}, wantGPUs: map[string][]int{"n02": {2, 3}},
			wantHold: []stepHold{whole("n02", 2, 3)},
		},
		// Round 14: the peer's srun --exact --overlap --mem=1000 beside a
		// step holding 1500 of the job's 2000 MB ran at once.
		"--overlap shares the CPUs and the memory the others hold": {
			held: []stepHold{whole("n01", 0, 1), whole("n02", 2, 3)}, req: api.StepCreateRequest{NTasks: 2, Overlap: true},
			wantIDs:  map[string][]int{"n01": {0}, "n02": {1}},
			wantGPUs: map[string][]int{"n01": {0, 1}, "n02": {2, 3}},
			wantHold: []stepHold{{Node: "n01", CPUs: 2, Memory: 2048, GPUs: []int{0, 1}, Shared: true}, {Node: "n02", CPUs: 2, Memory: 2048, GPUs: []int{2, 3}, Shared: true}},
		},
		"--overlap with more memory than the job's: refused": {
			req: api.StepCreateRequest{NTasks: 1, NodeList: "n01", Overlap: true, MemPerNode: 3000}, wantCode: api.CodeInvalidTaskMemory,
		},
		"--overlap next to --overlap steps: nothing is held": {
			held: []stepHold{{Node: "n01"}, {Node: "n02"}}, req: api.StepCreateRequest{NTasks: 2, Overlap: true},
			wantIDs:  map[string][]int{"n01": {0}, "n02": {1}},
			wantGPUs: map[string][]int{"n01": {0, 1}, "n02": {2, 3}},
			wantHold: []stepHold{{Node: "n01", CPUs: 2, Memory: 2048, GPUs: []int{0, 1}, Shared: true}, {Node: "n02", CPUs: 2, Memory: 2048, GPUs: []int{2, 3}, Shared: true}},
		},
		"--exact steps hold one CPU and its memory each": {
			held: []stepHold{{Node: "n01", CPUs: 1, Memory: 1024}}, req: api.StepCreateRequest{NTasks: 1, NodeList: "n01", Exact: true, GPUs: 1},
			wantIDs: map[string][]int{"n01": {0}}, wantGPUs: map[string][]int{"n01": {0}},
			wantHold: []stepHold{{Node: "n01", CPUs: 1, Memory: 1024, GPUs: []int{0}}},
		},
		// Round 14: the peer's srun --exact --mem=1000 beside a step
		// holding 1500 of 2000 MB retried ("Requested nodes are busy").
		"--mem holds that much: a CPU-free step waits for the memory": {
			held: []stepHold{{Node: "n01", CPUs: 1, Memory: 2000}}, req: api.StepCreateRequest{NTasks: 1, NodeList: "n01", Exact: true},
			wantCode: api.CodeNodesBusy,
		},
		"more memory than the job's: refused, not busy": {
			req: api.StepCreateRequest{NTasks: 1, NodeList: "n01", Exact: true, MemPerNode: 3000}, wantCode: api.CodeInvalidTaskMemory,
		},
		"a held GPU: the next free one": {
			held: []stepHold{{Node: "n01", CPUs: 1, Memory: 100, GPUs: []int{0}}}, req: api.StepCreateRequest{NTasks: 1, NodeList: "n01", Exact: true, GPUs: 1, MemPerNode: 100},
			wantIDs: map[string][]int{"n01": {0}}, wantGPUs: map[string][]int{"n01": {1}},
			wantHold: []stepHold{{Node: "n01", CPUs: 1, Memory: 100, GPUs: []int{1}}},
		},
		"every GPU held: busy": {
			held: []stepHold{{Node: "n01", CPUs: 1, Memory: 100, GPUs: []int{0, 1}}}, req: api.StepCreateRequest{NTasks: 1, NodeList: "n01", Exact: true, GPUs: 1, MemPerNode: 100},
			wantCode: api.CodeNodesBusy,
		},
		"--overlap takes held GPUs": {
			held: []stepHold{{Node: "n01", CPUs: 1, Memory: 100, GPUs: []int{0, 1}}}, req: api.StepCreateRequest{NTasks: 1, NodeList: "n01", Exact: true, GPUs: 1, MemPerNode: 100, Overlap: true},
			wantIDs: map[string][]int{"n01": {0}}, wantGPUs: map[string][]int{"n01": {0}},
			wantHold: []stepHold{{Node: "n01", CPUs: 1, Memory: 100, GPUs: []int{0}, Shared: true}},
		},
		"more GPUs than the job's: refused, not busy": {
			req: api.StepCreateRequest{NTasks: 1, Nodes: 1, GPUs: 3}, wantCode: api.CodeInvalidGRES,
		},
		"more GPUs per task than the node's: refused": {
			req: api.StepCreateRequest{NTasks: 1, Nodes: 1, GPUsPerTask: 3, GPUsPerNode: 2}, wantCode: api.CodeInvalidGRES,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			held := map[string]*heldOnNode{}
			for _, h := range tc.held {
				addHold(held, h)
			}
			got, holds, aerr := planStep(two, &tc.req, held)
			if tc.wantCode != "" {
				if aerr == nil || aerr.Code != tc.wantCode {
					t.Fatalf("planStep error %v, want code %s (layout %+v)", aerr, tc.wantCode, got)
				}
				return
			}
			if aerr != nil {
				t.Fatal(aerr)
			}
			ids, gpus := map[string][]int{}, map[string][]int{}
			for _, n := range got.Nodes {
				ids[n.Node], gpus[n.Node] = n.TaskIDs, n.GPUs
			}
			if diff := cmp.Diff(tc.wantIDs, ids); diff != "" {
				t.Errorf("task ids (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantGPUs, gpus); diff != "" {
				t.Errorf("GPUs (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantHold, holds); diff != "" {
				t.Errorf("holds (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPlanStepLayoutSteps: -m plane, -m arbitrary, -r and -w as the
// peer's srun -l laid tasks out in a job of 3+1 CPUs on two nodes.
func TestPlanStepLayoutSteps(t *testing.T) {
	alloc := []api.NodeAllocation{{Node: "n01", CPUs: 3}, {Node: "n02", CPUs: 1}}
	tests := map[string]struct {
		req      api.StepCreateRequest
		want     [][]int // task ids per node of the step, in its order
		wantList string
		wantCode api.Code
	}{
		"-n4 -m plane=2: 0,1,3 and 2": {req: api.StepCreateRequest{NTasks: 4, Distribution: "plane=2"},
			want: [][]int{{0, 1, 3}, {2}}, wantList: "n[01-02]"},
		"-n3 -m plane=2: 0,1 and 2": {req: api.StepCreateRequest{NTasks: 3, Distribution: "plane=2"},
			want: [][]int{{0, 1}, {2}}, wantList: "n[01-02]"},
		"-n4 -m cyclic:block: 0,2,3 and 1": {req: api.StepCreateRequest{NTasks: 4, Distribution: "cyclic:block"},
			want: [][]int{{0, 2, 3}, {1}}, wantList: "n[01-02]"},
		"-n4 -m block:cyclic: 0,1,2 and 3": {req: api.StepCreateRequest{NTasks: 4, Distribution: "block:cyclic"},
			want: [][]int{{0, 1, 2}, {3}}, wantList: "n[01-02]"},
		"-w n02 keeps allocation order": {req: api.StepCreateRequest{NTasks: 4, NodeList: "n02", Nodes: 2},
			want: [][]int{{0, 1, 2}, {3}}, wantList: "n[01-02]"},
		"-r1 -n1 starts at the second node": {req: api.StepCreateRequest{NTasks: 1, Nodes: 1, Relative: 1},
			want: [][]int{{0}}, wantList: "n02"},
		"-r1 -N1 -n4 has too few CPUs there": {req: api.StepCreateRequest{NTasks: 4, Nodes: 1, Relative: 1},
			wantCode: api.CodeTooManyCPUs},
		"-m arbitrary follows the host file": {req: api.StepCreateRequest{Distribution: "arbitrary", TaskNodes: []string{"n02", "n01", "n02", "n02"}},
			want: [][]int{{1}, {0, 2, 3}}, wantList: "n[01-02]"},
		"-m arbitrary -n3 takes the first three": {req: api.StepCreateRequest{NTasks: 3, Distribution: "arbitrary", TaskNodes: []string{"n02", "n01", "n02", "n02"}},
			want: [][]int{{1}, {0, 2}}, wantList: "n[01-02]"},
		"-m arbitrary on one node": {req: api.StepCreateRequest{Distribution: "arbitrary", TaskNodes: []string{"n02", "n02"}},
			want: [][]int{{0, 1}}, wantList: "n02"},
		"-m arbitrary outside the allocation": {req: api.StepCreateRequest{Distribution: "arbitrary", TaskNodes: []string{"n09"}},
			wantCode: api.CodeNodeConfigUnavailable},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, _, aerr := planStep(alloc, &tc.req, nil)
			if tc.wantCode != "" {
				if aerr == nil || aerr.Code != tc.wantCode {
					t.Fatalf("planStep error %v, want code %s (layout %+v)", aerr, tc.wantCode, got)
				}
				return
			}
			if aerr != nil {
				t.Fatal(aerr)
			}
			var ids [][]int
			for _, n := range got.Nodes {
				ids = append(ids, n.TaskIDs)
			}
			if diff := cmp.Diff(tc.want, ids); diff != "" {
				t.Errorf("task ids (-want +got):\n%s", diff)
			}
			if got.NodeList != tc.wantList {
				t.Errorf("node list %q, want %q", got.NodeList, tc.wantList)
			}
		})
	}
}

// TestExplainStepGRES: the line the peer's srun printed before "Invalid
// generic resource (gres) specification".
func TestExplainStepGRES(t *testing.T) {
	gpus := func(n int64) []resource.GRES { return []resource.GRES{{Name: "gpu", Count: n}} }
	tests := map[string]struct {
		job  job.Request
		step api.StepCreateRequest
		want string
	}{
		"--gpus over the job's --gpus": {job: job.Request{GPUs: gpus(2)}, step: api.StepCreateRequest{GPUs: 3},
			want: "Step requested gres=gpu:3 is more than the job's gres=gpu:2"},
		"--gres over the job's --gpus-per-node": {job: job.Request{GPUsPerNode: gpus(2)}, step: api.StepCreateRequest{GPUsPerNode: 3},
			want: "Step requested gres_per_node=gpu:3 is more than the job's gres_per_node=gpu:2"},
		"--gpus over the job's --gpus-per-node: no line": {job: job.Request{GPUsPerNode: gpus(2)}, step: api.StepCreateRequest{GPUs: 5, GPUsPerNode: 2}},
		"--gpus-per-task: no line":                       {job: job.Request{GPUsPerNode: gpus(2)}, step: api.StepCreateRequest{GPUsPerTask: 3, GPUsPerNode: 2}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := explainStepGRES(api.NewError(api.CodeInvalidGRES), &tc.job, &tc.step)
			if got.Detail != tc.want {
				t.Errorf("detail %q, want %q", got.Detail, tc.want)
			}
		})
	}
}

// TestStepsWaitForHeldNodes: a second step of a job waits while the first
// holds its CPUs, also after a restart of the controller, and runs once
// the first has ended.
func TestStepsWaitForHeldNodes(t *testing.T) {
	h := newHarness(t)
	sn := h.stepNode("n01")
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	h.waitState(fmt.Sprint(id), job.Running)
	held := func(r *api.StepCreateRequest) { r.Overlap = false }
	var resp api.StepCreateResponse
	if err := h.call(alice, api.PathStepCreate, stepReq(id, held), &resp); err != nil || resp.StepID != 0 {
		t.Fatalf("first step: %+v, %v", resp, err)
	}
	if err := h.call(alice, api.PathStepCreate, stepReq(id, held), &resp); !hasCode(err, api.CodeNodesBusy) {
		t.Fatalf("second step while the first runs: %v, want %s", err, api.CodeNodesBusy)
	}
	h.restart()
	sn.register()
	if err := h.call(alice, api.PathStepCreate, stepReq(id, held), &resp); !hasCode(err, api.CodeNodesBusy) {
		t.Fatalf("second step after a restart: %v, want %s", err, api.CodeNodesBusy)
	}
	if err := h.call(alice, api.PathStepComplete, api.StepCompleteRequest{JobID: id, StepID: 0, State: job.Completed}, nil); err != nil {
		t.Fatal(err)
	}
	if err := h.call(alice, api.PathStepCreate, stepReq(id, held), &resp); err != nil || resp.StepID != 1 {
		t.Fatalf("second step once the first ended: %+v, %v", resp, err)
	}

	// Step 1's srun dies without reporting; its node's usage event says
	// its tasks ended there, which lets step 2 start.
	if err := h.call(alice, api.PathStepCreate, stepReq(id, held), &resp); !hasCode(err, api.CodeNodesBusy) {
		t.Fatalf("third step while the second runs: %v, want %s", err, api.CodeNodesBusy)
	}
	h.sendEvents("n01", stepUsageEvent(1<<40, id, 1, api.NodeUsage{Node: "n01"}))
	if err := h.call(alice, api.PathStepCreate, stepReq(id, held), &resp); err != nil || resp.StepID != 2 {
		t.Fatalf("third step once the second's node said it ended: %+v, %v", resp, err)
	}
}

func hasCode(err error, code api.Code) bool {
	var ae *api.Error
	return errors.As(err, &ae) && ae.Code == code
}
