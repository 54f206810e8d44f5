//go:build integration

package test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestSuspendStep: srun --jobid in a suspended job starts nothing and
// lists nothing; once the job is resumed it says, as the peer's srun,
// that step creation was disabled, and runs the step. sacct's Elapsed
// leaves out the time suspended.
func TestSuspendStep(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 1, CPUs: 2})
	dir := sharedDir(t)
	id := s.sbatch(t, dir, "#!/bin/bash\nsleep 300\n", nil, "-o", "/dev/null")
	j := s.waitJob(t, id, job.Running, nodedWait)
	sid := fmt.Sprint(id)
	tool := func(name string, args ...string) cmdRun {
		t.Helper()
		r := s.run(t, dir, nil, "", nil, name, args...)
		if r.code != 0 {
			t.Fatalf("%s %q: exit %d, stderr %q", name, args, r.code, r.stderr)
		}
		return r
	}
	tool("scontrol", "suspend", sid)
	s.waitJob(t, id, job.Suspended, nodedWait)

	done := make(chan cmdRun, 1)
	go func() {
		done <- s.run(t, dir, nil, "", nil, "srun", "--jobid", sid, "bash", "-c", "echo step $SLURM_STEP_ID")
	}()
	// Nothing may happen while the job is suspended (a fixed wait: what
	// is checked is that nothing happens).
	select {
	case r := <-done:
		t.Fatalf("srun in a suspended job ended: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	case <-time.After(2 * time.Second):
	}
	if got, want := tool("squeue", "-h", "-s", "-j", sid, "-o", "%i").stdout, sid+".batch\n"; got != want {
		t.Errorf("squeue -s while srun waits = %q, want only the batch step %q", got, want)
	}

	tool("scontrol", "resume", sid)
	var r cmdRun
	select {
	case r = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("srun did not run its step within 30 s of the resume")
	}
	wantErr := "srun: Job " + sid + " step creation temporarily disabled, retrying (Requested operation is presently disabled)\n" +
		"srun: Step created for job " + sid + "\n"
	if r.code != 0 || r.stdout != "step 0\n" || r.stderr != wantErr {
		t.Errorf("srun after the resume: exit %d, stdout %q, stderr %q; want 0, %q, %q", r.code, r.stdout, r.stderr, "step 0\n", wantErr)
	}

	j = s.waitJob(t, id, job.Running, nodedWait)
	fields := strings.Split(strings.TrimSpace(tool("sacct", "-n", "-P", "-X", "-j", sid, "-o", "ElapsedRaw,Suspended").stdout), "|")
	elapsed, _ := strconv.ParseInt(fields[0], 10, 64)
	wall := time.Now().Unix() - j.StartTime
	if j.SuspendedSecs < 2 || elapsed > wall-j.SuspendedSecs+2 || elapsed < wall-j.SuspendedSecs-2 {
		t.Errorf("sacct ElapsedRaw %d (Suspended %s) after %d s, %d of them suspended; want the time suspended left out", elapsed, fields[1], wall, j.SuspendedSecs)
	}
	tool("scancel", sid)
	s.waitJob(t, id, job.Cancelled, nodedWait)
}
