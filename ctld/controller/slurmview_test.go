package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// jobView is the part of a job record that slurmctld derives rather than
// stores, as scontrol show job prints it.
type jobView struct {
	MemoryPerCPU, MinMemory                                int64
	EligibleTime, AccrueTime, StartTime, EndTime, LastEval int64
}

func viewOf(j api.Job) jobView {
	return jobView{j.MemoryPerCPU, j.MinMemory, j.EligibleTime, j.AccrueTime, j.StartTime, j.EndTime, j.LastSchedEval}
}

// TestSlurmViewOfPendingJobs: the values the peer shows for a held job, a
// --begin job, a job with its own memory and a held job cancelled.
func TestSlurmViewOfPendingJobs(t *testing.T) {
	h := newHarness(t)
	now := h.clock.Now().Unix()
	begin := h.clock.Now().Add(time.Hour)
	held := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	later := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Begin = &begin }))
	mem := int64(3000)
	own := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold, r.MemPerCPU = true, &mem }))
	gone := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	heldLater := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold, r.Begin = true, &begin }))
	h.clock.Advance(5 * time.Second)
	if rs := results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(gone)}}}); firstErr(rs) != "" {
		t.Fatalf("cancel: %+v", rs)
	}
	tests := map[string]struct {
		id   uint32
		want jobView
	}{
		"held job: DefMemPerCPU, not yet eligible, evaluated at submit": {id: held,
			want: jobView{MemoryPerCPU: 100, MinMemory: 100, LastEval: now}},
		"begin job: eligible and accruing from its begin time": {id: later,
			want: jobView{MemoryPerCPU: 100, MinMemory: 100, EligibleTime: begin.Unix(), AccrueTime: begin.Unix(), LastEval: now}},
		"held begin job: eligible and expected at its begin time, not accruing": {id: heldLater,
			want: jobView{MemoryPerCPU: 100, MinMemory: 100, EligibleTime: begin.Unix(), StartTime: begin.Unix(),
				EndTime: begin.Unix() + 3600, LastEval: now}},
		"own memory per CPU wins over the default": {id: own,
			want: jobView{MemoryPerCPU: 3000, MinMemory: 3000, LastEval: now}},
		"cancelled before it started: starts and ends at the cancel": {id: gone,
			want: jobView{MemoryPerCPU: 100, MinMemory: 100, StartTime: now + 5, EndTime: now + 5, LastEval: now}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := viewOf(h.job(fmt.Sprint(tc.id)))
			switch tc.id {
			case later:
				if got.StartTime < begin.Unix() || got.EndTime != got.StartTime+3600 {
					t.Errorf("begin job expected from %d to %d, want from the begin time %d for an hour",
						got.StartTime, got.EndTime, begin.Unix())
				}
				got.StartTime, got.EndTime = 0, 0 // the estimate's business
			case gone:
				// Loam records the end as its eligible time (Slurm: Unknown).
				got.EligibleTime, got.AccrueTime = 0, 0
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestSlurmViewOfRunningJob: a running job ends at start plus limit, and
// a node whose GPUs are all taken but whose CPUs are not is MIXED, as in
// Slurm's cons_tres.
func TestSlurmViewOfRunningJob(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) {
		r.GRES = []resource.GRES{{Name: "gpu", Count: 4}}
		r.NodeList = "n01"
	}))
	h.cycle()
	j := h.waitState(fmt.Sprint(id), job.Running)
	if want := j.StartTime + 3600; j.EndTime != want || j.LastSchedEval != j.StartTime {
		t.Errorf("running job EndTime %d LastSchedEval %d, want %d and the start %d", j.EndTime, j.LastSchedEval, want, j.StartTime)
	}
	var nodes api.NodesResponse
	if err := h.call(0, api.PathNodes, api.NodeQuery{Nodes: []string{"n01"}}, &nodes); err != nil {
		t.Fatal(err)
	}
	if len(nodes.Nodes) != 1 || nodes.Nodes[0].State != api.NodeMixed {
		t.Errorf("node with all GPUs and 1 of 8 CPUs taken: %+v, want MIXED", nodes.Nodes)
	}
}

