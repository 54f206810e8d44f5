package nodeprolog

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// peerEnv reads an environment the peer's slurmd gave its prolog or
// epilog (env | sort, less the shell's own PWD, SHLVL and _).
func peerEnv(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

func sorted(env []string) []string {
	out := slices.Clone(env)
	slices.Sort(out)
	return out
}

func TestEnvMatchesPeer(t *testing.T) {
	twoNodes := []api.NodeAllocation{{Node: "gpu003", CPUs: 2, GPUs: []int{0, 1}}, {Node: "gpu004", CPUs: 2, GPUs: []int{0, 1}}}
	tests := map[string]struct {
		in   Input
		file string
	}{
		"prolog of a two-node GPU job with a constraint, on its second node": {
			Input{Node: "gpu004", ConfPath: "/etc/slurm-acct/slurm.conf", Context: Prolog, Req: &api.LaunchRequest{
				JobID: 101, Script: "#!/bin/sh\nsrun true\n", UserName: "root", Alloc: twoNodes[1], Nodes: twoNodes,
				NodeList: "gpu[003-004]", WorkDir: "/tmp/peerA", ClusterName: "acct", Partition: "normal",
				Account: "research", Constraints: "gpu"}},
			"peer-prolog-2node-gpu.env",
		},
		"epilog of a batch job that exited 2": {
			Input{Node: "gpu004", ConfPath: "/etc/slurm-acct/slurm.conf", Context: Epilog, Status: 2 << 8,
				Req: &api.LaunchRequest{JobID: 83, Batch: true, Script: "#!/bin/sh\nexit 2\n", UserName: "root",
					Alloc: api.NodeAllocation{Node: "gpu004", CPUs: 1}, NodeList: "gpu004", WorkDir: "/tmp/peerA",
					ClusterName: "acct", Partition: "normal", Account: "research"}},
			"peer-epilog-exit2.env",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(peerEnv(t, tc.file), sorted(Env(tc.in))); diff != "" {
				t.Errorf("environment (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEpilogExitCodes(t *testing.T) {
	tests := map[string]struct {
		status    syscall.WaitStatus
		raw, pair string
	}{
		"exit 0":      {0, "0", "0:0"},
		"exit 3":      {3 << 8, "768", "3:0"},
		"SIGKILL (9)": {9, "9", "0:9"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			env := Env(Input{Context: Epilog, Status: int(tc.status), Req: &api.LaunchRequest{JobID: 1}})
			want := []string{"SLURM_JOB_EXIT_CODE=" + tc.raw, "SLURM_JOB_EXIT_CODE2=" + tc.pair}
			for _, w := range want {
				if !slices.Contains(env, w) {
					t.Errorf("epilog environment lacks %s: %q", w, env)
				}
			}
		})
	}
}

func TestPrologHasNoExitCodesNorPath(t *testing.T) {
	env := Env(Input{Context: Prolog, Req: &api.LaunchRequest{JobID: 1}})
	for _, kv := range env {
		if strings.HasPrefix(kv, "SLURM_JOB_EXIT_CODE") || strings.HasPrefix(kv, "PATH=") {
			t.Errorf("prolog environment has %s", kv)
		}
	}
}
