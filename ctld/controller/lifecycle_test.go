package controller

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestArrayTasks: an array is one record until its tasks start; started
// tasks get new ids, the last keeps the array's id (as Slurm); a pending
// task cancelled alone leaves the record's list and keeps no record (nor
// an id) of its own, as slurmctld's job_str_signal does.
func TestArrayTasks(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Array = "0-3%2"; r.CPUsPerTask = 4 }))
	j := h.job(fmt.Sprint(id))
	// The throttle is ArrayMaxTasks; the commands print it ("0-3%2").
	if j.ArrayTaskString != "0-3" || j.ArrayMaxTasks != 2 || j.ArrayTaskCount != 4 || j.ArrayJobID != id || j.ArrayTaskID != nil {
		t.Fatalf("pending array record %+v", j)
	}
	if j.StdOut != "/tmp/slurm-1_4294967294.out" && j.StdOut != "/tmp/slurm-%A_%a.out" && !strings.HasPrefix(j.StdOut, "/tmp/slurm-1_") {
		t.Errorf("array stdout %q", j.StdOut)
	}
	rs := results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprintf("%d_3", id)}}})
	if firstErr(rs) != "" {
		t.Fatalf("cancel of one task: %+v", rs)
	}
	if j := h.job(fmt.Sprint(id) + "_[0-2]"); j.ArrayTaskString != "0-2" {
		t.Errorf("after cancelling task 3 the record holds %q", j.ArrayTaskString)
	}
	h.cycle() // two 4-CPU tasks fill n01's 8 CPUs
	tbl := h.tableRawAs(0, api.JobQuery{JobIDs: []string{fmt.Sprint(id)}, Fields: []string{"job_id", "array_task_id", "array_task_string", "job_state"}})
	got := fmt.Sprint(tbl.Rows)
	// Tasks 0 and 1 took the next ids when they started. The record left
	// with task 2 alone shows as that task, as slurmctld's
	// job_array_post_sched makes it.
	want := fmt.Sprintf("[[%d 2  PENDING] [%d 0  RUNNING] [%d 1  RUNNING]]", id, id+1, id+2)
	if got != want {
		t.Errorf("array rows\n got %s\nwant %s", got, want)
	}
	n.End(id+1, job.ExitCode{})
	h.waitState(fmt.Sprint(id+1), job.Completed)
	h.cycle()
	j = h.waitState(fmt.Sprint(id), job.Running)
	if j.ArrayTaskID == nil || *j.ArrayTaskID != 2 || j.ArrayTaskString != "" {
		t.Errorf("last task kept the array id: task %v string %q", j.ArrayTaskID, j.ArrayTaskString)
	}
	l := n.Launch(t, id, 5*time.Second)
	if l.ArrayJobID != id || l.ArrayTaskID == nil || *l.ArrayTaskID != 2 || l.ArrayTaskCount != 4 || l.ArrayTaskMax != 3 {
		t.Errorf("launch of the last task %+v", l)
	}
}

// tableRawAs is the compact listing (squeue) as user uid sees it.
func (h *harness) tableRawAs(uid uint32, q api.JobQuery) *api.JobTable {
	h.t.Helper()
	var tbl api.JobTable
	if err := h.call(uid, api.PathJobTable, q, &tbl); err != nil {
		h.t.Fatal(err)
	}
	return &tbl
}

