package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestUpdateJobNodeUse: OverSubscribe=, Reboot=, DelayBoot=, WCKey=,
// BurstBuffer= and ClusterFeatures= answer as Slurm 22.05's controller
// does for a pending job (the peer: a user's OverSubscribe or Reboot is
// "Access/permission denied", BurstBuffer "Requested operation not
// supported on this system", ClusterFeatures "Unspecified error"), and
// show in the job's record as the peer's scontrol show job then does.
func TestUpdateJobNodeUse(t *testing.T) {
	h := newHarness(t)
	raw := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	id := fmt.Sprint(raw)
	upd := func(uid uint32, u api.JobUpdate) api.Code {
		return updateCode(t, h, uid, id, u)
	}
	cases := []struct {
		name string
		uid  uint32
		u    api.JobUpdate
		want api.Code
	}{
		{"the owner's OverSubscribe", alice, api.JobUpdate{OverSubscribe: ptr(1)}, api.CodeAccessDenied},
		{"the owner's Reboot", alice, api.JobUpdate{Reboot: ptr(1)}, api.CodeAccessDenied},
		{"the owner's DelayBoot", alice, api.JobUpdate{DelayBoot: ptr(int64(600))}, ""},
		{"the owner's WCKey", alice, api.JobUpdate{WCKey: ptr("abc")}, ""},
		{"a burst buffer", 0, api.JobUpdate{BurstBuffer: ptr("")}, api.CodeNotSupported},
		{"cluster features", 0, api.JobUpdate{ClusterFeatures: ptr("x")}, api.CodeError},
		{"sharing", 0, api.JobUpdate{OverSubscribe: ptr(2)}, ""},
		{"a reboot", 0, api.JobUpdate{Reboot: ptr(1)}, ""},
	}
	for _, tc := range cases {
		if got := upd(tc.uid, tc.u); got != tc.want {
			t.Errorf("%s: error %q, want %q", tc.name, got, tc.want)
		}
	}
	// The peer shows Reboot=1 OverSubscribe=YES; the job still takes
	// whole nodes, as Slurm gives a reboot job idle ones.
	j := h.job(id)
	if !j.Reboot || job.Exclusive(j.Exclusive) != job.Oversubscribe || j.DelayBoot != 600 || j.WCKey != "abc" {
		t.Errorf("after the updates: Reboot %v sharing %q DelayBoot %d WCKey %q, want true, %q, 600, abc",
			j.Reboot, j.Exclusive, j.DelayBoot, j.WCKey, job.Oversubscribe)
	}
	h.c.mu.Lock()
	ej := h.c.engineJob(h.c.jobs[raw])
	h.c.mu.Unlock()
	if ej.Req.Exclusive != job.ExclusiveNodes {
		t.Errorf("the scheduler reads sharing %q for a reboot job, want %q", ej.Req.Exclusive, job.ExclusiveNodes)
	}
	if got := upd(0, api.JobUpdate{OverSubscribe: ptr(0), Reboot: ptr(0)}); got != "" {
		t.Fatalf("Shared=0 Reboot=0: %q", got)
	}
	if j := h.job(id); j.Reboot || job.Exclusive(j.Exclusive) != job.ExclusiveNodes {
		t.Errorf("Shared=0 Reboot=0: Reboot %v sharing %q, want false, %q", j.Reboot, j.Exclusive, job.ExclusiveNodes)
	}
}

