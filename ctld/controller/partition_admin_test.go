package controller

import (
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

func partState(s string) *api.PartitionUpdate {
	return &api.PartitionUpdate{Name: "batch", State: &s}
}

func setPart(t *testing.T, h *harness, u *api.PartitionUpdate) {
	t.Helper()
	var out api.PartitionsResponse
	if err := h.call(0, api.PathPartitionUpdate, u, &out); err != nil {
		t.Fatalf("update partition %+v: %v", u, err)
	}
}

// TestPartitionAdminStates follows the peer's maintenance sequence: DOWN
// accepts submissions while a running job runs on; INACTIVE and DRAIN
// refuse them ("Required partition not available (inactive or drain)");
// -p batch,normal is accepted while batch refuses. (The reasons pending
// jobs show are the scheduler's: schedengine's TestPartitionStateReasons.)
func TestPartitionAdminStates(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	inBatch := func(r *job.Request) { r.Partitions = []string{"batch"} }
	running := h.mustSubmit(alice, simpleJob(inBatch))
	h.cycle()
	n.Launch(t, running, 5*time.Second)

	setPart(t, h, partState("DOWN"))
	queued := h.mustSubmit(alice, simpleJob(inBatch))
	got := []string{string(h.job(fmt.Sprint(running)).JobState), string(h.job(fmt.Sprint(queued)).JobState)}

	setPart(t, h, partState("INACTIVE"))
	_, err := h.submit(alice, simpleJob(inBatch))
	got = append(got, fmt.Sprint(errCode(err)))

	setPart(t, h, partState("DRAIN"))
	_, err = h.submit(alice, simpleJob(inBatch))
	got = append(got, fmt.Sprint(errCode(err)))
	_, err = h.submit(alice, simpleJob(func(r *job.Request) { r.Partitions = []string{"batch", "normal"} }))
	got = append(got, fmt.Sprint(errCode(err)))

	want := []string{"RUNNING", "PENDING", "ESLURM_PARTITION_NOT_AVAIL", "ESLURM_PARTITION_NOT_AVAIL", ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("partition states (-want +got):\n%s", diff)
	}
}

func errCode(err *api.Error) api.Code {
	if err == nil {
		return ""
	}
	return err.Code
}

// TestPartitionAdminEdit: keys change what scontrol show partition
// prints; Default=YES moves the default; an unknown partition, a bad
// state or node, and a non-operator are refused; a reconfigure takes the
// partitions from slurm.conf again, as Slurm 22.05 without
// ReconfigFlags=KeepPartInfo.
func TestPartitionAdminEdit(t *testing.T) {
	h := newHarness(t)
	maxTime, minNodes, tier, nodes, yes := int64(600), int64(2), 5, "n02", true
	setPart(t, h, &api.PartitionUpdate{Name: "batch", MaxTime: &maxTime, MinNodes: &minNodes,
		PriorityTier: &tier, Nodes: &nodes, Default: &yes})
	var out api.PartitionsResponse
	if err := h.raw(0, http.MethodGet, api.PathPartitions, nil, &out); err != nil {
		t.Fatal(err)
	}
	show := func(ps []api.Partition) []string {
		var s []string
		for _, p := range ps {
			s = append(s, fmt.Sprintf("%s default=%v max=%d min=%d tier=%d nodes=%s", p.Name, p.Default, p.MaxTime, p.MinNodes, p.PriorityTier, p.Nodes))
		}
		return s
	}
	want := []string{"normal default=false max=172800 min=0 tier=2 nodes=n[01-02]", "batch default=true max=600 min=2 tier=5 nodes=n02"}
	if diff := cmp.Diff(want, show(out.Partitions)); diff != "" {
		t.Errorf("after update (-want +got):\n%s", diff)
	}
	bad, ghost := "SIDEWAYS", "n99"
	refusals := map[string]struct {
		uid  uint32
		u    api.PartitionUpdate
		want api.Code
	}{
		"an unknown partition": {0, api.PartitionUpdate{Name: "nosuch", MaxTime: &maxTime}, api.CodeInvalidPartitionName},
		"a bad state":          {0, api.PartitionUpdate{Name: "batch", State: &bad}, api.CodeBadRequest},
		"an unknown node":      {0, api.PartitionUpdate{Name: "batch", Nodes: &ghost}, api.CodeInvalidNodeName},
		"a user":               {alice, api.PartitionUpdate{Name: "batch", MaxTime: &maxTime}, api.CodeUserIDMissing},
		"creating an existing": {0, api.PartitionUpdate{Name: "batch", Create: true}, api.CodeInvalidPartitionName},
	}
	for name, tc := range refusals {
		t.Run(name, func(t *testing.T) {
			var o api.PartitionsResponse
			if err := h.call(tc.uid, api.PathPartitionUpdate, tc.u, &o); errCode(err) != tc.want {
				t.Errorf("error %v, want %s", err, tc.want)
			}
		})
	}
	if _, err := h.c.Reconfigure(); err != nil {
		t.Fatal(err)
	}
	if err := h.raw(0, http.MethodGet, api.PathPartitions, nil, &out); err != nil {
		t.Fatal(err)
	}
	want = []string{"normal default=true max=172800 min=0 tier=2 nodes=n[01-02]", "batch default=false max=-1 min=0 tier=1 nodes=n[01-02]"}
	if diff := cmp.Diff(want, show(out.Partitions)); diff != "" {
		t.Errorf("after reconfigure (-want +got):\n%s", diff)
	}
}

// TestPartitionAdminCreateDelete: a created partition takes jobs; delete
// is refused with "Partition is in use" while a job names it, and works
// once the job is gone; an unknown name is refused.
func TestPartitionAdminCreateDelete(t *testing.T) {
	h := newHarness(t)
	nodes := "n01"
	setPart(t, h, &api.PartitionUpdate{Name: "maint", Create: true, Nodes: &nodes})
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Partitions = []string{"maint"}; r.Hold = true }))
	del := func(name string) api.Code {
		var out struct{}
		return errCode(h.call(0, api.PathPartitionDelete, api.PartitionDelete{Name: name}, &out))
	}
	got := []api.Code{del("maint")}
	if rs := results(t, h, 0, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(id)}}}); firstErr(rs) != "" {
		t.Fatalf("cancel: %+v", rs)
	}
	got = append(got, del("maint"), del("maint"))
	want := []api.Code{api.CodePartitionInUse, "", api.CodeInvalidPartitionName}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("deletes (-want +got):\n%s", diff)
	}
}

