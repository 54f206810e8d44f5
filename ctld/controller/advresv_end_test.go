package controller

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// mkResv creates a reservation of root on n01 from now for d.
func (h *harness) mkResv(name string, d time.Duration, mods ...func(*api.AdvResvSpec)) {
	h.t.Helper()
	now := h.clock.Now().Unix()
	s := api.AdvResvSpec{Name: name, Start: now, End: now + int64(d/time.Second), Nodes: "n01", Users: []string{"root"},
		Flags: []string{"OVERLAP", "IGNORE_JOBS"}}
	for _, m := range mods {
		m(&s)
	}
	if err := h.call(0, api.PathAdvResvCreate, s, nil); err != nil {
		h.t.Fatalf("create %s: %v", name, err)
	}
}

func (h *harness) updateJob(uid uint32, id uint32, u api.JobUpdate) *api.Error {
	h.t.Helper()
	var out api.JobResults
	if err := h.call(uid, api.PathUpdate, api.UpdateRequest{JobIDs: []string{fmt.Sprint(id)}, Update: u}, &out); err != nil {
		return err
	}
	for _, r := range out.Results {
		if r.Error != nil {
			return r.Error
		}
	}
	return nil
}

// TestAdvResvUpdateJob: scontrol update job ReservationName=, with the
// peer's answers (testdata/peer/advresv/update_job.txt in tools/command).
func TestAdvResvUpdateJob(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	h.mkResv("open", time.Hour)
	h.mkResv("nobodys", time.Hour, func(s *api.AdvResvSpec) { s.Users = []string{"nobody"} })
	pend := h.mustSubmit(0, simpleJob(func(r *job.Request) { r.Hold = true }))
	run := h.mustSubmit(0, simpleJob())
	h.cycle()
	h.waitState(fmt.Sprint(run), job.Running)
	str := func(s string) *string { return &s }
	steps := []struct {
		name string
		id   uint32
		resv string
		want api.Code
		show string
	}{
		{"an unknown reservation", pend, "nosuch", api.CodeReservationInvalid, ""},
		{"one the user may not use", pend, "nobodys", api.CodeReservationAccess, ""},
		{"a pending job takes it", pend, "open", "", "open"},
		{"a running job too", run, "open", "", "open"},
		{"a running job is checked as well", run, "nobodys", api.CodeReservationAccess, "open"},
		{"empty leaves it", run, "", "", ""},
	}
	for _, st := range steps {
		err := h.updateJob(0, st.id, api.JobUpdate{Reservation: str(st.resv)})
		if got := codeOf(err); got != st.want {
			t.Errorf("%s: code %q, want %q", st.name, got, st.want)
		}
		if got := h.job(fmt.Sprint(st.id)).Reservation; got != st.show {
			t.Errorf("%s: the job shows reservation %q, want %q", st.name, got, st.show)
		}
	}
	// A reservation a job names cannot be deleted (pending or running).
	if err := h.call(0, api.PathAdvResvDelete, api.AdvResvDelete{Name: "open"}, nil); codeOf(err) != api.CodeReservationInUse {
		t.Errorf("delete in use: %v, want %s", err, api.CodeReservationInUse)
	}
	if err := h.updateJob(0, pend, api.JobUpdate{Reservation: str("")}); err != nil {
		t.Fatal(err)
	}
	if err := h.call(0, api.PathAdvResvDelete, api.AdvResvDelete{Name: "open"}, nil); err != nil {
		t.Errorf("delete once no job names it: %v", err)
	}
}

