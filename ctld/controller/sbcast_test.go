package controller

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/job"
)

// TestSbcastGrants: the owner of a running job gets one grant per node,
// signed for the node daemons' check and naming the job's user; others,
// pending jobs, unknown jobs and steps are refused as Slurm refuses them.
func TestSbcastGrants(t *testing.T) {
	h := newHarness(t)
	h.stepNode("n01")
	id := h.mustSubmit(alice, simpleJob())
	held := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	h.cycle()
	h.waitState(fmt.Sprint(id), job.Running)

	var out api.SbcastResponse
	req := api.SbcastRequest{JobID: id, Dest: "/tmp/x/../data.bin", Size: 12}
	if err := h.call(alice, api.PathSbcast, req, &out); err != nil {
		t.Fatalf("sbcast grant: %v", err)
	}
	if out.JobID != id || out.NodeList != "n01" || len(out.Targets) != 1 || out.Targets[0].Node != "n01" || out.Expires <= out.Issued {
		t.Fatalf("answer %+v", out)
	}
	var claims api.SbcastClaims
	g := out.Targets[0].Grant
	if err := json.Unmarshal(g.Claims, &claims); err != nil {
		t.Fatal(err)
	}
	want := api.SbcastClaims{Transfer: claims.Transfer, JobID: id, Node: "n01", UID: alice, GID: claims.GID, Groups: claims.Groups,
		User: claims.User, Dest: "/tmp/data.bin", Size: 12, Expires: claims.Expires}
	if diff := cmp.Diff(want, claims); diff != "" || len(claims.Transfer) != 32 {
		t.Errorf("claims (-want +got):\n%s", diff)
	}
	// A node daemon's verifier takes the grant as the grant signer's.
	fake := &http.Request{Method: api.SbcastGrantMethod, URL: &url.URL{Path: api.SbcastGrantURI}, Header: http.Header{}}
	for _, kv := range g.Sig {
		fake.Header.Set(kv[0], kv[1])
	}
	if sender, err := auth.NewVerifier(h.key).Verify(fake, g.Claims); err != nil || sender != api.SbcastGrantSender {
		t.Errorf("grant verifies as %q, %v", sender, err)
	}

	// -j JOB.batch and -j JOB.STEP name those steps' nodes.
	if err := h.call(alice, api.PathStepCreate, stepReq(id), nil); err != nil {
		t.Fatalf("create step: %v", err)
	}
	for _, step := range []uint32{api.SbcastBatchStep, 0} {
		var out api.SbcastResponse
		req := api.SbcastRequest{JobID: id, HasStep: true, StepID: step, Dest: "/tmp/x"}
		if err := h.call(alice, api.PathSbcast, req, &out); err != nil || out.NodeList != "n01" || out.StepID != step {
			t.Errorf("step %d: %+v, %v", step, out, err)
		}
	}

	// -j ARRAY_TASK names that task's job.
	arr := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Array = "3-4" }))
	h.cycle()
	var task api.SbcastResponse
	areq := api.SbcastRequest{JobID: arr, HasTask: true, Task: 4, Dest: "/tmp/x"}
	if err := h.call(alice, api.PathSbcast, areq, &task); err != nil || task.JobID == 0 {
		t.Errorf("array task: %+v, %v", task, err)
	} else if j := h.job(fmt.Sprint(task.JobID)); j.ArrayTaskID == nil || *j.ArrayTaskID != 4 || j.ArrayJobID != arr {
		t.Errorf("array task 4 answered with job %d: %+v", task.JobID, j)
	}

	errs := map[string]struct {
		uid  uint32
		req  api.SbcastRequest
		want api.Code
	}{
		"another user's job":  {uid: bob, req: api.SbcastRequest{JobID: id, Dest: "/tmp/x"}, want: api.CodeAccessDenied},
		"no such job":         {uid: alice, req: api.SbcastRequest{JobID: id + 100, Dest: "/tmp/x"}, want: api.CodeInvalidJobID},
		"a pending job":       {uid: alice, req: api.SbcastRequest{JobID: held, Dest: "/tmp/x"}, want: api.CodeJobPending},
		"a step that is not":  {uid: alice, req: api.SbcastRequest{JobID: id, HasStep: true, StepID: 4, Dest: "/tmp/x"}, want: api.CodeInvalidJobID},
		"a relative path":     {uid: alice, req: api.SbcastRequest{JobID: id, Dest: "x"}, want: api.CodeBadRequest},
		"the root directory":  {uid: alice, req: api.SbcastRequest{JobID: id, Dest: "/"}, want: api.CodeBadRequest},
		"a negative size":     {uid: alice, req: api.SbcastRequest{JobID: id, Dest: "/tmp/x", Size: -1}, want: api.CodeBadRequest},
		"job zero is invalid": {uid: alice, req: api.SbcastRequest{Dest: "/tmp/x"}, want: api.CodeInvalidJobID},
		"no such array task":  {uid: alice, req: api.SbcastRequest{JobID: arr, HasTask: true, Task: 9, Dest: "/tmp/x"}, want: api.CodeInvalidJobID},
	}
	for name, tc := range errs {
		t.Run(name, func(t *testing.T) {
			if err := h.call(tc.uid, api.PathSbcast, tc.req, nil); err == nil || err.Code != tc.want {
				t.Errorf("error %v, want %s", err, tc.want)
			}
		})
	}
}
