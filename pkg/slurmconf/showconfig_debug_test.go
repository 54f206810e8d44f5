package slurmconf

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func loadDebugConf(t *testing.T, lines string) *Config {
	t.Helper()
	conf := "ClusterName=t\nSlurmctldHost=ctl\nNodeName=n1 CPUs=4\nPartitionName=p Nodes=n1\n" + lines
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/slurm.conf", []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(os.DirFS(dir), "slurm.conf")
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return c
}

// TestFileDebug: where setdebug and setdebugflags start from.
func TestFileDebug(t *testing.T) {
	cases := map[string]struct {
		conf string
		want RuntimeDebug
	}{
		"nothing written":          {"", RuntimeDebug{Level: "info"}},
		"a level by number":        {"SlurmctldDebug=6", RuntimeDebug{Level: "debug2"}},
		"flags canonical in order": {"DebugFlags=gres,trigger,backfill\nSlurmctldDebug=Error", RuntimeDebug{Level: "error", Flags: []string{"Backfill", "Gres", "Triggers"}}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, loadDebugConf(t, tc.conf).FileDebug()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestDaemonLogSettings: the daemons' levels by Slurm's names, whatever
// case or number was written, and their log files as written.
func TestDaemonLogSettings(t *testing.T) {
	c := loadDebugConf(t, "SlurmctldDebug=Debug3\nSlurmdDebug=2\nSlurmctldLogFile=/var/log/ctl.log\nSlurmdLogFile=/var/log/d-%n.log")
	got := []string{c.SlurmctldDebug, c.SlurmdDebug, c.SlurmctldLogFile, c.SlurmdLogFile}
	want := []string{"debug3", "error", "/var/log/ctl.log", "/var/log/d-%n.log"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if c := loadDebugConf(t, ""); c.SlurmctldDebug != "" || c.SlurmdDebug != "" {
		t.Errorf("levels not written: %q %q, want empty", c.SlurmctldDebug, c.SlurmdDebug)
	}
	if len(c.Warnings) != 0 {
		t.Errorf("warnings %v: the keys are honoured", c.Warnings)
	}
}

// TestShowConfigRuntimeDebug: show config prints setdebug's and
// setdebugflags's run-time values over the file's, as the peer prints
// "DebugFlags = Backfill" after setdebugflags +Backfill.
func TestShowConfigRuntimeDebug(t *testing.T) {
	cases := map[string]struct {
		conf      string
		debug     *RuntimeDebug
		flags, lv string
	}{
		"the file's without run-time values": {"DebugFlags=Gres\nSlurmctldDebug=error", nil, "Gres", "error"},
		"run-time flags in Slurm's order":    {"", &RuntimeDebug{Level: "info", Flags: []string{"Gres", "Backfill"}}, "Backfill,Gres", "info"},
		"every flag removed":                 {"DebugFlags=Gres", &RuntimeDebug{Level: "info"}, "(null)", "info"},
		"a run-time level":                   {"SlurmctldDebug=error", &RuntimeDebug{Level: "debug2"}, "(null)", "debug2"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := map[string]string{}
			for _, kv := range loadDebugConf(t, tc.conf).ShowConfig(ShowContext{Debug: tc.debug}) {
				if kv.Key == "DebugFlags" || kv.Key == "SlurmctldDebug" {
					got[kv.Key] = kv.Value
				}
			}
			want := map[string]string{"DebugFlags": tc.flags, "SlurmctldDebug": tc.lv}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