// TestAdvResvEndsItsJobs: at the end (ResvOverRun 0) the running job ends
// as TIMEOUT; the reservation stays until it has ended, then goes, and
// the pending job is held as RESV_DEL_HOLD (the peer's resv_end.txt).
func TestAdvResvEndsItsJobs(t *testing.T) {
	h := newHarness(t)
	appendConf(t, h, "SlurmdTimeout=0\n") // the clock jumps past heartbeats
	h.restart()
	n := h.node("n01")
	n.AutoEnd = true
	h.mkResv("r", 10*time.Minute)
	run := h.mustSubmit(0, simpleJob(func(r *job.Request) { r.Reservation = "r" }))
	h.cycle()
	h.waitState(fmt.Sprint(run), job.Running)
	pend := h.mustSubmit(0, simpleJob(func(r *job.Request) { r.Reservation = "r"; r.Dependency = fmt.Sprintf("afterok:%d", run) }))

	h.tick(10 * time.Minute) // the end itself: Slurm waits until it has passed
	if j := h.job(fmt.Sprint(run)); j.JobState != job.Running {
		t.Fatalf("at the end: %s, want RUNNING", j.JobState)
	}
	h.tick(time.Second)
	j := h.waitState(fmt.Sprint(run), job.Timeout)
	if j.StateReason != job.ReasonTimeLimit {
		t.Errorf("reason %s, want TimeLimit", j.StateReason)
	}
	if terms := n.Terminations(); len(terms) != 1 || terms[0].Reason != api.TerminateTimeout {
		t.Errorf("terminations %+v, want one for the time limit", terms)
	}
	h.tick(time.Second)
	if got := h.advList(); len(got) != 0 {
		t.Errorf("reservations after its job ended: %v, want none", got)
	}
	p := h.job(fmt.Sprint(pend))
	got := []any{p.JobState, p.StateReason, p.StateDescription, p.Reservation, p.Priority}
	want := []any{job.ResvDelHold, job.ReasonReservationDeleted, "Reservation r was deleted", "", int64(0)}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pending job (-want +got):\n%s", diff)
	}
	// squeue -t RD finds it, -t PD does not, as on the peer.
	for state, n := range map[job.State]int{job.ResvDelHold: 1, job.Pending: 0} {
		var out api.JobsResponse
		if err := h.call(0, api.PathJobs, api.JobQuery{States: []string{string(state)}}, &out); err != nil || len(out.Jobs) != n {
			t.Errorf("jobs in state %s: %d (%v), want %d", state, len(out.Jobs), err, n)
		}
	}
	// An operator's release lets it run anywhere.
	if err := h.call(0, api.PathRelease, api.ReleaseRequest{JobIDs: []string{fmt.Sprint(pend)}}, nil); err != nil {
		t.Fatalf("release: %v", err)
	}
	if p := h.job(fmt.Sprint(pend)); p.JobState != job.Pending || p.StateDescription != "" {
		t.Errorf("released: %s %q, want PENDING without the description", p.JobState, p.StateDescription)
	}
}

// TestAdvResvOverRun: with ResvOverRun=5 the job runs on for five minutes
// past the end; with UNLIMITED for ever, the reservation shown INACTIVE.
func TestAdvResvOverRun(t *testing.T) {
	for name, tc := range map[string]struct {
		line     string
		endsJob  bool
		listedAt string
	}{
		"five minutes": {"ResvOverRun=5\n", true, ""},
		"UNLIMITED":    {"ResvOverRun=UNLIMITED\n", false, "r n01 10m0s"},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			appendConf(t, h, tc.line+"SlurmdTimeout=0\n") // the clock jumps past heartbeats
			h.restart()
			n := h.node("n01")
			n.AutoEnd = true
			h.mkResv("r", 10*time.Minute)
			run := h.mustSubmit(0, simpleJob(func(r *job.Request) { r.Reservation = "r"; r.TimeLimit = ptrDur(time.Hour) }))
			h.cycle()
			h.waitState(fmt.Sprint(run), job.Running)
			h.tick(15 * time.Minute)
			if j := h.job(fmt.Sprint(run)); j.JobState != job.Running {
				t.Fatalf("at end+overrun: %s, want RUNNING", j.JobState)
			}
			h.tick(time.Second)
			if !tc.endsJob {
				if j := h.job(fmt.Sprint(run)); j.JobState != job.Running {
					t.Errorf("past the end: %s, want RUNNING", j.JobState)
				}
				if diff := cmp.Diff([]string{tc.listedAt}, h.advList()); diff != "" {
					t.Errorf("reservations (-want +got):\n%s", diff)
				}
				return
			}
			h.waitState(fmt.Sprint(run), job.Timeout)
		})
	}
}

