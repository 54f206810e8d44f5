package controller

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestFixedPriorityLife follows one job through what the Slurm 22.05 peer
// does with scontrol update Priority=N (checked there as root and as a
// plain user): an operator pins the value and resets nice; the owner may
// not raise it ("Access/permission denied") nor lower it for good
// ("Changes to job priority are not persistent, change nice instead");
// a nice change is then ignored; the pin survives a controller restart
// and scheduling cycles; an operator's scontrol release of the unheld job
// makes it computed again. No node is up, so the job stays pending.
func TestFixedPriorityLife(t *testing.T) {
	h := newHarness(t)
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Nice = ptr(10) }))
	ids := []string{fmt.Sprint(id)}
	h.cycle()
	update := func(uid uint32, u api.JobUpdate) string {
		return string(firstErr(results(t, h, uid, api.PathUpdate, api.UpdateRequest{JobIDs: ids, Update: u})))
	}
	type step struct{ err, shown string }
	shown := func(err string) step {
		j := h.job(ids[0])
		return step{err, fmt.Sprintf("prio=%d nice=%d", j.Priority, j.Nice)}
	}
	got := []step{shown("")}
	got = append(got, shown(update(0, api.JobUpdate{Priority: ptr(int64(555))})))
	got = append(got, shown(update(alice, api.JobUpdate{Priority: ptr(int64(50000))})))
	got = append(got, shown(update(alice, api.JobUpdate{Priority: ptr(int64(5))})))
	got = append(got, shown(update(0, api.JobUpdate{Nice: ptr(100)})))
	h.restart()
	h.cycle()
	got = append(got, shown(""))
	if rs := results(t, h, 0, api.PathRelease, api.ReleaseRequest{JobIDs: ids}); firstErr(rs) != "" {
		t.Fatalf("release: %+v", rs)
	}
	h.cycle()
	got = append(got, shown(""))
	want := []step{
		{"", "prio=1 nice=10"},
		{"", "prio=555 nice=0"},
		{string(api.CodeAccessDenied), "prio=555 nice=0"},
		{string(api.CodePrioResetFail), "prio=555 nice=0"},
		{"", "prio=555 nice=0"},
		{"", "prio=555 nice=0"},
		{"", "prio=1 nice=0"},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(step{})); diff != "" {
		t.Errorf("pinned job (-want +got):\n%s", diff)
	}
}

// TestFixedPriorityHoldAndSubmit: --priority pins a job an operator
// submits and is dropped from others' (the peer: a user's
// --priority=900 job shows the computed priority); a hold unpins it
// (the peer: after scontrol hold and release the priority is computed);
// Priority=0 holds; a held job takes no other priority ("Job is in held
// state, pending scheduler release").
func TestFixedPriorityHoldAndSubmit(t *testing.T) {
	h := newHarness(t)
	withPrio := func(r *job.Request) { r.Priority = ptr(int64(777)) }
	root := h.mustSubmit(0, simpleJob(withPrio))
	user := h.mustSubmit(alice, simpleJob(withPrio))
	h.cycle()
	prio := func(id uint32) int64 { return h.job(fmt.Sprint(id)).Priority }
	if p, q := prio(root), prio(user); p != 777 || q != 1 {
		t.Fatalf("priorities after submit: root's %d, alice's %d; want 777 and 1", p, q)
	}
	ids := []string{fmt.Sprint(root)}
	for _, path := range []string{api.PathHold, api.PathRelease} {
		if rs := results(t, h, 0, path, api.HoldRequest{JobIDs: ids}); firstErr(rs) != "" {
			t.Fatalf("%s: %+v", path, rs)
		}
	}
	h.cycle()
	if p := prio(root); p != 1 {
		t.Errorf("after hold and release: priority %d, want 1 (computed)", p)
	}
	update := func(p int64) api.Code {
		return firstErr(results(t, h, 0, api.PathUpdate, api.UpdateRequest{JobIDs: ids, Update: api.JobUpdate{Priority: &p}}))
	}
	if c := update(900); c != "" || prio(root) != 900 {
		t.Fatalf("Priority=900: %q, priority %d", c, prio(root))
	}
	if c := update(0); c != "" || h.job(ids[0]).StateReason != job.ReasonJobHeldAdmin {
		t.Fatalf("Priority=0: %q, reason %s", c, h.job(ids[0]).StateReason)
	}
	if c := update(50); c != api.CodeJobHeld {
		t.Errorf("Priority=50 on a held job: %q, want %s", c, api.CodeJobHeld)
	}
	// The peer: a user's own Priority=0 holds the job (JobHeldUser).
	rs := results(t, h, alice, api.PathUpdate, api.UpdateRequest{JobIDs: []string{fmt.Sprint(user)}, Update: api.JobUpdate{Priority: ptr(int64(0))}})
	if c, r := firstErr(rs), h.job(fmt.Sprint(user)).StateReason; c != "" || r != job.ReasonJobHeldUser {
		t.Errorf("alice's Priority=0: %q, reason %s; want a user hold", c, r)
	}
}
