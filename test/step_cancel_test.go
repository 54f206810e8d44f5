//go:build integration

package test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// stepCancelScript (the peer's run of its like: testdata/step-cancel-peer.txt)
// runs two steps: step 0 (two tasks) traps USR1 and
// waits for ever; step 1 (one task) traps USR1 and waits for a gate. Both
// use --exact so that they run side by side (without it step 1 waits for
// the CPUs step 0 holds, as on the peer: "Requested nodes are busy"). The
// batch shell reports each srun's exit and that it is still there after
// step 0 ended.
const stepCancelScript = `#!/bin/bash
#SBATCH -N1 -n3 -o out.txt
unset LOAM_CONF
srun -n2 --exact bash -c 'trap "echo USR1 \$SLURM_PROCID >> step0.txt" USR1; touch ready0.$SLURM_PROCID; while :; do sleep 0.1; done' &
p0=$!
while [ ! -e ready0.0 ] || [ ! -e ready0.1 ]; do sleep 0.1; done
srun -n1 --exact bash -c 'trap "echo USR1 >> step1.txt" USR1; touch ready1; while [ ! -e go ]; do sleep 0.1; done; true' &
p1=$!
wait $p0; echo "srun0 exit $?"
touch shell-alive
wait $p1; echo "srun1 exit $?"
`

// TestStepCancel: as in Slurm, scancel -s SIG JOB.STEP signals that
// step's tasks only, and scancel JOB.STEP cancels that step alone: its
// node announces the cancel, its srun reports the tasks killed and exits
// 137, the step leaves the step list, while the other step and the batch
// script keep running and the job completes.
func TestStepCancel(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 1, CPUs: 4})
	dir := sharedDir(t)
	id := s.sbatch(t, dir, stepCancelScript, nil)
	s.waitJob(t, id, job.Running, nodedWait)
	exists := func(name string) bool {
		_, err := os.Stat(filepath.Join(dir, name))
		return err == nil
	}
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		return string(b)
	}
	clustertest.Eventually(t, nodedWait, "both steps to start", func() error {
		if !exists("ready0.0") || !exists("ready0.1") || !exists("ready1") {
			return fmt.Errorf("steps not ready")
		}
		return nil
	})
	scancel := func(args ...string) {
		t.Helper()
		if r := s.run(t, dir, nil, "", nil, "scancel", args...); r.code != 0 || r.stderr != "" {
			t.Fatalf("scancel %v: exit %d %q", args, r.code, r.stderr)
		}
	}

	scancel("-s", "USR1", fmt.Sprintf("%d.0", id))
	clustertest.Eventually(t, 30*time.Second, "USR1 to reach both tasks of step 0", func() error {
		got := strings.Fields(strings.ReplaceAll(read("step0.txt"), "USR1 ", "USR1-"))
		slices.Sort(got)
		if !slices.Equal(got, []string{"USR1-0", "USR1-1"}) {
			return fmt.Errorf("step0.txt holds %q", read("step0.txt"))
		}
		return nil
	})
	if got := read("step1.txt"); got != "" {
		t.Errorf("step 1 got %q, want nothing", got)
	}

	scancel(fmt.Sprintf("%d.0", id))
	clustertest.Eventually(t, nodedWait, "srun of step 0 to end", func() error {
		if !exists("shell-alive") {
			return fmt.Errorf("no shell-alive yet")
		}
		return nil
	})
	steps := s.stepStates(t, id)
	if diff := slices.Compare(steps, []string{"1 RUNNING", "batch RUNNING"}); diff != 0 {
		t.Errorf("steps after the cancel: %q, want step 1 and the batch step running", steps)
	}
	if j, err := clustertest.JobState(s.d.Client(), id); err != nil || j.JobState != job.Running {
		t.Errorf("job after the step's cancel: %+v, %v", j.JobState, err)
	}

	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s.waitJob(t, id, job.Completed, nodedWait)
	out := read("out.txt")
	for _, want := range []string{
		fmt.Sprintf(`slurmstepd-n01: error: \*\*\* STEP %d\.0 ON n01 CANCELLED AT \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d \*\*\*\n`, id),
		`srun: error: n01: tasks 0-1: Killed\n`,
		`srun0 exit 137\n`,
		`srun1 exit 0\n`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("job output lacks %s:\n%s", want, out)
		}
	}
	if got := read("step1.txt"); got != "" {
		t.Errorf("step 1 got %q, want nothing", got)
	}
}

// stepStates lists job id's steps as "STEP STATE", in the controller's
// order.
func (s *srunCluster) stepStates(t *testing.T, id uint32) []string {
	t.Helper()
	resp, err := s.d.Client().Steps(context.Background(), &api.StepQuery{JobIDs: []uint32{id}})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, st := range resp.Steps {
		out = append(out, st.StepID+" "+string(st.State))
	}
	return out
}
