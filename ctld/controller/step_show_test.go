package controller

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// TestStepShowRequest derives what scontrol show step prints of a step
// from its request, for the steps the peer printed
// (tools/command/testdata/peer/scontrol-show-step.txt).
func TestStepShowRequest(t *testing.T) {
	gpuJob := &jobRecord{ID: 11461, Req: &job.Request{GPUsPerNode: []resource.GRES{{Name: "gpu", Count: 2}}},
		St: jobStatus{Alloc: []api.NodeAllocation{{Node: "gpu001", CPUs: 2, Memory: 2048, GPUs: []int{0, 1}},
			{Node: "gpu002", CPUs: 2, Memory: 2048, GPUs: []int{0, 1}}}}}
	twoNodes := api.StepLayout{Tasks: 4, Nodes: []api.StepNode{{Node: "gpu001", CPUs: 2, GPUs: []int{0, 1}, TaskIDs: []int{0, 1}},
		{Node: "gpu002", CPUs: 2, GPUs: []int{0, 1}, TaskIDs: []int{2, 3}}}}
	cpuJob := &jobRecord{ID: 11455, Req: &job.Request{}, St: jobStatus{Alloc: []api.NodeAllocation{{Node: "cpu001", CPUs: 2, Memory: 2048}}}}
	tests := map[string]struct {
		r        *jobRecord
		in       api.StepCreateRequest
		l        api.StepLayout
		want     stepShow
		wantCPUs int
		wantTRES string
	}{
		"block, GPUs per task, -c1 (11461.0)": {r: gpuJob, l: twoNodes,
			in: api.StepCreateRequest{NTasks: 4, CPUsPerTask: 1, GPUsPerTask: 1, GPUsPerNode: 2, Distribution: "block",
				SubmitHost: "vm", SrunPid: 15951},
			want: stepShow{Dist: "Block", SrunHost: "vm", SrunPid: 15951, Memory: 4096, GPUs: 4, TRESBind: "gpu:per_task:1",
				TRESPerStep: "cpu:4", TRESPerNode: "gres:gpu:2", TRESPerTask: "cpu:1,gres:gpu:1"},
			wantCPUs: 4, wantTRES: "cpu=4,mem=4G,node=2"},
		"multi-prog, two tasks on two nodes (11495.0)": {r: gpuJob,
			l:        api.StepLayout{Tasks: 2, Nodes: []api.StepNode{{Node: "gpu001", CPUs: 2, TaskIDs: []int{0}}, {Node: "gpu002", CPUs: 2, TaskIDs: []int{1}}}},
			in:       api.StepCreateRequest{NTasks: 2, GPUsPerNode: 2, SubmitHost: "vm", SrunPid: 3575},
			want:     stepShow{Dist: "Cyclic", SrunHost: "vm", SrunPid: 3575, Memory: 4096, TRESPerStep: "cpu:2", TRESPerNode: "gres:gpu:2"},
			wantCPUs: 4, wantTRES: "cpu=4,mem=4G,node=2"},
		"no GPUs anywhere (11455.0)": {r: cpuJob,
			l:        api.StepLayout{Tasks: 1, Nodes: []api.StepNode{{Node: "cpu001", CPUs: 2, TaskIDs: []int{0}}}},
			in:       api.StepCreateRequest{NTasks: 1, CPUsPerTask: 3, SubmitHost: "vm", SrunPid: 11506},
			want:     stepShow{Dist: "Cyclic", SrunHost: "vm", SrunPid: 11506, Memory: 2048},
			wantCPUs: 2, wantTRES: "cpu=2,mem=2G,node=1"},
		"a step without GPUs takes the job's": {r: gpuJob, l: twoNodes, in: api.StepCreateRequest{Distribution: "cyclic:block"},
			want:     stepShow{Dist: "Cyclic:Block", Memory: 4096, GPUs: 4, TRESPerNode: "gres:gpu:2"},
			wantCPUs: 4, wantTRES: "cpu=4,mem=4G,node=2"},
		"overcommit counts nodes": {r: gpuJob, l: twoNodes, in: api.StepCreateRequest{Overcommit: true, GPUs: 2, GPUBind: "closest", Distribution: "plane=2"},
			want:     stepShow{Dist: "Plane", Memory: 4096, GPUs: 4, TRESBind: "gpu:closest", TRESPerStep: "cpu:2,gres:gpu:2"},
			wantCPUs: 4, wantTRES: "cpu=4,mem=4G,node=2"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, cpus := newStepShow(tc.r, &tc.in, &tc.l)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("show (-want +got):\n%s", diff)
			}
			if cpus != tc.wantCPUs {
				t.Errorf("cpus %d, want %d", cpus, tc.wantCPUs)
			}
			// The peer tracks no GRES (AccountingStorageTRES unset).
			if tres := stepTRESAlloc(cpus, &got, len(tc.l.Nodes), gpuTRESRule{}, ""); tres != tc.wantTRES {
				t.Errorf("TRES %q, want %q", tres, tc.wantTRES)
			}
			tracked := gpuTRESRule{total: true, types: []string{"h100"}}
			want := tc.wantTRES
			if got.GPUs > 0 {
				want += ",gres/gpu=" + fmt.Sprint(got.GPUs) + ",gres/gpu:h100=" + fmt.Sprint(got.GPUs)
			}
			if tres := stepTRESAlloc(cpus, &got, len(tc.l.Nodes), tracked, "h100"); tres != want {
				t.Errorf("TRES with gres/gpu,gres/gpu:h100 tracked %q, want %q", tres, want)
			}
		})
	}
}

// checkShown checks what the controller lists of job id's first step for
// scontrol show step, and that a query naming an unknown job fails.
func (h *harness) checkShown(id uint32) {
	h.t.Helper()
	var out api.StepsResponse
	if err := h.call(0, api.PathSteps, api.StepQuery{JobIDs: []uint32{id}, Known: true}, &out); err != nil {
		h.t.Fatal(err)
	}
	if len(out.Steps) != 2 {
		h.t.Fatalf("steps of job %d: %+v", id, out.Steps)
	}
	got, batch := out.Steps[0], out.Steps[1]
	if got.Dist != "Block" || got.CPUs != 4 || got.TRES != "cpu=4,mem=400M,node=1" || batch.CPUs != 0 || batch.TRES != "" {
		h.t.Errorf("step 0 %+v\nbatch %+v", got, batch)
	}
	if err := h.call(0, api.PathSteps, api.StepQuery{JobIDs: []uint32{id + 100}, Known: true}, &out); err == nil || err.Code != api.CodeInvalidJobID {
		h.t.Errorf("steps of an unknown job: %v", err)
	}
}