func appendConf(t *testing.T, h *harness, line string) {
	t.Helper()
	f, err := os.OpenFile(h.conf, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line); err != nil {
		t.Fatal(err)
	}
}

func ptrDur(d time.Duration) *time.Duration { return &d }

// TestAdvResvUpdateEdits: Users=+/-, Accounts=+/-, Flags=+/- in update
// reservation, the peer's sequence (update_edits.txt in tools/command).
func TestAdvResvUpdateEdits(t *testing.T) {
	h := newHarness(t)
	h.mkResv("b", time.Hour, func(s *api.AdvResvSpec) { s.Users, s.Flags = []string{"nobody"}, nil })
	steps := []struct {
		name string
		u    api.AdvResvUpdate
		want api.Code
		show string // users / accounts / flags after
	}{
		{"+ a user it has", api.AdvResvUpdate{Users: &[]string{"+nobody"}}, "", "nobody /  / SPEC_NODES"},
		{"- a user it lacks", api.AdvResvUpdate{Users: &[]string{"-root"}}, "", "nobody /  / SPEC_NODES"},
		{"+ an account", api.AdvResvUpdate{Accounts: &[]string{"+acctx"}}, "", "nobody / acctx / SPEC_NODES"},
		{"- it again", api.AdvResvUpdate{Accounts: &[]string{"-acctx"}}, "", "nobody /  / SPEC_NODES"},
		{"- on an empty list denies", api.AdvResvUpdate{Accounts: &[]string{"-acctx"}}, "", "nobody / -acctx / SPEC_NODES"},
		{"+ ends the deny list", api.AdvResvUpdate{Accounts: &[]string{"+acctx", "+accty"}}, "", "nobody / acctx,accty / SPEC_NODES"},
		{"+ and - together", api.AdvResvUpdate{Users: &[]string{"+daemon", "-nobody"}}, "", "daemon / acctx,accty / SPEC_NODES"},
		{"an unknown user", api.AdvResvUpdate{Users: &[]string{"+nosuchuser-s12h"}}, api.CodeUserIDMissing, "daemon / acctx,accty / SPEC_NODES"},
		{"- an account it lacks", api.AdvResvUpdate{Accounts: &[]string{"+a1", "-a2"}}, api.CodeInvalidAccount, "daemon / acctx,accty / SPEC_NODES"},
		{"a plain name after a sign", api.AdvResvUpdate{Users: &[]string{"+root", "daemon"}}, api.CodeUserIDMissing, "daemon / acctx,accty / SPEC_NODES"},
		{"plain names replace", api.AdvResvUpdate{Accounts: &[]string{""}}, "", "daemon /  / SPEC_NODES"},
		{"nobody left", api.AdvResvUpdate{Users: &[]string{"-daemon"}}, api.CodeReservationEmpty, "daemon /  / SPEC_NODES"},
		{"+MAINT", api.AdvResvUpdate{Flags: &[]string{"+MAINT"}}, "", "daemon /  / MAINT,SPEC_NODES"},
		{"a plain flag adds", api.AdvResvUpdate{Flags: &[]string{"+OVERLAP"}}, "", "daemon /  / MAINT,OVERLAP,SPEC_NODES"},
		{"-MAINT", api.AdvResvUpdate{Flags: &[]string{"-MAINT"}}, "", "daemon /  / OVERLAP,SPEC_NODES"},
		{"clearing a flag Loam never sets", api.AdvResvUpdate{Flags: &[]string{"-FLEX"}}, "", "daemon /  / OVERLAP,SPEC_NODES"},
		{"FLEX is refused", api.AdvResvUpdate{Flags: &[]string{"+FLEX"}}, api.CodeNotSupported, "daemon /  / OVERLAP,SPEC_NODES"},
		{"+DAILY", api.AdvResvUpdate{Flags: &[]string{"+DAILY"}}, "", "daemon /  / OVERLAP,DAILY,SPEC_NODES"},
		{"WEEKLY is added to DAILY, as on the peer", api.AdvResvUpdate{Flags: &[]string{"WEEKLY"}}, "", "daemon /  / OVERLAP,DAILY,WEEKLY,SPEC_NODES"},
		{"-DAILY", api.AdvResvUpdate{Flags: &[]string{"-DAILY"}}, "", "daemon /  / OVERLAP,WEEKLY,SPEC_NODES"},
	}
	for _, st := range steps {
		st.u.Name = "b"
		if got := codeOf(h.call(0, api.PathAdvResvUpdate, st.u, nil)); got != st.want {
			t.Errorf("%s: code %q, want %q", st.name, got, st.want)
		}
		var out api.AdvResvsResponse
		if err := h.call(0, api.PathAdvResvList, api.ResvQuery{}, &out); err != nil || len(out.Reservations) != 1 {
			t.Fatalf("list: %v %v", out, err)
		}
		r := out.Reservations[0]
		if got := join(r.Users) + " / " + join(r.Accounts) + " / " + join(r.Flags); got != st.show {
			t.Errorf("%s: %q, want %q", st.name, got, st.show)
		}
	}
}