// TestNodeEditConfig: Weight=, Features= and ActiveFeatures= change what
// scontrol show node prints; an active feature that is not available
// ("Active features not subset of available features") and a Gres= other
// than the node's are refused; a Reason= alone on a node neither down nor
// drained is ignored, as on the peer.
func TestNodeEditConfig(t *testing.T) {
	h := newHarness(t)
	upd := func(in api.NodeUpdateRequest) api.Code {
		in.Nodes = "n01"
		var out api.NodeUpdateResponse
		return errCode(h.call(0, api.PathNodeUpdate, in, &out))
	}
	w, feats, act, bad, gres := int64(5), []string{"cpu", "fast"}, []string{"fast"}, []string{"zzz"}, "gpu:1"
	codes := []api.Code{
		upd(api.NodeUpdateRequest{Weight: &w}),
		upd(api.NodeUpdateRequest{Features: &feats}),
		upd(api.NodeUpdateRequest{ActiveFeatures: &act}),
		upd(api.NodeUpdateRequest{ActiveFeatures: &bad}),
		upd(api.NodeUpdateRequest{GRES: &gres}),
		upd(api.NodeUpdateRequest{Reason: "only a reason"}),
	}
	var out api.NodesResponse
	if err := h.call(0, api.PathNodes, api.NodeQuery{Nodes: []string{"n01"}}, &out); err != nil {
		t.Fatal(err)
	}
	n := out.Nodes[0]
	got := []any{codes, n.Weight, n.Features, n.ActiveFeatures, n.Reason}
	want := []any{[]api.Code{"", "", "", api.CodeActiveNotSubset, api.CodeInvalidGRES, ""}, int64(5), feats, act, ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("node edits (-want +got):\n%s", diff)
	}
}

