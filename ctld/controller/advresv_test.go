package controller

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

func (h *harness) advList() []string {
	h.t.Helper()
	var out api.AdvResvsResponse
	if err := h.call(1000, api.PathAdvResvList, api.ResvQuery{}, &out); err != nil {
		h.t.Fatalf("list: %v", err)
	}
	var names []string
	for _, r := range out.Reservations {
		names = append(names, r.Name+" "+r.Nodes+" "+(time.Duration(r.End-r.Start)*time.Second).String())
	}
	return names
}

func codeOf(err *api.Error) api.Code {
	if err == nil {
		return ""
	}
	return err.Code
}

// TestAdvResvCreateRules: who may create, and Slurm's refusals.
func TestAdvResvCreateRules(t *testing.T) {
	h := newHarness(t)
	h.start()
	now := h.clock.Now().Unix()
	spec := func(mods ...func(*api.AdvResvSpec)) api.AdvResvSpec {
		s := api.AdvResvSpec{Name: "m1", Start: now, End: now + 3600, Nodes: "n01", Users: []string{"root"}}
		for _, m := range mods {
			m(&s)
		}
		return s
	}
	steps := []struct {
		name string
		uid  uint32
		spec api.AdvResvSpec
		want api.Code
	}{
		{"a user may not create", 1000, spec(), api.CodeUserIDMissing},
		{"root creates", 0, spec(), ""},
		{"the same name and nodes: the overlap is reported (the peer)", 0, spec(), api.CodeReservationOverlap},
		{"the same name elsewhere", 0, spec(func(s *api.AdvResvSpec) { s.Nodes = "n02" }), api.CodeReservationNameDup},
		{"an unknown node", 0, spec(func(s *api.AdvResvSpec) { s.Name, s.Nodes = "x", "n09" }), api.CodeInvalidNodeName},
		{"an unknown user", 0, spec(func(s *api.AdvResvSpec) { s.Name, s.Users = "x", []string{"no-such-user-s12a"} }), api.CodeUserIDMissing},
		{"an unknown partition", 0, spec(func(s *api.AdvResvSpec) { s.Name, s.Partition = "x", "nope" }), api.CodeInvalidPartitionName},
		{"ends before it starts", 0, spec(func(s *api.AdvResvSpec) { s.Name, s.End = "x", now-1 }), api.CodeInvalidTimeValue},
		{"overlapping m1", 0, spec(func(s *api.AdvResvSpec) { s.Name = "x" }), api.CodeReservationOverlap},
		{"OVERLAP may", 0, spec(func(s *api.AdvResvSpec) { s.Name, s.Flags = "ov", []string{"overlap"} }), ""},
		{"after m1 ends", 0, spec(func(s *api.AdvResvSpec) { s.Name, s.Start, s.End = "later", now+3600, now+7200 }), ""},
		{"a FLEX one is refused", 0, spec(func(s *api.AdvResvSpec) { s.Name, s.Nodes, s.Flags = "d", "n02", []string{"FLEX"} }), api.CodeNotSupported},
		{"default name", 0, spec(func(s *api.AdvResvSpec) { s.Name, s.Nodes, s.Users, s.Accounts = "", "n02", nil, []string{"acct"} }), ""},
	}
	for _, st := range steps {
		var out api.AdvResvCreated
		if got := codeOf(h.call(st.uid, api.PathAdvResvCreate, st.spec, &out)); got != st.want {
			t.Errorf("%s: code %q, want %q", st.name, got, st.want)
		}
	}
	want := []string{"m1 n01 1h0m0s", "ov n01 1h0m0s", "later n01 1h0m0s", "acct_4 n02 1h0m0s"}
	if diff := cmp.Diff(want, h.advList()); diff != "" {
		t.Errorf("list (-want +got):\n%s", diff)
	}

	// They survive a restart, and the default names go on counting.
	h.restart()
	if diff := cmp.Diff(want, h.advList()); diff != "" {
		t.Errorf("list after restart (-want +got):\n%s", diff)
	}
	var out api.AdvResvCreated
	if err := h.call(0, api.PathAdvResvCreate, spec(func(s *api.AdvResvSpec) { s.Name, s.Nodes, s.Flags = "", "n02", []string{"maint"} }), &out); err != nil || out.Name != "root_5" {
		t.Errorf("default name after restart: %q, %v; want root_5", out.Name, err)
	}
}