// TestDependencies: afterok releases on success, never on failure (or
// cancels with --kill-on-invalid-dep); afternotok the other way round.
func TestDependencies(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	first := h.mustSubmit(alice, simpleJob())
	ok := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Dependency = fmt.Sprintf("afterok:%d", first) }))
	notok := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Dependency = fmt.Sprintf("afternotok:%d", first) }))
	kill := h.mustSubmit(alice, simpleJob(func(r *job.Request) {
		r.Dependency = fmt.Sprintf("afternotok:%d", first)
		k := true
		r.KillOnInvalidDep = &k
	}))
	any := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Dependency = fmt.Sprintf("afterany:%d", first) }))
	for _, id := range []uint32{ok, notok, kill, any} {
		if j := h.job(fmt.Sprint(id)); j.StateReason != job.ReasonDependency || j.Dependency == "" {
			t.Errorf("job %d: reason %s dependency %q", id, j.StateReason, j.Dependency)
		}
	}
	if j := h.job(fmt.Sprint(ok)); j.Dependency != fmt.Sprintf("afterok:%d(unfulfilled)", first) {
		t.Errorf("dependency shown as %q", j.Dependency)
	}
	h.cycle()
	n.Launch(t, first, 5*time.Second)
	n.End(first, job.ExitCode{})
	h.waitState(fmt.Sprint(first), job.Completed)
	want := map[uint32]struct {
		state  job.State
		reason job.Reason
	}{
		ok:    {job.Pending, job.ReasonNone},
		notok: {job.Pending, job.ReasonDependencyNeverSatisfied},
		kill:  {job.Cancelled, job.ReasonDependencyNeverSatisfied},
		any:   {job.Pending, job.ReasonNone},
	}
	for id, w := range want {
		if j := h.job(fmt.Sprint(id)); j.JobState != w.state || j.StateReason != w.reason {
			t.Errorf("job %d: %s %s, want %s %s", id, j.JobState, j.StateReason, w.state, w.reason)
		}
	}
	// A dependency on a job that left the live table is still judged.
	h.tick(10 * time.Minute) // past MinJobAge
	late := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Dependency = fmt.Sprintf("afterok:%d", first) }))
	if j := h.job(fmt.Sprint(late)); j.StateReason == job.ReasonDependency {
		t.Errorf("dependency on a purged completed job still waits")
	}
	// A cycle through an update is refused.
	rs := results(t, h, alice, api.PathUpdate, api.UpdateRequest{JobIDs: []string{fmt.Sprint(any)}, Update: api.JobUpdate{Dependency: ptr(fmt.Sprintf("afterany:%d", late))}})
	if firstErr(rs) != "" {
		t.Fatalf("update: %+v", rs)
	}
	rs = results(t, h, alice, api.PathUpdate, api.UpdateRequest{JobIDs: []string{fmt.Sprint(late)}, Update: api.JobUpdate{Dependency: ptr(fmt.Sprintf("afterany:%d", any))}})
	if firstErr(rs) != api.CodeCircularDependency {
		t.Errorf("circular dependency: %+v", rs)
	}
}

// TestNodeTimeout: a node silent past SlurmdTimeout goes DOWN, its
// requeueable jobs go back to the queue and the others NODE_FAIL; it comes
// back when it registers again.
func TestNodeTimeout(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	requeue := h.mustSubmit(alice, simpleJob())
	fail := h.mustSubmit(alice, simpleJob(func(r *job.Request) { f := false; r.Requeue = &f }))
	h.cycle()
	n.Launch(t, requeue, 5*time.Second)
	n.Launch(t, fail, 5*time.Second)
	n.Stop()
	h.tick(2 * time.Minute)
	var nodes api.NodesResponse
	h.call(0, api.PathNodes, api.NodeQuery{Nodes: []string{"n01"}}, &nodes)
	if len(nodes.Nodes) != 1 || nodes.Nodes[0].State != api.NodeDown || nodes.Nodes[0].Reason != "Not responding" {
		t.Fatalf("silent node: %+v", nodes.Nodes)
	}
	if j := h.job(fmt.Sprint(requeue)); j.JobState != job.Pending || j.Restarts != 1 {
		t.Errorf("requeueable job: %s restarts %d", j.JobState, j.Restarts)
	}
	if j := h.job(fmt.Sprint(fail)); j.JobState != job.NodeFail {
		t.Errorf("--no-requeue job: %s", j.JobState)
	}
	n2 := h.node("n01") // the daemon comes back
	_ = n2
	h.call(0, api.PathNodes, api.NodeQuery{Nodes: []string{"n01"}}, &nodes)
	if nodes.Nodes[0].State == api.NodeDown {
		t.Errorf("node still down after registering again (ReturnToService): %+v", nodes.Nodes[0])
	}
}

