//go:build integration

package test

import (
	"fmt"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestSacctRunsRequeue: a job requeued by scontrol while it runs, then run
// to its end: sacct -D lists both runs, the first REQUEUED with a
// cancelled batch step, and plain sacct only the last; sacct -s RQ finds
// the requeued run.
func TestSacctRunsRequeue(t *testing.T) {
	// The requeued job may run again 6 s later (cred_expire + 1), not 121 s.
	lc := startLive(t, clustertest.Spec{Nodes: 1, CPUs: 2, SlurmdTimeout: 9, Extra: "AuthInfo=cred_expire=5"}, "")
	yes := true
	id := lc.submit(lc.script(`if [ -z "$SLURM_RESTART_COUNT" ]; then echo up > first-run; sleep 300; fi`, withLimit(10*time.Minute),
		func(r *job.Request) { r.Requeue = &yes }))
	lc.waitState(id, job.Running)
	lc.waitFile("first-run", "up") // the script runs: the requeue's SIGTERM ends it (0:15)
	sid := fmt.Sprint(id)
	tool := func(args ...string) string { t.Helper(); return mustTool(t, lc.c, lc.work, args[0], args[1:]...) }
	tool("scontrol", "requeue", sid)
	lc.waitState(id, job.Completed)

	want := fmt.Sprintf("%[1]s|REQUEUED|0:0\n%[1]s.batch|CANCELLED|0:15\n%[1]s|COMPLETED|0:0\n%[1]s.batch|COMPLETED|0:0\n", sid)
	if got := tool("sacct", "-D", "-n", "-P", "-j", sid, "-o", "jobid,state,exitcode"); got != want {
		t.Errorf("sacct -D = %q, want %q", got, want)
	}
	if got, want := tool("sacct", "-n", "-P", "-X", "-j", sid, "-o", "jobid,state"), sid+"|COMPLETED\n"; got != want {
		t.Errorf("sacct = %q, want %q", got, want)
	}
	if got, want := tool("sacct", "-n", "-P", "-X", "-s", "RQ", "-j", sid, "-o", "jobid,state"), sid+"|REQUEUED\n"; got != want {
		t.Errorf("sacct -s RQ = %q, want %q", got, want)
	}
}