// TestAdvResvSubmitUpdateDeleteExpire: --reservation at submit, update,
// delete, and deletion at the end time.
func TestAdvResvSubmitUpdateDeleteExpire(t *testing.T) {
	h := newHarness(t)
	h.start()
	now := h.clock.Now().Unix()
	mk := func(name string, users, accounts []string) {
		s := api.AdvResvSpec{Name: name, Start: now, End: now + 3600, Nodes: "n02", Users: users, Accounts: accounts,
			Flags: []string{"OVERLAP"}}
		if err := h.call(0, api.PathAdvResvCreate, s, nil); err != nil {
			t.Fatalf("create %s: %v", name, err)
		}
	}
	mk("open", []string{"root"}, nil)
	mk("acctonly", nil, []string{"vision"})
	if _, err := h.submit(0, simpleJob(func(r *job.Request) { r.Reservation = "nope" })); codeOf(err) != api.CodeReservationInvalid {
		t.Errorf("unknown reservation: %v, want %s", err, api.CodeReservationInvalid)
	}
	if _, err := h.submit(0, simpleJob(func(r *job.Request) { r.Reservation = "acctonly" })); codeOf(err) != api.CodeReservationAccess {
		t.Errorf("not admitted: %v, want %s", err, api.CodeReservationAccess)
	}
	id := h.mustSubmit(0, simpleJob(func(r *job.Request) { r.Reservation = "open" }))
	if j := h.job(strconv.FormatUint(uint64(id), 10)); j.Reservation != "open" {
		t.Errorf("job's reservation %q, want open", j.Reservation)
	}

	half := int64(1800)
	if err := h.call(0, api.PathAdvResvUpdate, api.AdvResvUpdate{Name: "open", Duration: &half}, nil); err != nil {
		t.Errorf("update: %v", err)
	}
	if err := h.call(0, api.PathAdvResvUpdate, api.AdvResvUpdate{Name: "gone", Duration: &half}, nil); codeOf(err) != api.CodeReservationInvalid {
		t.Errorf("update of a missing one: %v", err)
	}
	if err := h.call(0, api.PathAdvResvDelete, api.AdvResvDelete{Name: "acctonly"}, nil); err != nil {
		t.Errorf("delete: %v", err)
	}
	if err := h.call(0, api.PathAdvResvDelete, api.AdvResvDelete{Name: "acctonly"}, nil); codeOf(err) != api.CodeReservationInvalid {
		t.Errorf("second delete: %v", err)
	}
	if diff := cmp.Diff([]string{"open n02 30m0s"}, h.advList()); diff != "" {
		t.Errorf("list (-want +got):\n%s", diff)
	}
	// The node shows its reservation while the window holds.
	var nodes api.NodesResponse
	if err := h.call(0, api.PathNodes, api.NodeQuery{Nodes: []string{"n02"}}, &nodes); err != nil || len(nodes.Nodes) != 1 {
		t.Fatalf("nodes: %v %v", nodes, err)
	}
	if got := nodes.Nodes[0].StateFlags; len(got) == 0 || got[len(got)-1] != api.FlagReserved {
		t.Errorf("n02 flags %v, want RESERVED", got)
	}

	h.clock.Advance(31 * time.Minute)
	h.cycle()
	if got := h.advList(); len(got) != 0 {
		t.Errorf("after the end: %v, want none", got)
	}
	h.restart()
	if got := h.advList(); len(got) != 0 {
		t.Errorf("after the end and a restart: %v, want none", got)
	}
}

// startWithAdv starts the harness's controller and creates spec, its
// start and end given from now.
func (h *harness) startWithAdv(spec api.AdvResvSpec) {
	h.t.Helper()
	h.start()
	now := h.clock.Now().Unix()
	spec.Start, spec.End = now+spec.Start, now+spec.End
	var out api.AdvResvCreated
	if err := h.call(0, api.PathAdvResvCreate, spec, &out); err != nil {
		h.t.Fatalf("create %s: %v", spec.Name, err)
	}
}

// TestAdvResvCountedNodes follows the peer: a reservation given NodeCnt=
// without a partition takes, and shows, the default partition, and its
// flags lack SPEC_NODES (named nodes have it), also after an update of
// its time; naming its nodes in an update adds SPEC_NODES.
func TestAdvResvCountedNodes(t *testing.T) {
	h := newHarness(t)
	h.startWithAdv(api.AdvResvSpec{Name: "c", Start: 3600, End: 7200, NodeCount: 1, Users: []string{"root"}, Flags: []string{"maint"}})
	show := func() string {
		var list api.AdvResvsResponse
		if err := h.call(0, api.PathAdvResvList, api.ResvQuery{}, &list); err != nil || len(list.Reservations) != 1 {
			t.Fatalf("list: %v %+v", err, list)
		}
		r := list.Reservations[0]
		return r.Partition + " " + strings.Join(r.Flags, ",")
	}
	got := []string{show()}
	dur := int64(600)
	if err := h.call(0, api.PathAdvResvUpdate, api.AdvResvUpdate{Name: "c", Duration: &dur}, nil); err != nil {
		t.Fatal(err)
	}
	got = append(got, show())
	nodes := "n02"
	if err := h.call(0, api.PathAdvResvUpdate, api.AdvResvUpdate{Name: "c", Nodes: &nodes}, nil); err != nil {
		t.Fatal(err)
	}
	got = append(got, show())
	if diff := cmp.Diff([]string{"normal MAINT", "normal MAINT", "normal MAINT,SPEC_NODES"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestAdvResvDurationChange: Duration+=/-= moves the end, as the peer's
// d6 went from 30 to 45 and 40 minutes; an end before the start is
// "Invalid time specified".
func TestAdvResvDurationChange(t *testing.T) {
	h := newHarness(t)
	h.startWithAdv(api.AdvResvSpec{Name: "d6", Start: 3600, End: 3600 + 1800, Nodes: "n01", Users: []string{"root"}})
	change := func(secs int64) api.Code {
		return codeOf(h.call(0, api.PathAdvResvUpdate, api.AdvResvUpdate{Name: "d6", DurationChange: &secs}, nil))
	}
	got := []api.Code{change(900), change(-300), change(-6000)}
	if diff := cmp.Diff([]api.Code{"", "", api.CodeInvalidTimeValue}, got); diff != "" {
		t.Errorf("codes (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"d6 n01 40m0s"}, h.advList()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
