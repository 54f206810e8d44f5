package command

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
)

// peerJSONNodes are three of the peer's nodes (testdata/sinfo_json_peer.json,
// sinfo --json of Slurm 22.05 while job 20556 held 2 GPUs and 1 CPU of
// gpu003) with the values the peer held.
func peerJSONNodes() []api.Node {
	node := func(name string, port, cpus, cores int, mem int64, load float64, free int64, busy int64) api.Node {
		return api.Node{Name: name, Hostname: "localhost", Address: "127.0.0.1", Port: port, State: "IDLE",
			CPUs: cpus, Boards: 1, Sockets: 2, CoresPerSocket: cores, ThreadsPerCore: 1, RealMemory: mem,
			FreeMemory: free, CPULoad: load, Weight: 1, Partitions: []string{"urgent", "normal", "batch"},
			BootTime: 1795946936, SlurmdStart: 1796008094, LastBusy: busy, Version: "22.05.8",
			OperatingSystem: "Linux 6.18.44-fc-v657 #1 SMP PREEMPT_DYNAMIC @0"}
	}
	cpu := node("cpu001", 16941, 32, 16, 128000, 3.30, 20406, 1796008479)
	cpu.Features, cpu.ActiveFeatures = []string{"cpu"}, []string{"cpu"}
	idle := node("gpu001", 16901, 64, 32, 512000, 4.52, 20249, 1796008339)
	used := node("gpu003", 16903, 64, 32, 512000, 3.30, 20406, 1796008094)
	for _, g := range []*api.Node{&idle, &used} {
		g.Features, g.ActiveFeatures, g.GRES = []string{"gpu"}, []string{"gpu"}, "gpu:8"
	}
	used.State, used.AllocCPUs, used.AllocMemory, used.AllocGPUs = "MIXED", 1, 1024, 2
	used.GRESUsed = "gpu:2(IDX:0-1)"
	return []api.Node{cpu, idle, used}
}

var (
	jsonNodeName = regexp.MustCompile(`\n      "name": "([^"]+)",`)
	yamlNodeName = regexp.MustCompile(`\n  !!str name: !!str (\S+)\n`)
)

// TestSinfoJSONPeerRecords: each node record Loam prints is, byte for
// byte, the peer's record for the same node, in JSON and YAML.
func TestSinfoJSONPeerRecords(t *testing.T) {
	for format, split := range map[string]func(string) map[string]string{
		"json": func(s string) map[string]string { return splitRecords(s, "\n    {\n", "\n    }", jsonNodeName) },
		"yaml": func(s string) map[string]string { return splitRecords(s, "\n- !!map\n", "\n...\n", yamlNodeName) },
	} {
		t.Run(format, func(t *testing.T) {
			te := newTestEnv(&fakeController{nodes: peerJSONNodes()}, 1796008500)
			if code := Sinfo(context.Background(), te.Env, []string{"--" + format}); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			want := split(string(readTestdata(t, "sinfo_"+format+"_peer."+format)))
			got := split(te.stdout.String())
			if len(got) != 3 {
				t.Fatalf("got %d records, want 3:\n%s", len(got), te.stdout)
			}
			for name, rec := range got {
				if diff := cmp.Diff(want[name], rec); diff != "" {
					t.Errorf("node %s (-peer +loam):\n%s", name, diff)
				}
			}
		})
	}
}

// TestSinfoJSONOptions: as on the peer, the last of --json and --yaml
// wins, filters and formats are ignored, and a bad state still fails.
func TestSinfoJSONOptions(t *testing.T) {
	cases := map[string]struct {
		args   []string
		prefix string
		stderr string
		exit   int
	}{
		"json":            {args: []string{"--json"}, prefix: "{\n  \"meta\": {\n"},
		"yaml":            {args: []string{"--yaml"}, prefix: "%YAML 1.1\n--- !!map\n"},
		"yaml then json":  {args: []string{"--yaml", "--json"}, prefix: "{\n"},
		"filters ignored": {args: []string{"--json", "-p", "batch", "-n", "cpu001", "-t", "idle", "-N", "-o", "%N", "-R", "-s", "-i", "3"}, prefix: "{\n"},
		"bad state":       {args: []string{"--json", "-t", "BOGUS"}, stderr: "sinfo: error: Bad state string: \"BOGUS\"\n", exit: 1},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			te := newTestEnv(&fakeController{nodes: peerJSONNodes()}, 1796008500)
			code := Sinfo(context.Background(), te.Env, tc.args)
			if code != tc.exit {
				t.Fatalf("exit %d, want %d (stderr %q)", code, tc.exit, te.stderr)
			}
			if !strings.HasPrefix(te.stderr.String(), tc.stderr) {
				t.Errorf("stderr %q, want it to start with %q", te.stderr, tc.stderr)
			}
			if out := te.stdout.String(); !strings.HasPrefix(out, tc.prefix) {
				t.Errorf("stdout starts %q, want %q", out[:min(len(out), 40)], tc.prefix)
			}
			if tc.exit == 0 && strings.Count(te.stdout.String(), "cpu001")+strings.Count(te.stdout.String(), "gpu003") < 2 {
				t.Errorf("not every node printed:\n%s", te.stdout)
			}
		})
	}
}
