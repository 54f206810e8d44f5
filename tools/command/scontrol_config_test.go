package command

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// peerConfigDir holds the peer's slurm.conf and what the peer's `scontrol
// show config` printed for it.
const peerConfigDir = "../../pkg/slurmconf/testdata/peer"

// peerConfigController answers Config as loam-ctld would for the peer's
// slurm.conf, with the capture's times and next job id, on host "vm".
func peerConfigController(t *testing.T, capture string) *fakeController {
	t.Helper()
	conf, err := slurmconf.Load(os.DirFS(peerConfigDir), "slurm.conf")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(capture, "\n")
	asOf := parseLocal(t, strings.TrimPrefix(lines[0], "Configuration data as of "))
	var boot time.Time
	var next uint64
	for _, l := range lines {
		if v, ok := strings.CutPrefix(l, "BOOT_TIME               = "); ok {
			boot = parseLocal(t, v)
		}
		if v, ok := strings.CutPrefix(l, "NEXT_JOB_ID             = "); ok {
			if next, err = strconv.ParseUint(v, 10, 32); err != nil {
				t.Fatal(err)
			}
		}
	}
	rt := slurmconf.ShowContext{BootTime: boot, NextJobID: uint32(next), ConfPath: "/etc/slurm/slurm.conf", Hostname: "vm",
		UID: func(u string) (int, bool) { return 0, u == "root" }}
	resp := api.ConfigResponse{Now: asOf.Unix(), BootTime: boot.Unix()}
	for _, kv := range conf.ShowConfig(rt) {
		resp.Entries = append(resp.Entries, api.KeyValue{Key: kv.Key, Value: kv.Value})
	}
	return &fakeController{now: asOf.Unix(), host: "vm", config: resp}
}

func parseLocal(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := time.ParseInLocation("2006-01-02T15:04:05", s, time.Local)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

// TestScontrolShowConfigPeer prints the whole of `scontrol show config`
// for the peer's slurm.conf and compares it with the peer's output, line
// for line: header, every Slurm key, then Loam's own keys, the blank line
// and the "Slurmctld(primary) at HOST is UP" line. Abbreviations, an extra
// argument and -o print the same, as on the peer.
func TestScontrolShowConfigPeer(t *testing.T) {
	b, err := os.ReadFile(peerConfigDir + "/scontrol-show-config.txt")
	if err != nil {
		t.Fatal(err)
	}
	capture := string(b)
	loam := "LoamCtldSocket          = /run/loam/ctld.sock\nLoamKeyFile             = /etc/loam/loam.key\n" +
		"LoamNodedSocket         = /run/loam/noded.sock\nPriorityWeightCompensation = 100\n"
	want := strings.Replace(capture, "\n\nSlurmctld(primary)", "\n"+loam+"\nSlurmctld(primary)", 1)
	for _, args := range [][]string{
		{"show", "config"}, {"show", "conf"}, {"show", "c"}, {"show", "config", "ClusterName"},
		{"-o", "show", "config"}, {"show", "conf=x"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			te := newTestEnv(peerConfigController(t, capture), 0)
			if code := Scontrol(context.Background(), te.Env, args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(strings.Split(want, "\n"), strings.Split(te.stdout.String(), "\n")); diff != "" {
				t.Errorf("(-peer +loam):\n%s", diff)
			}
		})
	}
}

// TestScontrolShowConfigErrors: the peer's messages and exit status 1.
func TestScontrolShowConfigErrors(t *testing.T) {
	cases := map[string]struct {
		args []string
		want string
	}{
		"a longer word than config": {[]string{"show", "configuration"}, "invalid entity:configuration for keyword:show \n"},
		"two extra arguments":       {[]string{"show", "config", "a", "b"}, "too many arguments for keyword:show\n"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			te := newTestEnv(&fakeController{}, 0)
			if code := Scontrol(context.Background(), te.Env, tc.args); code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			if diff := cmp.Diff(tc.want, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
		})
	}
}
