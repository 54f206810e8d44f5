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

// TestAcctKilledExitCode: a running job that scancel kills keeps exit
// 0:0 in the accounting while its batch step shows the signal, as the
// Slurm 22.05 accounting peer lists it ("CANCELLED+ 0:0" over
// "CANCELLED 0:15"); scontrol still shows the job's ExitCode=0:15.
func TestAcctKilledExitCode(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	n.AutoEnd = true
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	sid := fmt.Sprint(id)
	rs := results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{sid}}})
	if e := firstErr(rs); e != "" {
		t.Fatalf("cancel: %s", e)
	}
	if got := h.waitState(sid, job.Cancelled).ExitCode.String(); got != "0:15" {
		t.Errorf("scontrol's exit code %s, want 0:15", got)
	}
	want := []string{fmt.Sprintf("%d CANCELLED 0:0 restarts=0 elapsed=0 batch:CANCELLED:0:15", id)}
	if diff := cmp.Diff(want, h.acctRuns(id, false)); diff != "" {
		t.Errorf("accounting (-want +got):\n%s", diff)
	}
}

// TestKilledByController: the end states slurmctld records before the
// job's script dies.
func TestKilledByController(t *testing.T) {
	for st, want := range map[job.State]bool{
		job.Cancelled: true, job.Timeout: true, job.Preempted: true, job.Deadline: true,
		job.Completed: false, job.Failed: false, job.OutOfMemory: false, job.NodeFail: false,
	} {
		if got := killedByController(st); got != want {
			t.Errorf("%s: %v, want %v", st, got, want)
		}
	}
}

// TestAcctStepTRES: with gres/gpu tracked, the accounting keeps an srun
// step's TRES with the job's memory on its nodes and its GPUs, the batch
// step's with what the job holds on its first node and no billing, and
// the job's request with its GPUs, as the accounting peer lists a
// --gres=gpu:2 job ("cpu=1,gres/gpu=2,mem=1G,node=1" for 14.batch and
// 14.0, ReqTRES billing=1,cpu=1,gres/gpu=2,mem=1G,node=1).
func TestAcctStepTRES(t *testing.T) {
	h := newHarness(t)
	appendConf(t, h, "AccountingStorageTRES=gres/gpu\n")
	h.restart()
	h.stepNode("n01")
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) {
		r.NTasks, r.GRES = 2, []resource.GRES{{Name: "gpu", Count: 2}}
	}))
	h.cycle()
	h.waitState(fmt.Sprint(id), job.Running)
	if err := h.call(alice, api.PathStepCreate, stepReq(id, func(r *api.StepCreateRequest) { r.NTasks = 2 }), nil); err != nil {
		t.Fatalf("create step: %v", err)
	}
	var out api.AcctResponse
	if err := h.call(0, api.PathAccounting, api.AcctQuery{JobIDs: []string{fmt.Sprint(id)}}, &out); err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, j := range out.Jobs {
		got = append(got, "req "+j.ReqTRES)
		for _, s := range j.Steps {
			got = append(got, s.StepID+" "+s.AllocTRES)
		}
	}
	want := []string{"req cpu=2,mem=200M,node=1,billing=2,gres/gpu=2", "batch cpu=2,mem=200M,node=1,gres/gpu=2",
		"0 cpu=2,mem=200M,node=1,gres/gpu=2"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("TRES (-want +got):\n%s", diff)
	}
}