// TestDependentJobEligibleWhenMet: a job waiting on a dependency is not
// eligible (EligibleTime and AccrueTime Unknown, as the peer shows them)
// until the dependency is met.
func TestDependentJobEligibleWhenMet(t *testing.T) {
	h := newHarness(t)
	first := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	dep := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Dependency = fmt.Sprintf("afterany:%d", first) }))
	if j := h.job(fmt.Sprint(dep)); j.EligibleTime != 0 || j.AccrueTime != 0 {
		t.Errorf("waiting on a dependency: eligible %d, accrue %d; want both unknown", j.EligibleTime, j.AccrueTime)
	}
	h.tick(time.Minute)
	if rs := results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(first)}}}); firstErr(rs) != "" {
		t.Fatalf("cancel: %+v", rs)
	}
	h.cycle()
	if j := h.job(fmt.Sprint(dep)); j.EligibleTime <= j.SubmitTime {
		t.Errorf("dependency met a minute after submission: eligible %d, submitted %d", j.EligibleTime, j.SubmitTime)
	}
}

// TestDrainOutlivesNotResponding: a drained node that stops answering
// (a controller or daemon restart) is down with its drain reason kept, and
// when it registers again (ReturnToService) it is drained, not idle.
func TestDrainOutlivesNotResponding(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	var out api.NodeUpdateResponse
	if err := h.call(0, api.PathNodeUpdate, api.NodeUpdateRequest{Nodes: "n01", State: "drain", Reason: "disk swap"}, &out); err != nil {
		t.Fatal(err)
	}
	n.Stop()
	h.tick(2 * time.Minute)
	var nodes api.NodesResponse
	h.call(0, api.PathNodes, api.NodeQuery{Nodes: []string{"n01"}}, &nodes)
	if got := nodes.Nodes[0]; got.State != api.NodeDown || got.Reason != "disk swap" {
		t.Errorf("silent drained node: %s %q, want DOWN with the drain's reason", got.State, got.Reason)
	}
	h.node("n01") // the daemon comes back
	h.call(0, api.PathNodes, api.NodeQuery{Nodes: []string{"n01"}}, &nodes)
	got := nodes.Nodes[0]
	if got.State == api.NodeDown || got.Reason != "disk swap" || !slices.Contains(got.StateFlags, api.FlagDrain) {
		t.Errorf("registered again: %s %v %q, want drained with its reason", got.State, got.StateFlags, got.Reason)
	}
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	if j := h.job(fmt.Sprint(id)); j.JobState != job.Pending {
		t.Errorf("a job started on the drained node after it came back")
	}
}