// TestNodeFeaturesKeepActiveSubset follows the peer (gpu003, active
// features gpu): Features=a,b is refused ("Active features not subset of
// available features") as the current active features would not be
// among them, while Features=a,b ActiveFeatures=a and Features=gpu,a
// are taken.
func TestNodeFeaturesKeepActiveSubset(t *testing.T) {
	h := newHarness(t)
	upd := func(feats, act []string) api.Code {
		in := api.NodeUpdateRequest{Nodes: "n01", Features: &feats}
		if act != nil {
			in.ActiveFeatures = &act
		}
		var out api.NodeUpdateResponse
		return errCode(h.call(0, api.PathNodeUpdate, in, &out))
	}
	got := []api.Code{
		upd([]string{"gpu"}, nil), // no features yet: any list is a superset
		upd([]string{"a", "b"}, nil),
		upd([]string{"gpu", "a"}, nil),
		upd([]string{"a", "b"}, []string{"a"}),
	}
	if diff := cmp.Diff([]api.Code{"", api.CodeActiveNotSubset, "", ""}, got); diff != "" {
		t.Errorf("codes (-want +got):\n%s", diff)
	}
}

// TestNodeCommentExtra: Comment= and Extra= are kept and shown, cleared by
// an empty value, and survive RESUME, as on the peer.
func TestNodeCommentExtra(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	str := func(s string) *string { return &s }
	var got []string
	upd := func(in api.NodeUpdateRequest) {
		in.Nodes = "n01"
		var out api.NodeUpdateResponse
		if err := h.call(0, api.PathNodeUpdate, in, &out); err != nil {
			t.Fatal(err)
		}
		var nodes api.NodesResponse
		if err := h.call(0, api.PathNodes, api.NodeQuery{Nodes: []string{"n01"}}, &nodes); err != nil {
			t.Fatal(err)
		}
		got = append(got, nodes.Nodes[0].Comment+"|"+nodes.Nodes[0].Extra)
	}
	upd(api.NodeUpdateRequest{Comment: str("x"), Extra: str("a=b")})
	upd(api.NodeUpdateRequest{State: "DRAIN", Reason: "fan"})
	upd(api.NodeUpdateRequest{State: "RESUME"})
	upd(api.NodeUpdateRequest{Comment: str("")})
	if diff := cmp.Diff([]string{"x|a=b", "x|a=b", "x|a=b", "|a=b"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestNodeFailState follows the peer (cpu008): State=FAIL needs a reason
// and shows IDLE+FAIL; DRAIN replaces it; UNDRAIN clears it; RESUME of a
// node with nothing to resume answers "Invalid node state specified".
// (NOT_RESPONDING, which UNDRAIN sets until the node answers a ping, is
// TestResumeRequiresRegistration's.)
func TestNodeFailState(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	var got []string
	upd := func(state, reason string) {
		var out api.NodeUpdateResponse
		err := h.call(0, api.PathNodeUpdate, api.NodeUpdateRequest{Nodes: "n01", State: state, Reason: reason}, &out)
		var nodes api.NodesResponse
		if qerr := h.call(0, api.PathNodes, api.NodeQuery{Nodes: []string{"n01"}}, &nodes); qerr != nil {
			t.Fatal(qerr)
		}
		n := nodes.Nodes[0]
		flags := slices.DeleteFunc(n.StateFlags, func(f string) bool { return f == api.FlagNotResponding })
		got = append(got, fmt.Sprintf("%s: %s %v %q", state, errCode(err), flags, n.Reason))
	}
	upd("FAIL", "")
	upd("FAIL", "disk")
	upd("DRAIN", "fan")
	upd("UNDRAIN", "")
	upd("RESUME", "")
	want := []string{
		`FAIL: ESLURM_INVALID_NODE_STATE [] ""`,
		`FAIL:  [FAIL] "disk"`,
		`DRAIN:  [DRAIN] "fan"`,
		`UNDRAIN:  [] ""`,
		`RESUME: ESLURM_INVALID_NODE_STATE [] ""`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestKeepPartitions: what a reconfigure keeps of the partitions scontrol
// changed, per ReconfigFlags, as Slurm 22.05's read_slurm_conf: nothing by
// default; the State only with KeepPartState; everything with
// KeepPartInfo, partitions scontrol created and the default included.
func TestKeepPartitions(t *testing.T) {
	nodes := []slurmconf.Node{{Name: "n01"}, {Name: "n02"}}
	live := []slurmconf.Partition{
		{Name: "normal", State: "DOWN", MaxNodes: 1, Nodes: []string{"n01", "n02"}},
		{Name: "batch", State: "DRAIN", Default: true, Nodes: []string{"n02"}},
		{Name: "made", State: "UP", Nodes: []string{"n01"}},
	}
	file := func() []slurmconf.Partition {
		return []slurmconf.Partition{
			{Name: "normal", State: "UP", Default: true, MaxNodes: 9, Nodes: []string{"n01", "n02"}},
			{Name: "batch", State: "UP", Nodes: []string{"n01", "n02"}},
		}
	}
	tests := map[string]struct {
		flags []string
		want  []string
	}{
		"no flags": {nil, []string{"normal UP default=true max=9 [n01 n02]", "batch UP default=false max=0 [n01 n02]"}},
		"KeepPartState": {[]string{"KeepPartState"},
			[]string{"normal DOWN default=true max=9 [n01 n02]", "batch DRAIN default=false max=0 [n01 n02]"}},
		"KeepPartInfo": {[]string{"keeppartinfo"}, []string{"normal DOWN default=false max=1 [n01 n02]",
			"batch DRAIN default=true max=0 [n02]", "made UP default=false max=0 [n01]"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			old := &slurmconf.Config{Nodes: nodes, Partitions: live}
			next := &slurmconf.Config{Nodes: nodes, Partitions: file(), ReconfigFlags: tc.flags}
			keepPartitions(old, next)
			var got []string
			for _, p := range next.Partitions {
				got = append(got, fmt.Sprintf("%s %s default=%v max=%d %v", p.Name, p.State, p.Default, p.MaxNodes, p.Nodes))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestPartitionPolicyUpdate follows the peer's answers to scontrol update
// partition: bad JobDefaults and TRESBillingWeights are refused with
// slurmctld's words; the accepted keys show as scontrol prints them
// (JobDefaults replaces the whole list, DenyQos shows without AllowQos,
// DefMemPerCPU and MaxMemPerNode replace DefMemPerNode and MaxMemPerCPU).
func TestPartitionPolicyUpdate(t *testing.T) {
	h := newHarness(t)
	str := func(s string) *string { return &s }
	upd := func(l api.PartitionLimits) (api.Partition, *api.Error) {
		var out api.PartitionsResponse
		err := h.call(0, api.PathPartitionUpdate, &api.PartitionUpdate{Name: "batch", PartitionLimits: l}, &out)
		if err != nil {
			return api.Partition{}, err
		}
		return out.Partitions[0], nil
	}
	for _, tc := range []struct {
		l    api.PartitionLimits
		code api.Code
		msg  string
	}{
		{api.PartitionLimits{JobDefaults: str("foo")}, api.CodeInvalidJobDefaults, "Invalid JobDefaults specification"},
		{api.PartitionLimits{JobDefaults: str("DefCpuPerGPU=x")}, api.CodeInvalidJobDefaults, "Invalid JobDefaults specification"},
		{api.PartitionLimits{BillingWeights: str("foo")}, api.CodeInvalidBillingWeights, "Invalid TRESBillingWeights specification"},
	} {
		if _, err := upd(tc.l); err == nil || err.Code != tc.code || err.Message != tc.msg {
			t.Errorf("%+v: %v, want %s %q", tc.l, err, tc.code, tc.msg)
		}
	}
	def, maxNode := int64(2000), int64(1000)
	p, err := upd(api.PartitionLimits{JobDefaults: str("DefMemPerGPU=100,DefCpuPerGPU=3"), BillingWeights: str("CPU=2.0"),
		DenyQOS: str("normal"), PreemptMode: str("cancel"), DefMemPerCPU: &def, MaxMemPerNode: &maxNode})
	if err != nil {
		t.Fatal(err)
	}
	got := []any{p.DefCPUPerGPU, p.DefMemPerGPU, p.TRESBillingWeights, p.DenyQOS, p.AllowQOS, p.PreemptMode,
		p.DefMemPerCPU, p.DefMemPerNode, p.MaxMemPerNode, p.MaxMemPerCPU}
	want := []any{int64(3), int64(100), "CPU=2.0", []string{"normal"}, []string(nil), "CANCEL", int64(2000), int64(0), int64(1000), int64(0)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after the update (-want +got):\n%s", diff)
	}
	if p, err = upd(api.PartitionLimits{JobDefaults: str("DefCpuPerGPU=2"), BillingWeights: str("")}); err != nil {
		t.Fatal(err)
	}
	if p.DefCPUPerGPU != 2 || !slices.Contains(p.InheritedMemory, "DefMemPerGPU") || p.TRESBillingWeights != "" {
		t.Errorf("JobDefaults=DefCpuPerGPU=2 T=: cpu/gpu %d, inherited %v, weights %q", p.DefCPUPerGPU, p.InheritedMemory, p.TRESBillingWeights)
	}
}

// TestNodeFutureState follows the peer (gpu030): State=FUTURE takes the
// node out of every listing ("Node gpu030 not found", sinfo without it)
// and out of service, its jobs ended as on DOWN; RESUME brings it back,
// not responding until it is heard from again.
func TestNodeFutureState(t *testing.T) {
	h := newHarness(t)
	silentNode(t, h, "n01", make(chan struct{})) // node_ping_test.go
	id := fmt.Sprint(h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.NodeList = "n01" })))
	h.cycle()
	h.waitState(id, job.Running)
	upd := func(state string) {
		var out api.NodeUpdateResponse
		if err := h.call(0, api.PathNodeUpdate, api.NodeUpdateRequest{Nodes: "n01", State: state}, &out); err != nil {
			t.Fatalf("State=%s: %v", state, err)
		}
	}
	nodes := func() api.NodesResponse {
		var out api.NodesResponse
		if err := h.call(0, api.PathNodes, api.NodeQuery{Nodes: []string{"n01"}}, &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	upd("FUTURE")
	if got := nodes(); len(got.Nodes) != 0 || !slices.Equal(got.Missing, []string{"n01"}) {
		t.Errorf("a FUTURE node is listed: %+v", got)
	}
	if j := h.job(id); j.JobState == job.Running {
		t.Errorf("the node's job still runs")
	}
	upd("RESUME")
	got := nodes()
	if len(got.Nodes) != 1 || got.Nodes[0].State != api.NodeIdle || !slices.Contains(got.Nodes[0].StateFlags, api.FlagNotResponding) {
		t.Errorf("after RESUME: %+v, want IDLE+NOT_RESPONDING", got.Nodes)
	}
}
