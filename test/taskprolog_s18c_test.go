//go:build integration

package test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// taskScriptsDir writes the experiment's scripts (as on the peer, Slurm
// 22.05): a TaskProlog that exports, unsets and prints, a TaskEpilog
// that records its context, and a health check that logs each run.
func taskScriptsDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	scripts := map[string]string{
		"tp.sh": "echo 'export TP_VAR=hello world'\necho 'unset TP_GONE'\necho 'print printed by prolog'\necho junk\n",
		"te.sh": "echo \"$SLURM_SCRIPT_CONTEXT $SLURM_JOB_ID TP_VAR=${TP_VAR-unset}\" >> " + dir + "/te.log\n",
		"hc.sh": "echo \"$(id -u) $SLURMD_NODENAME\" >> " + dir + "/hc.log\n",
	}
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestTaskPrologLive: slurm.conf's TaskProlog's export reaches the batch
// script, its unset removes a variable and its print line starts the
// output, as on the peer ("printed by prolog" then "TP_VAR=[hello
// world] GONE=[unset]"); TaskEpilog runs after the script without the
// prolog's exports; HealthCheckProgram runs as root at the daemon's start
// and again at each HealthCheckInterval.
func TestTaskPrologLive(t *testing.T) {
	dir := taskScriptsDir(t)
	extra := fmt.Sprintf("TaskProlog=%[1]s/tp.sh\nTaskEpilog=%[1]s/te.sh\nHealthCheckProgram=%[1]s/hc.sh\n"+
		"HealthCheckInterval=1\nHealthCheckNodeState=ANY", dir)
	lc := startLive(t, clustertest.Spec{Nodes: 1, Extra: extra}, "")
	id := lc.submit(lc.script(`echo "TP_VAR=[$TP_VAR] GONE=[${TP_GONE-unset}]"`, func(r *job.Request) {
		r.Environment = append(r.Environment, "TP_GONE=1")
	}))
	lc.waitState(id, job.Completed)
	out := fmt.Sprintf("slurm-%d.out", id)
	if got, want := lc.file(out), "printed by prolog\nTP_VAR=[hello world] GONE=[unset]\n"; got != want {
		t.Errorf("%s: %q, want %q", out, got, want)
	}
	te, _ := os.ReadFile(filepath.Join(dir, "te.log"))
	if got, want := string(te), fmt.Sprintf("epilog_task %d TP_VAR=unset\n", id); got != want {
		t.Errorf("TaskEpilog saw %q, want %q", got, want)
	}
	lc.eventually("three health checks", func() error {
		data, _ := os.ReadFile(filepath.Join(dir, "hc.log"))
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		if len(lines) < 3 {
			return fmt.Errorf("hc.log holds %q", data)
		}
		for _, l := range lines {
			if l != "0 n01" {
				return fmt.Errorf("a run saw %q, want root and SLURMD_NODENAME=n01", l)
			}
		}
		return nil
	})
}
