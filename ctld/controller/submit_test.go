package controller

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

func TestSubmitDefaults(t *testing.T) {
	h := newHarness(t)
	id := h.mustSubmit(54321, simpleJob())
	j := h.job(fmt.Sprint(id))
	want := api.Job{JobID: id, Name: "wrap", UserID: 54321, GroupID: 54321, UserName: "54321", Partition: "normal",
		JobState: job.Pending, StateReason: job.ReasonNone, TimeLimit: 3600, SubmitTime: h.clock.Now().Unix(),
		EligibleTime: h.clock.Now().Unix(), AccrueTime: h.clock.Now().Unix(), MinCPUsNode: 1, BatchFlag: true, WorkDir: "/tmp", StdOut: "/tmp/slurm-%j.out",
		StdErr: "/tmp/slurm-%j.out", StdOutDefault: true, StdErrDefault: true, Requeue: true, Tasks: 1, CPUsPerTask: 1, NodeCount: 1, CPUs: 1,
		TRESReqStr: "cpu=1,mem=100M,node=1,billing=1", SubmitDir: "/tmp", QueueClass: "normal", GroupName: "54321",
		AllocNode: "localhost", // the harness's 127.0.0.1 (alloc_node.go)
		// DefMemPerCPU=100 is the job's memory per CPU from submit on, as slurmctld sets it.
		MemoryPerCPU: 100, MinMemory: 100, LastSchedEval: h.clock.Now().Unix()}
	if diff := cmp.Diff(want, j); diff != "" {
		t.Errorf("job record (-want +got):\n%s", diff)
	}
	if id2 := h.mustSubmit(54321, simpleJob()); id2 != id+1 {
		t.Errorf("second job id %d, want %d", id2, id+1)
	}
}

// TestSubmitRefusals: what Slurm refuses at submit is refused with Slurm's
// text, and the refused submission uses up a job id as in Slurm.
func TestSubmitRefusals(t *testing.T) {
	tests := map[string]struct {
		req      job.Request
		wantCode api.Code
		wantMsg  string
	}{
		"unknown partition": {req: simpleJob(func(r *job.Request) { r.Partitions = []string{"nosuch"} }),
			wantCode: api.CodeInvalidPartitionName, wantMsg: "Invalid partition name specified"},
		"dependency on a job that never existed": {req: simpleJob(func(r *job.Request) { r.Dependency = "afterok:999" }),
			wantCode: api.CodeDependency, wantMsg: "Job dependency problem"},
		"dependency syntax": {req: simpleJob(func(r *job.Request) { r.Dependency = "afterok:abc" }),
			wantCode: api.CodeDependency, wantMsg: "Job dependency problem"},
		"array over MaxArraySize": {req: simpleJob(func(r *job.Request) { r.Array = "0-5000" }),
			wantCode: api.CodeInvalidArray, wantMsg: "Invalid job array specification"},
		"more GPUs per node than any node has": {req: simpleJob(func(r *job.Request) { r.GRES = []resource.GRES{{Name: "gpu", Count: 9}} }),
			wantCode: api.CodeNodeConfigUnavailable, wantMsg: "Requested node configuration is not available"},
		"unknown gres": {req: simpleJob(func(r *job.Request) { r.GRES = []resource.GRES{{Name: "fpga", Count: 1}} }),
			wantCode: api.CodeInvalidGRES, wantMsg: "Invalid generic resource (gres) specification"},
		"unknown node in -w": {req: simpleJob(func(r *job.Request) { r.NodeList = "n09" }),
			wantCode: api.CodeInvalidNodeName, wantMsg: "Invalid node name specified"},
		"no script": {req: simpleJob(func(r *job.Request) { r.Script = "" }),
			wantCode: api.CodeScriptMissing, wantMsg: "Job script not specified"},
		"no working directory": {req: simpleJob(func(r *job.Request) { r.WorkDir = "" }),
			wantCode: api.CodeMissingWorkDir},
		"deadline passed": {req: simpleJob(func(r *job.Request) { d := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC); r.Deadline = &d }),
			wantCode: api.CodeInvalidTimeLimit, wantMsg: "Requested time limit is invalid (missing or exceeds some limit)"},
		"negative nice as a user": {req: simpleJob(func(r *job.Request) { n := -5; r.Nice = &n }),
			wantCode: api.CodeInvalidNice, wantMsg: "Invalid --nice value"},
		"an expand dependency": {req: simpleJob(func(r *job.Request) { r.Dependency = "afterok:1,EXPAND:abc" }),
			wantCode: api.CodeNotSupported, wantMsg: "Requested operation not supported on this system"},
		"a bad condition before an expand dependency": {req: simpleJob(func(r *job.Request) { r.Dependency = "xexpand:1?expand:1" }),
			wantCode: api.CodeDependency, wantMsg: "Job dependency problem"},
		// The peer (JobAcctGatherFrequency unset: 30) refuses --acctg-freq=31,
		// 0, task=60 and -2 for a job with a memory limit.
		"task sampling less often than the cluster's": {req: simpleJob(func(r *job.Request) { r.AcctgFreq = "task=60" }),
			wantCode: api.CodeInvalidAcctFreq, wantMsg: "Invalid accounting frequency requested"},
		"task sampling off": {req: simpleJob(func(r *job.Request) { r.AcctgFreq = "0,energy=5" }),
			wantCode: api.CodeInvalidAcctFreq, wantMsg: "Invalid accounting frequency requested"},
		"--uid as a user": {req: simpleJob(func(r *job.Request) { r.RunAsUser = "root" }),
			wantCode: api.CodeAccessDenied},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			_, err := h.submit(54321, tc.req)
			if err == nil || err.Code != tc.wantCode {
				t.Fatalf("submit error %v, want code %s", err, tc.wantCode)
			}
			if tc.wantMsg != "" && err.Message != tc.wantMsg {
				t.Errorf("message %q, want %q", err.Message, tc.wantMsg)
			}
			// A refused submission uses one id up, but a bad --array, an
			// unknown partition, node or GRES (and the account checks) are
			// refused before any id is given (submit_burn_leftover_test.go).
			want := uint32(2)
			if keepsID(err) {
				want = 1
			}
			if id := h.mustSubmit(54321, simpleJob()); id != want {
				t.Errorf("next job id %d, want %d", id, want)
			}
		})
	}
}

