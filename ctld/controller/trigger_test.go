package controller

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/ctld/trigger"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// recordRunner records the programs triggers would start.
type recordRunner struct {
	mu  sync.Mutex
	ran []string // "program arg"
}

func (r *recordRunner) Start(e trigger.Exec) (<-chan struct{}, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ran = append(r.ran, fmt.Sprintf("%s %s", e.Path, e.Argv[len(e.Argv)-1]))
	done := make(chan struct{})
	close(done)
	return done, nil
}

func (r *recordRunner) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.ran
	r.ran = nil
	return out
}

// trigHarness is a harness with a program triggers may run, one they
// may not, and a recording runner.
func trigHarness(t *testing.T) (h *harness, prog, noexec string, rr *recordRunner) {
	t.Helper()
	h = newHarness(t)
	dir := t.TempDir()
	prog, noexec = filepath.Join(dir, "trig.sh"), filepath.Join(dir, "plain.txt")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(noexec, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rr = &recordRunner{}
	h.c.trig.runner = rr
	return h, prog, noexec, rr
}

func setTrigger(h *harness, uid uint32, t api.Trigger) (uint32, *api.Error) {
	h.t.Helper()
	var out api.TriggerSetResponse
	err := h.call(uid, api.PathTriggerSet, api.TriggerSetRequest{Trigger: t}, &out)
	return out.ID, err
}

func listTriggers(h *harness, uid uint32) []uint32 {
	h.t.Helper()
	var out api.TriggersResponse
	if err := h.call(uid, api.PathTriggerGet, struct{}{}, &out); err != nil {
		h.t.Fatalf("get: %v", err)
	}
	var ids []uint32
	for _, t := range out.Triggers {
		ids = append(ids, t.ID)
	}
	return ids
}

// errText is "code: message", or "" for none.
func errText(err *api.Error) string {
	if err == nil {
		return ""
	}
	return string(err.Code) + ": " + err.Message
}

// TestTriggerSetGetClearAsSlurm: who may set and clear, every error the
// controller answers (with the text strigger prints after
// "slurm_set_trigger: "), the id a refused program uses up, and the
// triggers and their ids after a restart.
func TestTriggerSetGetClearAsSlurm(t *testing.T) {
	h, prog, noexec, _ := trigHarness(t)
	held := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	ended := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	if firstErr(results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(ended)}}})) != "" {
		t.Fatal("cancel")
	}
	node := api.Trigger{ResType: api.TrigResNode, ResID: "*", Type: api.TrigDown, Program: prog}
	steps := []struct {
		name    string
		uid     uint32
		trig    api.Trigger
		wantID  uint32
		wantErr string
	}{
		{"a user without allow_user_triggers", alice, node, 0, "ESLURM_ACCESS_DENIED: Access/permission denied"},
		{"root", 0, node, 1, ""},
		{"the same again", 0, node, 0, "ESLURM_TRIGGER_DUP: Duplicate event trigger"},
		{"an unknown node", 0, api.Trigger{ResType: api.TrigResNode, ResID: "nosuch[1-2]", Type: api.TrigDown, Program: prog}, 0,
			"ESLURM_INVALID_NODE_NAME: Invalid node name specified"},
		{"an unknown job", 0, api.Trigger{ResType: api.TrigResJob, ResID: "99999", Type: api.TrigFini, Program: prog}, 0,
			"ESLURM_INVALID_JOB_ID: Invalid job id specified"},
		{"an ended job", 0, api.Trigger{ResType: api.TrigResJob, ResID: fmt.Sprint(ended), Type: api.TrigFini, Program: prog}, 0,
			"ESLURM_ALREADY_DONE: Job/step already completing or completed"},
		{"a program not executable uses up id 2", 0, api.Trigger{ResType: api.TrigResNode, ResID: "n01", Type: api.TrigUp, Program: noexec}, 0,
			"ESLURM_ACCESS_DENIED: Access/permission denied"},
		{"a job's after the gap", 0, api.Trigger{ResType: api.TrigResJob, ResID: fmt.Sprint(held), Type: api.TrigFini, Program: prog}, 3, ""},
	}
	for _, s := range steps {
		id, err := setTrigger(h, s.uid, s.trig)
		if id != s.wantID || errText(err) != s.wantErr {
			t.Errorf("%s: id %d, error %q; want %d, %q", s.name, id, errText(err), s.wantID, s.wantErr)
		}
	}
	if diff := cmp.Diff([]uint32{1, 3}, listTriggers(h, alice)); diff != "" {
		t.Errorf("a user lists every trigger (-want +got):\n%s", diff)
	}
	clears := []struct {
		name    string
		uid     uint32
		req     api.TriggerClearRequest
		wantErr string
	}{
		{"a user clearing root's", alice, api.TriggerClearRequest{ID: 1}, "ESLURM_ACCESS_DENIED: Access/permission denied"},
		{"no such trigger", 0, api.TriggerClearRequest{ID: 99}, "ESRCH: No such process"},
		{"no trigger of that job", 0, api.TriggerClearRequest{JobID: ended}, "ESRCH: No such process"},
	}
	for _, c := range clears {
		if err := h.call(c.uid, api.PathTriggerClear, c.req, nil); errText(err) != c.wantErr {
			t.Errorf("%s: error %q; want %q", c.name, errText(err), c.wantErr)
		}
	}
	h.restart()
	if diff := cmp.Diff([]uint32{1, 3}, listTriggers(h, 0)); diff != "" {
		t.Errorf("after a restart (-want +got):\n%s", diff)
	}
	if id, err := setTrigger(h, 0, api.Trigger{ResType: api.TrigResNode, ResID: "*", Type: api.TrigIdle, Program: prog}); id != 4 || err != nil {
		t.Errorf("the id sequence after a restart: id %d, error %v; want 4", id, err)
	}
	if err := h.call(0, api.PathTriggerClear, api.TriggerClearRequest{JobID: held}, nil); err != nil {
		t.Errorf("root clears by job: %v", err)
	}
	if diff := cmp.Diff([]uint32{1, 4}, listTriggers(h, 0)); diff != "" {
		t.Errorf("after clearing job %d's (-want +got):\n%s", held, diff)
	}
}