// TestRefusalsSlurmMakesToo: where Slurm refuses a submission too, the
// detail sbatch prints before "Batch job submission failed" is Slurm's
// own line or none, so the output is Slurm's byte for byte.
func TestRefusalsSlurmMakesToo(t *testing.T) {
	h := newHarness(t)
	tests := map[string]struct {
		mod        func(*job.Request)
		wantCode   api.Code
		wantDetail string
	}{
		"unknown partition": {mod: func(r *job.Request) { r.Partitions = []string{"normal", "nosuch"} },
			wantCode: api.CodeInvalidPartitionName, wantDetail: "invalid partition specified: nosuch"},
		"array syntax":       {mod: func(r *job.Request) { r.Array = "abc" }, wantCode: api.CodeInvalidArray},
		"dependency syntax":  {mod: func(r *job.Request) { r.Dependency = "foo:1" }, wantCode: api.CodeDependency},
		"unknown node":       {mod: func(r *job.Request) { r.NodeList = "n01,nosuch" }, wantCode: api.CodeInvalidNodeName},
		"bad node list":      {mod: func(r *job.Request) { r.NodeList = "n[01-" }, wantCode: api.CodeInvalidNodeName},
		"unknown node in -x": {mod: func(r *job.Request) { r.Exclude = "nosuch" }, wantCode: api.CodeInvalidNodeName},
		"unknown feature": {mod: func(r *job.Request) { r.Constraint, r.Features = "nosuch", []string{"nosuch"} },
			wantCode: api.CodeInvalidFeature},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := h.submit(alice, simpleJob(tc.mod))
			if err == nil {
				t.Fatal("accepted")
			}
			if err.Code != tc.wantCode || err.Detail != tc.wantDetail {
				t.Errorf("got %s %q, want %s %q", err.Code, err.Detail, tc.wantCode, tc.wantDetail)
			}
		})
	}
}

// TestSlurmViewOfShapes: tasks, CPUs and memory of pending jobs as the
// peer's scontrol shows them (TRES=, NumTasks=, MinMemoryCPU=).
func TestSlurmViewOfShapes(t *testing.T) {
	h := newHarness(t)
	zero, perGPU := int64(0), int64(1000)
	tests := map[string]struct {
		mod                 func(*job.Request)
		wantTasks, wantCPUs int
		wantMemPerCPU       int64
		wantTRES            string
	}{
		"-N 2 without -n: a task per node": {mod: func(r *job.Request) { r.MinNodes, r.MaxNodes = 2, 2 },
			wantTasks: 2, wantCPUs: 2, wantMemPerCPU: 100, wantTRES: "cpu=2,mem=200M,node=2,billing=2"},
		"--mem=0: the smallest node's memory": {mod: func(r *job.Request) { r.MemPerNode = &zero },
			wantTasks: 1, wantCPUs: 1, wantTRES: "cpu=1,mem=16000M,node=1,billing=1"},
		"--mem-per-gpu: per GPU, DefMemPerCPU still shown": {
			mod:       func(r *job.Request) { r.MemPerGPU, r.GPUs = &perGPU, []resource.GRES{{Name: "gpu", Count: 2}} },
			wantTasks: 1, wantCPUs: 1, wantMemPerCPU: 100, wantTRES: "cpu=1,mem=2000M,node=1,billing=1"}, // gres/gpu untracked, as on the peer,
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true; tc.mod(r) }))
			j := h.job(fmt.Sprint(id))
			if j.Tasks != tc.wantTasks || j.CPUs != tc.wantCPUs || j.MemoryPerCPU != tc.wantMemPerCPU || j.TRESReqStr != tc.wantTRES {
				t.Errorf("tasks %d cpus %d mem/cpu %d TRES %s, want %d %d %d %s", j.Tasks, j.CPUs, j.MemoryPerCPU, j.TRESReqStr,
					tc.wantTasks, tc.wantCPUs, tc.wantMemPerCPU, tc.wantTRES)
			}
		})
	}
}