func TestMaxJobCount(t *testing.T) {
	h := newHarness(t) // MaxJobCount=50
	h.mustSubmit(54321, simpleJob(func(r *job.Request) { r.Array = "0-44" }))
	for i := 0; i < 5; i++ {
		h.mustSubmit(54321, simpleJob())
	}
	_, err := h.submit(54321, simpleJob())
	if err == nil || err.Code != api.CodeAgain || !err.Retry {
		t.Fatalf("51st job: %v, want EAGAIN with retry", err)
	}
}

func TestTestOnly(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	var out api.SubmitResponse
	if err := h.call(54321, api.PathSubmit, api.SubmitRequest{Job: simpleJob(), TestOnly: true}, &out); err != nil {
		t.Fatal(err)
	}
	if out.TestOnly == nil || out.TestOnly.Nodes != "n01" || out.TestOnly.Partition != "normal" || out.TestOnly.Processors != 1 {
		t.Fatalf("test-only answer %+v", out.TestOnly)
	}
	var list api.JobsResponse
	h.call(0, api.PathJobs, api.JobQuery{}, &list)
	if len(list.Jobs) != 0 {
		t.Errorf("--test-only created %d jobs", len(list.Jobs))
	}
	if id := h.mustSubmit(54321, simpleJob()); id != out.TestOnly.JobID+1 {
		t.Errorf("job after --test-only got id %d, want %d", id, out.TestOnly.JobID+1)
	}
}

// TestTestOnlyBegin: a job that may not start before --begin is still
// placed, and reported at its begin time, as Slurm's will-run test does.
func TestTestOnlyBegin(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	begin := h.clock.Now().Add(time.Hour)
	var out api.SubmitResponse
	req := api.SubmitRequest{Job: simpleJob(func(r *job.Request) { r.Begin = &begin }), TestOnly: true}
	if err := h.call(54321, api.PathSubmit, req, &out); err != nil {
		t.Fatal(err)
	}
	if out.TestOnly == nil || out.TestOnly.Nodes != "n01" || out.TestOnly.Processors != 1 || out.TestOnly.StartTime != begin.Unix() {
		t.Fatalf("test-only answer %+v, want n01 with 1 processor at %d", out.TestOnly, begin.Unix())
	}
}

func TestPartitionOrderAndAccount(t *testing.T) {
	h := newHarness(t)
	id := h.mustSubmit(54321, simpleJob(func(r *job.Request) { r.Partitions = []string{"batch", "normal"}; r.Account = "Physics" }))
	j := h.job(fmt.Sprint(id))
	if j.Partition != "normal,batch" || j.Account != "physics" {
		t.Errorf("partition %q account %q, want normal,batch (by PriorityTier) and physics", j.Partition, j.Account)
	}
	if !strings.Contains(j.TRESReqStr, "cpu=1") {
		t.Errorf("tres %q", j.TRESReqStr)
	}
}
