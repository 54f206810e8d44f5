package controller

import (
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// newAccessHarness adds a hidden partition and one open to group hpc only,
// alice's group; bob's is not.
func newAccessHarness(t *testing.T) *harness {
	h := newHarness(t)
	appendConf(t, h, "PartitionName=secret Nodes=ALL Hidden=YES\nPartitionName=ops Nodes=ALL AllowGroups=hpc\n")
	h.restart()
	h.c.users.groups[alice] = "hpc" // the harness mints credentials with gid = uid
	return h
}

// tableAs lists the job ids of the compact listing (squeue) for uid.
func (h *harness) tableAs(uid uint32, q api.JobQuery) []uint32 {
	h.t.Helper()
	var ids []uint32
	for _, row := range h.tableRawAs(uid, q).Rows {
		n, _ := strconv.ParseUint(row[0], 10, 32)
		ids = append(ids, uint32(n))
	}
	return ids
}

// TestAllowGroupsAtSubmit: the peer refuses a user outside AllowGroups with
// "User's group not permitted to use this partition" without using up a
// job id (20300, refused, 20301), drops the partition from a list that has
// another, and lets root in.
func TestAllowGroupsAtSubmit(t *testing.T) {
	h := newAccessHarness(t)
	in := func(parts ...string) job.Request {
		return simpleJob(func(r *job.Request) { r.Partitions = parts })
	}
	first := h.mustSubmit(bob, in("normal"))
	if _, err := h.submit(bob, in("ops")); err == nil || err.Code != api.CodePartitionGroup ||
		err.Message != "User's group not permitted to use this partition" {
		t.Errorf("bob to ops: %v, want the peer's refusal", err)
	}
	id := h.mustSubmit(bob, in("ops", "normal"))
	if id != first+1 {
		t.Errorf("job id after the refusal %d, want %d", id, first+1)
	}
	if got := h.job(strconv.Itoa(int(id))).Partition; got != "normal" {
		t.Errorf("bob to ops,normal runs in %q, want normal", got)
	}
	h.mustSubmit(alice, in("ops"))
	h.mustSubmit(0, in("ops"))
	h.mustSubmit(bob, in("secret")) // hidden is not closed
}

// TestHiddenPartitionsListing: sinfo and scontrol leave a partition out
// for a user it is hidden from (Hidden=YES, or AllowGroups without them),
// root and SlurmUser see all; HiddenFromCaller says which.
func TestHiddenPartitionsListing(t *testing.T) {
	h := newAccessHarness(t)
	hiddenFor := func(uid uint32) []string {
		var out api.PartitionsResponse
		if err := h.raw(uid, "GET", api.PathPartitions, nil, &out); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, p := range out.Partitions {
			if p.HiddenFromCaller {
				names = append(names, p.Name)
			}
		}
		return names
	}
	got := map[string][]string{"root": hiddenFor(0), "alice": hiddenFor(alice), "bob": hiddenFor(bob)}
	want := map[string][]string{"root": nil, "alice": {"secret"}, "bob": {"secret", "ops"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("hidden partitions per user (-want +got):\n%s", diff)
	}
}

// TestHiddenJobsListing: as on the peer, a job whose partitions are all
// hidden from the user is left out of squeue and scontrol show job, even
// the user's own, unless the query asks for all, names the job or names a
// partition; a job with one visible partition is listed.
func TestHiddenJobsListing(t *testing.T) {
	h := newAccessHarness(t)
	hold := func(parts ...string) job.Request {
		return simpleJob(func(r *job.Request) { r.Partitions, r.Hold = parts, true })
	}
	inSecret := h.mustSubmit(bob, hold("secret"))
	inOps := h.mustSubmit(alice, hold("ops"))
	both := h.mustSubmit(bob, hold("secret", "normal"))
	listed := func(uid uint32, q api.JobQuery) []uint32 {
		var out api.JobsResponse
		if err := h.call(uid, api.PathJobs, q, &out); err != nil {
			t.Fatal(err)
		}
		var ids []uint32
		for _, j := range out.Jobs {
			ids = append(ids, j.JobID)
		}
		table := h.tableAs(uid, api.JobQuery{JobIDs: q.JobIDs, Partitions: q.Partitions, All: q.All, Fields: []string{"job_id"}})
		if !slices.Equal(ids, table) {
			t.Errorf("uid %d %+v: full records %v, table %v", uid, q, ids, table)
		}
		return ids
	}
	ref := func(id uint32) []string { return []string{strconv.Itoa(int(id))} }
	got := map[string][]uint32{
		"bob":             listed(bob, api.JobQuery{}),
		"bob -a":          listed(bob, api.JobQuery{All: true}),
		"bob by id":       listed(bob, api.JobQuery{JobIDs: ref(inOps)}),
		"bob -p secret":   listed(bob, api.JobQuery{Partitions: []string{"secret"}}),
		"alice":           listed(alice, api.JobQuery{}),
		"root":            listed(0, api.JobQuery{}),
		"alice by id own": listed(alice, api.JobQuery{JobIDs: ref(inSecret)}),
	}
	want := map[string][]uint32{
		"bob":             {both},
		"bob -a":          {inSecret, inOps, both},
		"bob by id":       {inOps},
		"bob -p secret":   {inSecret, both},
		"alice":           {inOps, both},
		"root":            {inSecret, inOps, both},
		"alice by id own": {inSecret},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("jobs listed (-want +got):\n%s", diff)
	}
}

// TestAllowGroupsAtUpdate: moving a pending job into a partition its user
// may not use is refused with the peer's code (the peer then moves the job
// anyway; Loam leaves it where it was).
func TestAllowGroupsAtUpdate(t *testing.T) {
	h := newAccessHarness(t)
	id := strconv.Itoa(int(h.mustSubmit(bob, simpleJob(func(r *job.Request) { r.Hold = true }))))
	ops := "ops"
	var out api.JobResults
	if err := h.call(bob, api.PathUpdate, api.UpdateRequest{JobIDs: []string{id}, Update: api.JobUpdate{Partition: &ops}}, &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Results) != 1 || out.Results[0].Error == nil || out.Results[0].Error.Code != api.CodePartConfigUnavailable {
		t.Errorf("bob moves his job to ops: %+v, want %s", out.Results, api.CodePartConfigUnavailable)
	}
	if got := h.job(id).Partition; got != "normal" {
		t.Errorf("the job is in %q, want it left in normal", got)
	}
}