// TestNodeDrainResume: drain keeps running jobs but starts nothing new.
func TestNodeDrainResume(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	var out api.NodeUpdateResponse
	if err := h.call(alice, api.PathNodeUpdate, api.NodeUpdateRequest{Nodes: "n01", State: "drain", Reason: "x"}, &out); err == nil || err.Code != api.CodeUserIDMissing {
		t.Errorf("drain by a user: %v", err)
	}
	if err := h.call(0, api.PathNodeUpdate, api.NodeUpdateRequest{Nodes: "n01", State: "drain"}, &out); err == nil || err.Code != api.CodeInvalidNodeState {
		t.Errorf("drain without a reason: %v", err)
	}
	if err := h.call(0, api.PathNodeUpdate, api.NodeUpdateRequest{Nodes: "n[01-02]", State: "drain", Reason: "maintenance"}, &out); err != nil {
		t.Fatal(err)
	}
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	if j := h.job(fmt.Sprint(id)); j.JobState != job.Pending {
		t.Errorf("job started on a drained node")
	}
	var nodes api.NodesResponse
	h.call(0, api.PathNodes, api.NodeQuery{States: []string{"drained"}}, &nodes)
	if len(nodes.Nodes) != 2 || nodes.Nodes[0].Reason != "maintenance" || nodes.Nodes[0].StateFlags[0] != api.FlagDrain {
		t.Errorf("drained nodes %+v", nodes.Nodes)
	}
	h.call(0, api.PathNodeUpdate, api.NodeUpdateRequest{Nodes: "n01", State: "resume"}, &out)
	// As on the peer, a resumed drained node is idle* until it is heard
	// from again (its next heartbeat); only then does it take jobs.
	clustertest.Eventually(t, 10*time.Second, "n01 to answer after resume", func() error {
		var nodes api.NodesResponse
		h.call(0, api.PathNodes, api.NodeQuery{Nodes: []string{"n01"}}, &nodes)
		if f := nodes.Nodes[0].StateFlags; slices.Contains(f, api.FlagNotResponding) {
			return fmt.Errorf("flags %v", f)
		}
		return nil
	})
	h.cycle()
	h.waitState(fmt.Sprint(id), job.Running)
}

// TestLaunchFailures: a node daemon that refuses a job fails it
// (JobLaunchFailure); one that cannot be reached sends the job back to the
// queue and goes down itself.
func TestLaunchFailures(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	n.Refuse = func(*api.LaunchRequest) *api.Error {
		return api.Errorf(api.CodeLaunchFailed, "no such user")
	}
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	j := h.waitState(fmt.Sprint(id), job.Failed)
	if j.StateReason != job.ReasonJobLaunchFailure || !strings.Contains(j.StateDescription, "no such user") {
		t.Errorf("refused launch: %s %q", j.StateReason, j.StateDescription)
	}
	n.Stop()
	id2 := h.mustSubmit(alice, simpleJob())
	h.cycle()
	h.waitState(fmt.Sprint(id2), job.Pending)
	var nodes api.NodesResponse
	h.call(0, api.PathNodes, api.NodeQuery{Nodes: []string{"n01"}}, &nodes)
	if nodes.Nodes[0].State != api.NodeDown {
		t.Errorf("unreachable node is %s", nodes.Nodes[0].State)
	}
}

// TestRestartKeepsEverything: jobs, their states, node admin state and the
// id sequence survive a restart of the controller.
func TestRestartKeepsEverything(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	run := h.mustSubmit(alice, simpleJob())
	held := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true; r.Comment = "keep me" }))
	arr := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Array = "1-5"; r.Hold = true }))
	h.cycle()
	h.waitState(fmt.Sprint(run), job.Running)
	var out api.NodeUpdateResponse
	h.call(0, api.PathNodeUpdate, api.NodeUpdateRequest{Nodes: "n02", State: "drain", Reason: "disk"}, &out)
	h.restart()
	if j := h.job(fmt.Sprint(run)); j.JobState != job.Running || j.Nodes != "n01" {
		t.Errorf("running job after restart: %s on %q", j.JobState, j.Nodes)
	}
	if j := h.job(fmt.Sprint(held)); j.StateReason != job.ReasonJobHeldUser || j.Comment != "keep me" {
		t.Errorf("held job after restart: %s %q", j.StateReason, j.Comment)
	}
	if j := h.job(fmt.Sprint(arr)); j.ArrayTaskString != "1-5" {
		t.Errorf("array after restart: %q", j.ArrayTaskString)
	}
	var nodes api.NodesResponse
	h.call(0, api.PathNodes, api.NodeQuery{Nodes: []string{"n02"}}, &nodes)
	if nodes.Nodes[0].Reason != "disk" {
		t.Errorf("drain reason lost: %+v", nodes.Nodes[0])
	}
	if id := h.mustSubmit(alice, simpleJob()); id != arr+1 {
		t.Errorf("id after restart %d, want %d", id, arr+1)
	}
	if !h.eng.Running(run) {
		t.Errorf("the engine does not hold the running job's resources after restart")
	}
}

