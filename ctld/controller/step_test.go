package controller

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/client"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/test/clustertest"
)

// stepNode is a fake node daemon that also takes step launches: it
// re-registers the fake node's name at its own address, answers step
// launches itself (or refuses them) and passes everything else on to the
// fake node.
type stepNode struct {
	*clustertest.FakeNode
	register func() // again, after a controller restart
	mu       sync.Mutex
	launches []api.StepLaunchRequest
	refuse   bool
}

func (h *harness) stepNode(name string) *stepNode {
	h.t.Helper()
	fake := h.node(name)
	nc, _ := h.c.confNow().conf.Node(name)
	target, _ := url.Parse(fmt.Sprintf("http://127.0.0.1:%d", nc.Port))
	sn := &stepNode{FakeNode: fake}
	proxy := httputil.NewSingleHostReverseProxy(target)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		h.t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != api.PathStepLaunch {
			proxy.ServeHTTP(w, r)
			return
		}
		var req api.StepLaunchRequest
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &req)
		sn.mu.Lock()
		sn.launches = append(sn.launches, req)
		refuse := sn.refuse
		sn.mu.Unlock()
		w.Header().Set("Content-Type", api.ContentType)
		if refuse {
			w.WriteHeader(http.StatusUnprocessableEntity)
			_ = json.NewEncoder(w).Encode(api.ErrorResponse{Error: *api.Errorf(api.CodeLaunchFailed, "no room")})
			return
		}
		_ = json.NewEncoder(w).Encode(api.StepLaunchResponse{Pid: 1})
	})}
	go srv.Serve(ln)
	h.t.Cleanup(func() { srv.Close() })
	sn.register = func() {
		cl, err := client.New(client.Options{CtldAddr: strings.TrimPrefix(h.srv.URL, "http://"), Signer: auth.NewSigner(h.key, name), Timeout: 10 * time.Second})
		if err != nil {
			h.t.Fatal(err)
		}
		reg := &api.RegisterRequest{Node: name, Hostname: "localhost", Addr: ln.Addr().String(), CPUs: 1 << 10, RealMemory: 1 << 30,
			Health: api.Health{OK: true}, StartTime: time.Now().Unix()}
		for _, id := range fake.Running() {
			reg.Running = append(reg.Running, api.RunningJob{JobID: id, StartTime: reg.StartTime - 60})
		}
		for i := 0; i < 8; i++ {
			reg.GPUs = append(reg.GPUs, api.GPU{Index: i, Model: "fake", Device: fmt.Sprintf("/dev/null%d", i)})
		}
		if _, err := cl.Register(context.Background(), reg); err != nil {
			h.t.Fatal(err)
		}
	}
	sn.register()
	return sn
}

func (sn *stepNode) stepLaunches() []api.StepLaunchRequest {
	sn.mu.Lock()
	defer sn.mu.Unlock()
	return append([]api.StepLaunchRequest(nil), sn.launches...)
}

func stepReq(id uint32, mods ...func(*api.StepCreateRequest)) api.StepCreateRequest {
	// --overlap: these tests run steps side by side without the sharing
	// rules (step_share.go; steps_share_steps_test.go tests those).
	r := api.StepCreateRequest{JobID: id, Argv: []string{"/bin/hostname"}, IO: api.StepIOAddr{Addr: "127.0.0.1:9", Key: []byte("0123456789abcdef")}, Overlap: true}
	for _, m := range mods {
		m(&r)
	}
	return r
}