// TestUpdateStartedNodeUse: once a job runs only DelayBoot= may change
// (the peer: "Job is no longer pending execution" for OverSubscribe,
// Reboot and WCKey, a user's Reboot "Access/permission denied" first);
// once it ended, "Job has already finished", but for a burst buffer
// other than an operator's empty one.
func TestUpdateStartedNodeUse(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	n.AutoEnd = true
	raw := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, raw, 5*time.Second)
	id := fmt.Sprint(raw)
	upd := func(uid uint32, u api.JobUpdate) api.Code {
		return updateCode(t, h, uid, id, u)
	}
	running := []struct {
		name string
		uid  uint32
		u    api.JobUpdate
		want api.Code
	}{
		{"sharing", 0, api.JobUpdate{OverSubscribe: ptr(1)}, api.CodeJobNotPending},
		{"a reboot", 0, api.JobUpdate{Reboot: ptr(1)}, api.CodeJobNotPending},
		{"the owner's reboot", alice, api.JobUpdate{Reboot: ptr(1)}, api.CodeAccessDenied},
		{"a WCKey", alice, api.JobUpdate{WCKey: ptr("")}, api.CodeJobNotPending},
		{"a boot delay", alice, api.JobUpdate{DelayBoot: ptr(int64(30))}, ""},
	}
	for _, tc := range running {
		if got := upd(tc.uid, tc.u); got != tc.want {
			t.Errorf("running, %s: error %q, want %q", tc.name, got, tc.want)
		}
	}
	if j := h.job(id); j.DelayBoot != 30 {
		t.Errorf("running job's DelayBoot %d, want 30", j.DelayBoot)
	}
	results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{id}}})
	h.waitState(id, job.Cancelled)
	ended := []struct {
		name string
		uid  uint32
		u    api.JobUpdate
		want api.Code
	}{
		{"a burst buffer", 0, api.JobUpdate{BurstBuffer: ptr("x")}, api.CodeNotSupported},
		{"an empty burst buffer", 0, api.JobUpdate{BurstBuffer: ptr("")}, api.CodeJobFinished},
		{"the owner's empty burst buffer", alice, api.JobUpdate{BurstBuffer: ptr("")}, api.CodeNotSupported},
		{"a boot delay", 0, api.JobUpdate{DelayBoot: ptr(int64(30))}, api.CodeJobFinished},
	}
	for _, tc := range ended {
		if got := upd(tc.uid, tc.u); got != tc.want {
			t.Errorf("ended, %s: error %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestUpdateJobTres: TresBind= and TresFreq= as the peer's controller
// takes them: from the job's owner, pending or running, "" clearing
// them; a value sbatch would refuse is "Invalid Trackable RESource (TRES)
// specification"; another user's job "Invalid user id"; an ended job
// "Job has already finished", checked before the value.
func TestUpdateJobTres(t *testing.T) {
	if got, want := api.CodeInvalidTRES.Text(), "Invalid Trackable RESource (TRES) specification"; got != want {
		t.Fatalf("CodeInvalidTRES says %q, want %q", got, want)
	}
	h := newHarness(t)
	n := h.node("n01")
	n.AutoEnd = true
	held := fmt.Sprint(h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true })))
	raw := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, raw, 5*time.Second)
	running := fmt.Sprint(raw)
	cases := []struct {
		name string
		uid  uint32
		id   string
		u    api.JobUpdate
		want api.Code
	}{
		{"the owner's binding", alice, held, api.JobUpdate{TRESBind: ptr("gpu:closest")}, ""},
		{"the owner's frequency", alice, held, api.JobUpdate{TRESFreq: ptr("gpu:low")}, ""},
		{"a binding without gpu:", alice, held, api.JobUpdate{TRESBind: ptr("bogus")}, api.CodeInvalidTRES},
		{"a frequency without gpu:", alice, held, api.JobUpdate{TRESFreq: ptr("low")}, api.CodeInvalidTRES},
		{"an unknown frequency", alice, held, api.JobUpdate{TRESFreq: ptr("gpu:bogus")}, api.CodeInvalidTRES},
		{"a good binding with a bad frequency", alice, held,
			api.JobUpdate{TRESBind: ptr("gpu:none"), TRESFreq: ptr("gpu:bogus")}, api.CodeInvalidTRES},
		{"another user's job", bob, held, api.JobUpdate{TRESFreq: ptr("gpu:high")}, api.CodeUserIDMissing},
		{"a running job's binding", alice, running, api.JobUpdate{TRESBind: ptr("gpu:closest")}, ""},
		{"a running job's frequency", alice, running, api.JobUpdate{TRESFreq: ptr("gpu:high")}, ""},
		{"a running job's bad frequency", alice, running, api.JobUpdate{TRESFreq: ptr("gpu:xx")}, api.CodeInvalidTRES},
		{"no binding on a running job", alice, running, api.JobUpdate{TRESBind: ptr("")}, ""},
	}
	for _, tc := range cases {
		if got := updateCode(t, h, tc.uid, tc.id, tc.u); got != tc.want {
			t.Errorf("%s: error %q, want %q", tc.name, got, tc.want)
		}
	}
	// The peer's show job: TresBind=gpu:closest TresFreq=gpu:low for the
	// held job (the refused updates changed nothing), TresFreq=gpu:high
	// alone for the running one.
	if j := h.job(held); j.TRESBind != "gpu:closest" || j.TRESFreq != "gpu:low" {
		t.Errorf("held job: TresBind %q TresFreq %q, want gpu:closest, gpu:low", j.TRESBind, j.TRESFreq)
	}
	if j := h.job(running); j.TRESBind != "" || j.TRESFreq != "gpu:high" {
		t.Errorf("running job: TresBind %q TresFreq %q, want none, gpu:high", j.TRESBind, j.TRESFreq)
	}
	if got := updateCode(t, h, alice, held, api.JobUpdate{TRESBind: ptr(""), TRESFreq: ptr("")}); got != "" {
		t.Fatalf("clearing both: %q", got)
	}
	if j := h.job(held); j.TRESBind != "" || j.TRESFreq != "" {
		t.Errorf("after clearing: TresBind %q TresFreq %q, want none", j.TRESBind, j.TRESFreq)
	}
	results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{running}}})
	h.waitState(running, job.Cancelled)
	for _, u := range []api.JobUpdate{{TRESFreq: ptr("gpu:low")}, {TRESBind: ptr("bogus")}, {TRESBind: ptr("")}} {
		for _, uid := range []uint32{0, alice} {
			if got := updateCode(t, h, uid, running, u); got != api.CodeJobFinished {
				t.Errorf("ended job, uid %d, %+v: error %q, want %q", uid, u, got, api.CodeJobFinished)
			}
		}
	}
}