func join(l []string) string {
	out := ""
	for i, s := range l {
		if i > 0 {
			out += ","
		}
		out += s
	}
	return out
}

// TestAdvResvDenyListAdmits: a deny list lets in everyone it does not
// name; both lists must let a job in; Groups= lets in their members.
func TestAdvResvDenyListAdmits(t *testing.T) {
	tests := map[string]struct {
		users, accounts, groups []string
		user, account           string
		userGroups              []string
		want                    bool
	}{
		"named user":                 {[]string{"root"}, nil, nil, "root", "a", nil, true},
		"other user":                 {[]string{"root"}, nil, nil, "bob", "a", nil, false},
		"denied user":                {[]string{"-bob"}, nil, nil, "bob", "a", nil, false},
		"user not denied":            {[]string{"-bob"}, nil, nil, "root", "a", nil, true},
		"denied account":             {nil, []string{"-a", "-b"}, nil, "root", "b", nil, false},
		"both lists must admit":      {[]string{"root"}, []string{"x"}, nil, "root", "a", nil, false},
		"no list admits nobody else": {nil, nil, nil, "root", "a", nil, false},
		"group member":               {nil, nil, []string{"wheel"}, "bob", "a", []string{"bob", "wheel"}, true},
		"not a group member":         {nil, nil, []string{"wheel"}, "bob", "a", []string{"bob"}, false},
		"group and account":          {nil, []string{"x"}, []string{"wheel"}, "bob", "a", []string{"wheel"}, false},
	}
	for name, tc := range tests {
		r := advResv{Users: tc.users, Accounts: tc.accounts, Groups: tc.groups}
		if got := r.allows(tc.user, tc.account, tc.userGroups); got != tc.want {
			t.Errorf("%s: allows %v, want %v", name, got, tc.want)
		}
	}
}

// TestAdvResvCreateDenyList: Users=-name at creation is a deny list;
// mixing denied and named entries is refused, as Slurm does.
func TestAdvResvCreateDenyList(t *testing.T) {
	h := newHarness(t)
	now := h.clock.Now().Unix()
	for name, tc := range map[string]struct {
		users, accounts []string
		want            api.Code
	}{
		"denied users":          {[]string{"-nobody"}, nil, ""},
		"denied accounts":       {nil, []string{"-a1", "-a2"}, ""},
		"users mixed":           {[]string{"-nobody", "root"}, nil, api.CodeUserIDMissing},
		"accounts mixed":        {nil, []string{"a1", "-a2"}, api.CodeInvalidAccount},
		"an unknown denied one": {[]string{"-nosuchuser-s12h"}, nil, api.CodeUserIDMissing},
	} {
		s := api.AdvResvSpec{Name: "d", Start: now, End: now + 60, Nodes: "n02", Users: tc.users, Accounts: tc.accounts,
			Flags: []string{"OVERLAP"}}
		if got := codeOf(h.call(0, api.PathAdvResvCreate, s, nil)); got != tc.want {
			t.Errorf("%s: code %q, want %q", name, got, tc.want)
		}
		_ = h.call(0, api.PathAdvResvDelete, api.AdvResvDelete{Name: "d"}, nil)
	}
}
