package controller

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// showDebug is what scontrol show config prints for the log keys.
func (h *harness) showDebug() map[string]string {
	h.t.Helper()
	var cfg api.ConfigResponse
	if err := h.raw(alice, "GET", api.PathConfig, nil, &cfg); err != nil {
		h.t.Fatal(err)
	}
	got := map[string]string{}
	for _, kv := range cfg.Entries {
		if kv.Key == "DebugFlags" || kv.Key == "SlurmctldDebug" {
			got[kv.Key] = kv.Value
		}
	}
	return got
}

// TestAdminDebugShowConfig: setdebug and setdebugflags start from the
// file's SlurmctldDebug and DebugFlags and show config prints the
// run-time values, as the peer does (setdebugflags +Backfill on a file
// without DebugFlags prints "DebugFlags = Backfill"; -Backfill "(null)");
// a reconfigure goes back to the file's.
func TestAdminDebugShowConfig(t *testing.T) {
	h := newHarness(t)
	steps := []struct {
		name string
		req  api.SetDebugRequest
		want map[string]string
	}{
		{"from the file", api.SetDebugRequest{}, map[string]string{"DebugFlags": "(null)", "SlurmctldDebug": "info"}},
		{"+Backfill", api.SetDebugRequest{Flags: []string{"+Backfill"}}, map[string]string{"DebugFlags": "Backfill", "SlurmctldDebug": "info"}},
		{"aliases and order", api.SetDebugRequest{Flags: []string{"+gres", "+trigger", "+DB_Job"}},
			map[string]string{"DebugFlags": "Backfill,DB_Job,Gres,Triggers", "SlurmctldDebug": "info"}},
		{"setdebug 4", api.SetDebugRequest{Level: "4"}, map[string]string{"DebugFlags": "Backfill,DB_Job,Gres,Triggers", "SlurmctldDebug": "verbose"}},
		{"undone", api.SetDebugRequest{Level: "info", Flags: []string{"-Gres", "-Backfill", "-DB_Job", "-Triggers"}},
			map[string]string{"DebugFlags": "(null)", "SlurmctldDebug": "info"}},
	}
	for _, st := range steps {
		var out api.SetDebugResponse
		if err := h.call(0, api.PathSetDebug, st.req, &out); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		if diff := cmp.Diff(st.want, h.showDebug()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", st.name, diff)
		}
	}
}

// TestAdminDebugFromFile: flags set in slurm.conf are where setdebugflags
// starts; a reconfigure drops the run-time values for the file's.
func TestAdminDebugFromFile(t *testing.T) {
	h := newHarness(t)
	text, err := os.ReadFile(h.conf)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(h.conf, append(text, "DebugFlags=gres,jag\nSlurmctldDebug=error\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	var rc api.ReconfigureResponse
	if err := h.call(0, api.PathReconfigure, struct{}{}, &rc); err != nil {
		t.Fatal(err)
	}
	file := map[string]string{"DebugFlags": "JobAccountGather,Gres", "SlurmctldDebug": "error"}
	if diff := cmp.Diff(file, h.showDebug()); diff != "" {
		t.Errorf("from the file (-want +got):\n%s", diff)
	}
	var out api.SetDebugResponse
	if err := h.call(0, api.PathSetDebug, api.SetDebugRequest{Flags: []string{"+Backfill", "-Gres"}}, &out); err != nil {
		t.Fatal(err)
	}
	if err := h.call(0, api.PathSetDebug, api.SetDebugRequest{Level: "debug2"}, &out); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"DebugFlags": "JobAccountGather,Backfill", "SlurmctldDebug": "debug2"}
	if diff := cmp.Diff(want, h.showDebug()); diff != "" {
		t.Errorf("after setdebug (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"JobAccountGather", "Backfill"}, out.Flags); diff != "" {
		t.Errorf("flags answered (-want +got):\n%s", diff)
	}
	if err := h.call(0, api.PathReconfigure, struct{}{}, &rc); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(file, h.showDebug()); diff != "" {
		t.Errorf("after reconfigure (-want +got):\n%s", diff)
	}
}
