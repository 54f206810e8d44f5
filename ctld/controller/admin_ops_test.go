package controller

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sirupsen/logrus"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestAdminJobScript: the owner and root read a job's script; another
// user, an unknown job and a job without one get Slurm's errors.
func TestAdminJobScript(t *testing.T) {
	h := newHarness(t)
	const script = "#!/bin/sh\nsleep 1\n"
	id := h.mustSubmit(1000, simpleJob(func(r *job.Request) { r.UserID, r.Script = 1000, script }))
	tests := map[string]struct {
		uid      uint32
		job      uint32
		wantCode api.Code
	}{
		"the owner":      {uid: 1000, job: id},
		"root":           {uid: 0, job: id},
		"another user":   {uid: 1001, job: id, wantCode: api.CodeUserIDMissing},
		"an unknown job": {uid: 0, job: 999999, wantCode: api.CodeInvalidJobID},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var out api.JobScriptResponse
			err := h.call(tc.uid, api.PathJobScript, api.JobScriptRequest{JobID: tc.job}, &out)
			var code api.Code
			if err != nil {
				code = err.Code
			}
			if code != tc.wantCode {
				t.Fatalf("error %v, want code %q", err, tc.wantCode)
			}
			if err == nil && out.Script != script {
				t.Errorf("script %q, want %q", out.Script, script)
			}
		})
	}
}

// TestAdminSetDebug: root changes the log level and flags at run time;
// others are refused; bad names change nothing.
func TestAdminSetDebug(t *testing.T) {
	h := newHarness(t)
	var out api.SetDebugResponse
	if err := h.call(0, api.PathSetDebug, api.SetDebugRequest{Level: "debug3"}, &out); err != nil {
		t.Fatal(err)
	}
	if got := h.c.log.Logger.GetLevel(); got != logrus.TraceLevel {
		t.Errorf("level %v after debug3, want trace", got)
	}
	if err := h.call(0, api.PathSetDebug, api.SetDebugRequest{Level: "1"}, &out); err != nil || h.c.log.Logger.GetLevel() != logrus.FatalLevel {
		t.Errorf("setdebug 1: %v, level %v; want fatal", err, h.c.log.Logger.GetLevel())
	}
	if err := h.call(0, api.PathSetDebug, api.SetDebugRequest{Flags: []string{"+backfill", "+Gres", "-gres"}}, &out); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"Backfill"}, out.Flags); diff != "" {
		t.Errorf("flags (-want +got):\n%s", diff)
	}
	for name, tc := range map[string]struct {
		uid  uint32
		req  api.SetDebugRequest
		want api.Code
	}{
		"not root":      {uid: 1000, req: api.SetDebugRequest{Level: "info"}, want: api.CodeAccessDenied},
		"bad level":     {uid: 0, req: api.SetDebugRequest{Level: "warning"}, want: api.CodeBadRequest},
		"bad flag":      {uid: 0, req: api.SetDebugRequest{Flags: []string{"+bogus"}}, want: api.CodeBadRequest},
		"unsigned flag": {uid: 0, req: api.SetDebugRequest{Flags: []string{"Gres"}}, want: api.CodeBadRequest},
	} {
		t.Run(name, func(t *testing.T) {
			err := h.call(tc.uid, api.PathSetDebug, tc.req, &out)
			if err == nil || err.Code != tc.want {
				t.Errorf("error %v, want code %q", err, tc.want)
			}
		})
	}
	if diff := cmp.Diff([]string{"Backfill"}, h.c.admin.runtimeDebug(h.c.confNow().conf).Flags); diff != "" {
		t.Errorf("flags after refusals (-want +got):\n%s", diff)
	}
}

// TestAdminShutdown: only root may stop the controller; a controller-only
// shutdown signals Run's stop channel without asking any node daemon.
func TestAdminShutdown(t *testing.T) {
	h := newHarness(t)
	var out api.ShutdownResponse
	if err := h.call(1000, api.PathShutdown, api.ShutdownRequest{}, &out); err == nil || err.Code != api.CodeUserIDMissing {
		t.Fatalf("user's shutdown: %v, want %q", err, api.CodeUserIDMissing)
	}
	select {
	case <-h.c.admin.stopped():
		t.Fatal("stop requested by a refused shutdown")
	default:
	}
	if err := h.call(0, api.PathShutdown, api.ShutdownRequest{ControllerOnly: true}, &out); err != nil {
		t.Fatal(err)
	}
	select {
	case <-h.c.admin.stopped():
	default:
		t.Fatal("shutdown answered without asking Run to stop")
	}
	if len(out.Nodes)+len(out.Unreachable) != 0 {
		t.Errorf("controller-only shutdown asked node daemons: %+v", out)
	}
}