// TestMinJobAge: finished jobs leave the live table after MinJobAge and
// stay in accounting.
func TestMinJobAge(t *testing.T) {
	h := newHarness(t)
	id := h.mustSubmit(alice, simpleJob())
	results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(id)}}})
	h.tick(time.Minute)
	h.job(fmt.Sprint(id)) // still listed
	h.tick(5 * time.Minute)
	var out api.JobsResponse
	h.call(0, api.PathJobs, api.JobQuery{JobIDs: []string{fmt.Sprint(id)}}, &out)
	if len(out.Jobs) != 0 || len(out.Missing) != 1 {
		t.Errorf("after MinJobAge: %d jobs, missing %v", len(out.Jobs), out.Missing)
	}
	var acct api.AcctResponse
	h.call(alice, api.PathAccounting, api.AcctQuery{Users: []string{fmt.Sprint(alice)}}, &acct)
	if len(acct.Jobs) != 1 || acct.Jobs[0].State != job.Cancelled {
		t.Errorf("accounting %+v", acct.Jobs)
	}
	h.restart()
	h.call(0, api.PathJobs, api.JobQuery{}, &out)
	if len(out.Jobs) != 0 {
		t.Errorf("purged job came back after restart")
	}
}

func TestDeadline(t *testing.T) {
	h := newHarness(t)
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { d := h.clock.Now().Add(time.Minute); r.Deadline = &d; r.Hold = true }))
	h.tick(2 * time.Minute)
	if j := h.job(fmt.Sprint(id)); j.JobState != job.Deadline || j.StateReason != job.ReasonDeadLine {
		t.Errorf("past its deadline: %s %s", j.JobState, j.StateReason)
	}
}

// TestReconfigure: a bad configuration changes nothing and says why; a
// good one takes effect at once.
func TestReconfigure(t *testing.T) {
	h := newHarness(t)
	good, _ := os.ReadFile(h.conf)
	os.WriteFile(h.conf, append(good, []byte("PartitionName=broken Nodes=n99 MaxTime=forever\n")...), 0o644)
	var out api.ReconfigureResponse
	err := h.call(0, api.PathReconfigure, struct{}{}, &out)
	if err == nil || err.Code != api.CodeInvalidConfig || !strings.Contains(err.Detail, "slurm.conf:") {
		t.Fatalf("bad reconfigure: %v", err)
	}
	if _, err := h.submit(alice, simpleJob(func(r *job.Request) { r.Partitions = []string{"broken"} })); err == nil {
		t.Errorf("a refused configuration took effect")
	}
	if err := h.call(alice, api.PathReconfigure, struct{}{}, &out); err == nil || err.Code != api.CodeUserIDMissing {
		t.Errorf("reconfigure by a user: %v", err)
	}
	os.WriteFile(h.conf, append(good, []byte("PartitionName=extra Nodes=n01 MaxTime=1:00:00 State=UP\n")...), 0o644)
	if err := h.call(0, api.PathReconfigure, struct{}{}, &out); err != nil {
		t.Fatal(err)
	}
	if _, err := h.submit(alice, simpleJob(func(r *job.Request) { r.Partitions = []string{"extra"} })); err != nil {
		t.Errorf("new partition after reconfigure: %v", err)
	}
	var cfg api.ConfigResponse
	if err := h.raw(alice, "GET", api.PathConfig, nil, &cfg); err != nil || cfg.ClusterName != "unit" || len(cfg.Entries) == 0 {
		t.Errorf("show config: %v %+v", err, cfg)
	}
	var parts api.PartitionsResponse
	if err := h.raw(alice, "GET", api.PathPartitions, nil, &parts); err != nil || len(parts.Partitions) != 3 || parts.Partitions[0].PendingJobs != 0 {
		t.Errorf("partitions: %v %+v", err, parts.Partitions)
	}
}