// TestTriggerAllowUserTriggers: with SlurmctldParameters=allow_user_triggers
// a user sets any trigger, as Slurm 22.05 allows, and clears only their
// own, up to MaxJobCount triggers in all; the reconfiguration that
// turned it on fires root's permanent
// --reconfig trigger with the argument "reconfig".
func TestTriggerAllowUserTriggers(t *testing.T) {
	h, prog, _, rr := trigHarness(t)
	if _, err := setTrigger(h, 0, api.Trigger{ResType: api.TrigResNode, ResID: "*", Type: api.TrigReconfig, Perm: true, Program: prog}); err != nil {
		t.Fatalf("root's --reconfig: %v", err)
	}
	f, err := os.OpenFile(h.conf, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("SlurmctldParameters=enable_configless,Allow_User_Triggers\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := h.c.Reconfigure(); err != nil {
		t.Fatalf("reconfigure: %v", err)
	}
	h.tick(time.Second)
	if diff := cmp.Diff([]string{prog + " reconfig"}, rr.take()); diff != "" {
		t.Errorf("fired at reconfigure (-want +got):\n%s", diff)
	}
	id, aerr := setTrigger(h, alice, api.Trigger{ResType: api.TrigResNode, ResID: "n01", Type: api.TrigDrained, Program: prog})
	if aerr != nil || id != 2 {
		t.Fatalf("a user's node trigger: id %d, %v", id, aerr)
	}
	if err := h.call(alice, api.PathTriggerClear, api.TriggerClearRequest{ID: 1}, nil); errText(err) != "ESLURM_ACCESS_DENIED: Access/permission denied" {
		t.Errorf("a user clearing root's: %q", errText(err))
	}
	own := uint32(alice)
	if err := h.call(alice, api.PathTriggerClear, api.TriggerClearRequest{UID: &own}, nil); err != nil {
		t.Errorf("a user clearing their own: %v", err)
	}
	// MaxJobCount (50 here) bounds the triggers but for root's.
	for i := 1; i <= 49; i++ {
		if _, err := setTrigger(h, alice, api.Trigger{ResType: api.TrigResNode, ResID: "*", Type: api.TrigUp, Offset: i, Program: prog}); err != nil {
			t.Fatalf("trigger %d of 50: %v", i+1, err)
		}
	}
	over := api.Trigger{ResType: api.TrigResNode, ResID: "*", Type: api.TrigUp, Offset: 50, Program: prog}
	if _, err := setTrigger(h, alice, over); errText(err) != "EAGAIN: Resource temporarily unavailable" {
		t.Errorf("a user's 51st trigger: %q", errText(err))
	}
	if _, err := setTrigger(h, 0, over); err != nil {
		t.Errorf("root's 51st trigger: %v", err)
	}
}

// TestTriggerSeesChangesWithinATick: a drain undone before the next
// housekeeping pass still fires --drained (the controller reports the
// change where it makes it, as Slurm's node manager does); a node update
// fires --reconfig, as Slurm's update_node RPC does; a --time trigger
// fires when its job ends before its limit.
func TestTriggerSeesChangesWithinATick(t *testing.T) {
	h, prog, _, rr := trigHarness(t)
	held := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	for _, tr := range []api.Trigger{
		{ResType: api.TrigResNode, ResID: "n01", Type: api.TrigDrained, Program: prog + " drained"},
		{ResType: api.TrigResNode, ResID: "*", Type: api.TrigReconfig, Program: prog + " reconf"},
		{ResType: api.TrigResJob, ResID: fmt.Sprint(held), Type: api.TrigTime, Offset: -60, Program: prog + " time"},
	} {
		if _, err := setTrigger(h, 0, tr); err != nil {
			t.Fatalf("set %+v: %v", tr, err)
		}
	}
	h.tick(time.Second)
	if got := rr.take(); len(got) != 0 {
		t.Fatalf("fired before any event: %v", got)
	}
	for _, st := range []string{"DRAIN", "RESUME"} {
		if err := h.call(0, api.PathNodeUpdate, api.NodeUpdateRequest{Nodes: "n01", State: st, Reason: "x"}, nil); err != nil {
			t.Fatalf("%s: %v", st, err)
		}
	}
	if firstErr(results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(held)}}})) != "" {
		t.Fatal("cancel")
	}
	h.tick(time.Second)
	want := []string{prog + " n01", prog + " reconfig", prog + " " + fmt.Sprint(held)}
	if diff := cmp.Diff(want, rr.take()); diff != "" {
		t.Errorf("fired (-want +got):\n%s", diff)
	}
}