// TestSteps: a running job's owner creates steps, numbered from 0, laid
// out on the job's nodes and launched there; they are listed, accounted
// with the job, restored by a restarted controller, and end with it.
func TestSteps(t *testing.T) {
	h := newHarness(t)
	n1 := h.stepNode("n01")
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) {
		r.NTasks, r.GRES = 4, []resource.GRES{{Name: "gpu", Count: 2}}
	}))
	h.cycle()
	h.waitState(fmt.Sprint(id), job.Running)

	var resp api.StepCreateResponse
	if err := h.call(alice, api.PathStepCreate, stepReq(id, func(r *api.StepCreateRequest) { r.NTasks = 3; r.Name = "train" }), &resp); err != nil {
		t.Fatalf("create step: %v", err)
	}
	want := api.StepLayout{NodeList: "n01", Tasks: 3, Nodes: []api.StepNode{{Node: "n01", TaskIDs: []int{0, 1, 2}, CPUs: 4, GPUs: []int{0, 1}}}}
	if diff := cmp.Diff(api.StepCreateResponse{StepID: 0, Layout: want, KillWait: 2}, resp); diff != "" {
		t.Errorf("first step (-want +got):\n%s", diff)
	}
	if l := n1.stepLaunches(); len(l) != 1 || l[0].NodeIndex != 0 || l[0].Step.Name != "train" || l[0].KillWait != 2 {
		t.Fatalf("launches on n01 %+v", l)
	}
	steps := h.steps()
	if diff := cmp.Diff([]string{"0 train RUNNING n01 3", "batch batch RUNNING n01 1"}, steps); diff != "" {
		t.Errorf("steps listed (-want +got):\n%s", diff)
	}
	h.checkShown(id)

	errs := map[string]struct {
		uid  uint32
		req  api.StepCreateRequest
		want api.Code
	}{
		"another user's job":      {uid: bob, req: stepReq(id), want: api.CodeAccessDenied},
		"more tasks than CPUs":    {uid: alice, req: stepReq(id, func(r *api.StepCreateRequest) { r.NTasks = 5 }), want: api.CodeTooManyCPUs},
		"no such job":             {uid: alice, req: stepReq(id + 100), want: api.CodeInvalidJobID},
		"no command":              {uid: alice, req: stepReq(id, func(r *api.StepCreateRequest) { r.Argv = nil }), want: api.CodeBadRequest},
		"a node outside the job":  {uid: alice, req: stepReq(id, func(r *api.StepCreateRequest) { r.NodeList = "n07" }), want: api.CodeNodeConfigUnavailable},
		"negative counts refused": {uid: alice, req: stepReq(id, func(r *api.StepCreateRequest) { r.NTasks = -1 }), want: api.CodeBadTaskCount},
		"an oversized multi-prog": {uid: alice, req: stepReq(id, func(r *api.StepCreateRequest) {
			r.MultiProg = strings.Repeat("x", api.MultiProgMaxSize+1)
		}), want: api.CodeBadRequest},
	}
	for name, tc := range errs {
		if err := h.call(tc.uid, api.PathStepCreate, tc.req, nil); err == nil || err.Code != tc.want {
			t.Errorf("%s: error %v, want %s", name, err, tc.want)
		}
	}

	done := api.StepCompleteRequest{JobID: id, StepID: 0, State: job.Failed, ExitCode: job.ExitCode{Status: 3}}
	if err := h.call(alice, api.PathStepComplete, done, nil); err != nil {
		t.Fatal(err)
	}
	n1.mu.Lock()
	n1.refuse = true
	n1.mu.Unlock()
	if err := h.call(alice, api.PathStepCreate, stepReq(id), nil); err == nil || err.Code != api.CodeLaunchFailed ||
		!strings.Contains(err.Detail, "Task launch for StepId="+fmt.Sprint(id)+".1 failed on node n01") {
		t.Errorf("refused launch: %v", err)
	}
	n1.mu.Lock()
	n1.refuse = false
	n1.mu.Unlock()
	if err := h.call(alice, api.PathStepCreate, stepReq(id, func(r *api.StepCreateRequest) { r.Nodes = 1 }), &resp); err != nil || resp.StepID != 2 {
		t.Fatalf("third step: %+v, %v", resp, err)
	}
	n1.End(id, job.ExitCode{})
	h.waitState(fmt.Sprint(id), job.Completed)
	wantAcct := []string{"batch COMPLETED 0:0", "0 FAILED 3:0", "1 FAILED 1:0", "2 CANCELLED 0:9"}
	if diff := cmp.Diff(wantAcct, h.acctSteps(id)); diff != "" {
		t.Errorf("accounted steps (-want +got):\n%s", diff)
	}

	// A running step survives a restart of the controller.
	id2 := h.mustSubmit(alice, simpleJob())
	h.cycle()
	h.waitState(fmt.Sprint(id2), job.Running)
	if err := h.call(alice, api.PathStepCreate, stepReq(id2), &resp); err != nil || resp.StepID != 0 {
		t.Fatalf("step of the second job: %+v, %v", resp, err)
	}
	h.restart()
	n1.register()
	if diff := cmp.Diff([]string{"0 hostname RUNNING n01 1", "batch batch RUNNING n01 1"}, h.steps()); diff != "" {
		t.Errorf("steps after a restart (-want +got):\n%s", diff)
	}
	if err := h.call(alice, api.PathStepCreate, stepReq(id2), &resp); err != nil || resp.StepID != 1 {
		t.Errorf("next step after a restart: %+v, %v", resp, err)
	}
	if diff := cmp.Diff(wantAcct, h.acctSteps(id)); diff != "" {
		t.Errorf("accounted steps after a restart (-want +got):\n%s", diff)
	}
}

