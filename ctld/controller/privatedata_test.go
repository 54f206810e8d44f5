package controller

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
)

// privateHarness is the test cluster with PrivateData=line ("" for none),
// a job of alice's and one of bob's.
func privateHarness(t *testing.T, line string) (h *harness, a, b uint32) {
	h = newHarness(t)
	if line != "" {
		appendConf(t, h, "PrivateData="+line+"\n")
		h.restart()
	}
	return h, h.mustSubmit(alice, simpleJob()), h.mustSubmit(bob, simpleJob())
}

// TestPrivateDataJobs: with jobs private bob's squeue and scontrol show
// job list only his own, alice's id is missing (the peer: "Invalid job id
// specified"), sacct shows his own even asked for alice's, and root sees
// both; unset, everyone sees every job.
func TestPrivateDataJobs(t *testing.T) {
	type view struct {
		Table, Shown, Acct, AcctOfAlice []uint32
		Missing                         []string
	}
	look := func(h *harness, uid, a uint32) view {
		var v view
		v.Table = h.tableAs(uid, api.JobQuery{Fields: []string{"job_id"}})
		var js api.JobsResponse
		if err := h.call(uid, api.PathJobs, api.JobQuery{JobIDs: []string{fmt.Sprint(a)}}, &js); err != nil {
			t.Fatal(err)
		}
		for _, j := range js.Jobs {
			v.Shown = append(v.Shown, j.JobID)
		}
		v.Missing = js.Missing
		acct := func(q api.AcctQuery) (ids []uint32) {
			var out api.AcctResponse
			if err := h.call(uid, api.PathAccounting, q, &out); err != nil {
				t.Fatal(err)
			}
			for _, j := range out.Jobs {
				ids = append(ids, j.JobID)
			}
			slices.Sort(ids)
			return ids
		}
		v.Acct = acct(api.AcctQuery{})
		v.AcctOfAlice = acct(api.AcctQuery{Users: []string{fmt.Sprint(alice)}})
		return v
	}
	tests := map[string]struct {
		line string
		uid  uint32
		want func(a, b uint32) view
	}{
		"unset: bob sees alice's job": {"", bob, func(a, b uint32) view {
			return view{Table: []uint32{a, b}, Shown: []uint32{a}, Acct: []uint32{a, b}, AcctOfAlice: []uint32{a}}
		}},
		"jobs: bob sees only his own": {"jobs", bob, func(a, b uint32) view {
			return view{Table: []uint32{b}, Missing: []string{fmt.Sprint(a)}, Acct: []uint32{b}}
		}},
		"all: the same": {"all", bob, func(a, b uint32) view {
			return view{Table: []uint32{b}, Missing: []string{fmt.Sprint(a)}, Acct: []uint32{b}}
		}},
		"jobs: root sees both": {"jobs", 0, func(a, b uint32) view {
			return view{Table: []uint32{a, b}, Shown: []uint32{a}, Acct: []uint32{a, b}, AcctOfAlice: []uint32{a}}
		}},
		"usage alone leaves jobs public": {"usage", bob, func(a, b uint32) view {
			return view{Table: []uint32{a, b}, Shown: []uint32{a}, Acct: []uint32{a, b}, AcctOfAlice: []uint32{a}}
		}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h, a, b := privateHarness(t, tc.line)
			if diff := cmp.Diff(tc.want(a, b), look(h, tc.uid, a)); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestPrivateDataSteps: scontrol show step and sstat answer for a hidden
// job as the peer does: "Invalid job id specified", and "No steps running
// for job N".
func TestPrivateDataSteps(t *testing.T) {
	h, a, _ := privateHarness(t, "jobs")
	var steps api.StepsResponse
	if err := h.call(bob, api.PathSteps, api.StepQuery{JobIDs: []uint32{a}, Known: true}, &steps); codeOf(err) != api.CodeInvalidJobID {
		t.Errorf("bob's scontrol show step of alice's job: %v, want %s", err, api.CodeInvalidJobID)
	}
	if err := h.call(alice, api.PathSteps, api.StepQuery{JobIDs: []uint32{a}, Known: true}, &steps); err != nil {
		t.Errorf("alice's own steps: %v", err)
	}
	var st api.StepStatResponse
	if err := h.call(bob, api.PathStepStat, api.StepStatRequest{JobID: a}, &st); err != nil || !st.NoSteps {
		t.Errorf("bob's sstat of alice's job: %+v %v, want no steps", st, err)
	}
}

// TestPrivateDataNodesPartitions: sinfo and scontrol show node/partition
// are refused to a non-operator ("Access/permission denied" on the peer),
// answered to root.
func TestPrivateDataNodesPartitions(t *testing.T) {
	tests := map[string]struct {
		line      string
		uid       uint32
		nodes, pa api.Code
	}{
		"unset":                 {"", bob, "", ""},
		"nodes only":            {"nodes", bob, api.CodeAccessDenied, ""},
		"partitions only":       {"partitions", bob, "", api.CodeAccessDenied},
		"both, root still sees": {"nodes,partitions", 0, "", ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h, _, _ := privateHarness(t, tc.line)
			var nodes api.NodesResponse
			var parts api.PartitionsResponse
			got := [2]api.Code{codeOf(h.call(tc.uid, api.PathNodes, api.NodeQuery{}, &nodes)),
				codeOf(h.raw(tc.uid, "GET", api.PathPartitions, nil, &parts))}
			if diff := cmp.Diff([2]api.Code{tc.nodes, tc.pa}, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestPrivateDataReservations: a user sees only the reservations they may
// use (the peer: "No reservations in the system").
func TestPrivateDataReservations(t *testing.T) {
	h, _, _ := privateHarness(t, "reservations")
	h.mkResv("mine", 3600e9, func(s *api.AdvResvSpec) { s.Users = []string{"nobody"} })
	h.mkResv("other", 3600e9, func(s *api.AdvResvSpec) { s.Users = []string{"daemon"} })
	names := func(id auth.Identity) (out []string) {
		h.c.mu.RLock()
		defer h.c.mu.RUnlock()
		for _, r := range h.c.adv.sorted() {
			if h.c.seesAdvResv(id, &r) {
				out = append(out, r.Name)
			}
		}
		return out
	}
	got := map[string][]string{
		"nobody": names(auth.Identity{UID: 65534, User: "nobody", Via: auth.ViaCredential}),
		"bob":    names(auth.Identity{UID: bob, User: "bob", Via: auth.ViaCredential}),
		"root":   names(auth.Identity{UID: 0, User: "root", Via: auth.ViaCredential}),
	}
	want := map[string][]string{"nobody": {"mine"}, "bob": nil, "root": {"mine", "other"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

// TestPrivateDataUsageAndUsers: sshare keeps only the caller's own user
// rows (the peer's sshare -a as s18g1); sreport's cluster utilization is
// refused; sacctmgr shows only the caller's user and, Loam having no
// coordinators, no account definitions.
func TestPrivateDataUsageAndUsers(t *testing.T) {
	h, _, _ := privateHarness(t, "usage,users,accounts")
	bobID := auth.Identity{UID: bob, User: "bob", Via: auth.ViaCredential}
	rows := []api.ShareRow{{Account: "research"}, {Account: "research", User: "alice"}, {Account: "research", User: "bob"}}
	if diff := cmp.Diff([]api.ShareRow{{Account: "research", User: "bob"}}, h.c.privateShares(bobID, slices.Clone(rows))); diff != "" {
		t.Errorf("sshare (-want +got)\n%s", diff)
	}
	root := auth.Identity{UID: 0, User: "root", Via: auth.ViaCredential}
	if diff := cmp.Diff(rows, h.c.privateShares(root, slices.Clone(rows))); diff != "" {
		t.Errorf("root's sshare (-want +got)\n%s", diff)
	}
	var rep api.UtilReport
	if err := h.call(bob, api.PathUtilReport, api.ReportQuery{}, &rep); codeOf(err) != api.CodeAccessDenied {
		t.Errorf("bob's sreport: %v, want %s", err, api.CodeAccessDenied)
	}
	tree := &api.AssocResponse{Accounts: []api.AssocAccount{{Name: "research"}},
		Users: []api.AssocUser{{Name: "alice"}, {Name: "bob"}}}
	got := h.c.privateAssocs(bobID, tree)
	if diff := cmp.Diff(&api.AssocResponse{Accounts: []api.AssocAccount{}, PrivateAccounts: true, Users: []api.AssocUser{{Name: "bob"}}}, got); diff != "" {
		t.Errorf("sacctmgr (-want +got)\n%s", diff)
	}
}

// TestPrivateDataDashboard: the dashboard is an operator's view, so a user
// gets no token while PrivateData is set; root still does.
func TestPrivateDataDashboard(t *testing.T) {
	tests := map[string]struct {
		line string
		uid  uint32
		want api.Code
	}{
		"unset: bob may":   {"", bob, ""},
		"set: bob may not": {"jobs", bob, api.CodeAccessDenied},
		"set: root may":    {"jobs", 0, ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h, _, _ := privateHarness(t, tc.line)
			if got := h.c.privateDashboard(tc.uid); codeOf(got) != tc.want {
				t.Errorf("privateDashboard = %v, want %q", got, tc.want)
			}
		})
	}
}
