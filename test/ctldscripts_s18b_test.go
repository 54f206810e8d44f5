//go:build integration

package test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// ctldScriptBody is a PrologSlurmctld and EpilogSlurmctld in one: it
// dumps its environment to DIR/CONTEXT-JOBID, waits for DIR/gate-JOBID
// for a job named "gated", and a prolog fails (exit 7) for one named
// "fail".
const ctldScriptBody = `#!/bin/sh
env > %[1]s/$SLURM_SCRIPT_CONTEXT-$SLURM_JOB_ID
[ "$SLURM_SCRIPT_CONTEXT" = prolog_slurmctld ] || exit 0
case "$SLURM_JOB_NAME" in
gated) while [ ! -e %[1]s/gate-$SLURM_JOB_ID ]; do sleep 0.1; done;;
fail) exit 7;;
esac
exit 0
`

// TestCtldScriptsLive: with real daemons, PrologSlurmctld runs before the
// launch (the job CONFIGURING meanwhile) with the peer's environment,
// EpilogSlurmctld after the end with the exit codes; a failing prolog
// requeues the batch job, and RequeueExit requeues a job on its exit code
// (PENDING Reason=BeginTime, Restarts=1), as the peer does.
func TestCtldScriptsLive(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "ctld.sh")
	if err := os.WriteFile(script, []byte(fmt.Sprintf(ctldScriptBody, dir)), 0o755); err != nil {
		t.Fatal(err)
	}
	extra := fmt.Sprintf("PrologSlurmctld=%[1]s\nEpilogSlurmctld=%[1]s\nRequeueExit=3\n", script)
	lc := startLive(t, clustertest.Spec{Nodes: 1, Extra: extra}, "")
	named := func(name string) func(*job.Request) { return func(r *job.Request) { r.Name = name } }
	waitScript := func(file, want string) {
		t.Helper()
		lc.eventually(file+" to hold "+want, func() error {
			data, err := os.ReadFile(filepath.Join(dir, file))
			if err != nil {
				return err
			}
			if !strings.Contains(string(data), want) {
				return fmt.Errorf("%s holds %q", file, data)
			}
			return nil
		})
	}

	gatedID := lc.submit(lc.script("true", named("gated")))
	waitScript(fmt.Sprint("prolog_slurmctld-", gatedID), "SLURM_JOB_NAME=gated\n")
	if j := lc.job(gatedID); j.JobState != job.Configuring {
		t.Errorf("while its prolog waits: %s, want CONFIGURING", j.JobState)
	}
	if err := os.WriteFile(filepath.Join(dir, fmt.Sprint("gate-", gatedID)), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	lc.waitState(gatedID, job.Completed)
	waitScript(fmt.Sprint("epilog_slurmctld-", gatedID), "SLURM_JOB_EXIT_CODE2=0:0\n")

	failID := lc.submit(lc.script("true", named("fail")))
	exitID := lc.submit(lc.script("exit 3", named("exit3")))
	for id, exit := range map[uint32]string{failID: "0:0", exitID: "3:0"} {
		j := lc.waitJob(id, "requeued", func(j api.Job) bool { return j.Restarts == 1 && j.JobState == job.Pending })
		got := fmt.Sprintf("%s %d:%d", j.StateReason, j.ExitCode.Status, j.ExitCode.Signal)
		if want := "BeginTime " + exit; got != want {
			t.Errorf("job %d after requeue: %s, want %s", id, got, want)
		}
	}
	waitScript(fmt.Sprint("epilog_slurmctld-", exitID), "SLURM_JOB_EXIT_CODE=768\n")
	waitScript(fmt.Sprint("epilog_slurmctld-", failID), "SLURM_JOB_RESTART_COUNT=1\n")
}