func (h *harness) steps() []string {
	h.t.Helper()
	var out api.StepsResponse
	if err := h.call(0, api.PathSteps, api.StepQuery{}, &out); err != nil {
		h.t.Fatal(err)
	}
	var lines []string
	for _, s := range out.Steps {
		lines = append(lines, fmt.Sprintf("%s %s %s %s %d", s.StepID, s.Name, s.State, s.Nodes, s.Tasks))
	}
	return lines
}

func (h *harness) acctSteps(id uint32) []string {
	h.t.Helper()
	var out api.AcctResponse
	if err := h.call(0, api.PathAccounting, api.AcctQuery{JobIDs: []string{fmt.Sprint(id)}}, &out); err != nil {
		h.t.Fatal(err)
	}
	var lines []string
	for _, j := range out.Jobs {
		for _, s := range j.Steps {
			lines = append(lines, fmt.Sprintf("%s %s %s", s.StepID, s.State, s.ExitCode))
		}
	}
	return lines
}

// TestAllocations: an interactive allocation has no script, runs without
// a batch step, and ends as its client says when released.
func TestAllocations(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	alloc := func(mods ...func(*job.Request)) uint32 {
		r := job.Request{Name: "interactive", WorkDir: "/tmp"}
		for _, m := range mods {
			m(&r)
		}
		var out api.SubmitResponse
		if err := h.call(alice, api.PathAllocate, api.AllocateRequest{Job: r}, &out); err != nil {
			t.Fatalf("allocate: %v", err)
		}
		return out.JobID
	}
	id := alloc()
	var a api.Allocation
	if err := h.call(alice, api.PathAllocationWait, api.AllocationWaitRequest{JobID: id}, &a); err != nil || a.Ready || a.State != job.Pending {
		t.Fatalf("before a cycle: %+v, %v", a, err)
	}
	h.cycle()
	if err := h.call(alice, api.PathAllocationWait, api.AllocationWaitRequest{JobID: id, Timeout: 5}, &a); err != nil || !a.Ready {
		t.Fatalf("after a cycle: %+v, %v", a, err)
	}
	// No memory asked: no SLURM_MEM_PER_CPU from DefMemPerCPU, as the peer's salloc.
	if a.NodeList != "n01" || len(a.Nodes) != 1 || a.Name != "interactive" || a.ClusterName != "unit" || a.MemPerCPU != 0 {
		t.Errorf("allocation %+v", a)
	}
	if l := n.Launch(t, id, 5*time.Second); l.Batch || l.Script != "" {
		t.Errorf("an allocation's node got a batch launch: %+v", l)
	}
	if err := h.call(bob, api.PathAllocationRelease, api.AllocationReleaseRequest{JobID: id}, nil); err == nil || err.Code != api.CodeAccessDenied {
		t.Errorf("release by another user: %v", err)
	}
	if err := h.call(alice, api.PathAllocationRelease, api.AllocationReleaseRequest{JobID: id, ExitCode: job.ExitCode{Status: 5}}, nil); err != nil {
		t.Fatal(err)
	}
	j := h.job(fmt.Sprint(id))
	if j.JobState != job.Failed || j.ExitCode != (job.ExitCode{Status: 5}) {
		t.Errorf("released job %s %s, want FAILED 5:0", j.JobState, j.ExitCode)
	}
	if j.BatchFlag { // the peer's scontrol shows BatchFlag=0 for a salloc job
		t.Errorf("an allocation has BatchFlag set, want unset (no batch script)")
	}
	if steps := h.acctSteps(id); len(steps) != 0 {
		t.Errorf("an allocation's steps: %v, want none (no batch step)", steps)
	}
	bad := map[string]api.AllocateRequest{
		"a script":  {Job: job.Request{Script: "#!/bin/sh\n", WorkDir: "/tmp"}},
		"an array":  {Job: job.Request{Array: "0-3", WorkDir: "/tmp"}},
		"no cwd":    {Job: job.Request{}},
		"bad -p":    {Job: job.Request{WorkDir: "/tmp", Partitions: []string{"nosuch"}}},
		"oversized": {Job: job.Request{WorkDir: "/tmp", MinNodes: 9, NodesSet: true}},
	}
	for name, req := range bad {
		if err := h.call(alice, api.PathAllocate, req, nil); err == nil {
			t.Errorf("%s: allocation accepted", name)
		}
	}
}
