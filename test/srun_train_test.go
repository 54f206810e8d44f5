//go:build integration

package test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// trainSteps is how many steps each rank of the example trains.
const trainSteps = 40

// startTraining copies contrib/examples/train.sbatch and train.sh into a
// fresh directory and submits the job on two nodes of two GPUs (four
// ranks, options given on the command line override the script's).
func startTraining(t *testing.T, s *srunCluster, args ...string) (string, uint32) {
	t.Helper()
	dir := sharedDir(t)
	for _, f := range []string{"train.sbatch", "train.sh"} {
		data, err := os.ReadFile(filepath.Join("..", "contrib", "examples", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"TRAIN_STEPS=" + strconv.Itoa(trainSteps), "STEP_SECONDS=0.1", "CKPT_EVERY=5"}
	args = append([]string{"--parsable", "--ntasks-per-node=2", "--gpus-per-node=2", "-o", "train.out"}, args...)
	r := s.run(t, dir, nil, "", env, "sbatch", append(args, "train.sbatch")...)
	id, err := strconv.ParseUint(strings.TrimSpace(r.stdout), 10, 32)
	if r.code != 0 || err != nil {
		t.Fatalf("sbatch train.sbatch: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	return dir, uint32(id)
}

// waitProgress waits until every rank completed at least n steps.
func waitProgress(t *testing.T, dir string, id uint32, ranks, n int) {
	t.Helper()
	clustertest.Eventually(t, nodedWait, fmt.Sprintf("%d ranks at step %d", ranks, n), func() error {
		for r := 0; r < ranks; r++ {
			data, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("ckpt-%d", id), fmt.Sprintf("steps-%d", r)))
			if got := strings.Count(string(data), "\n"); got < n {
				return fmt.Errorf("rank %d at step %d", r, got)
			}
		}
		return nil
	})
}

// checkResumed checks that every rank trained each step exactly once
// across the two runs and that the second run started from a checkpoint.
func checkResumed(t *testing.T, dir string, id uint32, ranks int) {
	t.Helper()
	out, _ := os.ReadFile(filepath.Join(dir, "train.out"))
	for r := 0; r < ranks; r++ {
		data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("ckpt-%d", id), fmt.Sprintf("steps-%d", r)))
		if err != nil {
			t.Fatal(err)
		}
		var want strings.Builder
		for i := 1; i <= trainSteps; i++ {
			fmt.Fprintf(&want, "%d\n", i)
		}
		if string(data) != want.String() {
			t.Errorf("rank %d trained steps %q, want 1..%d once each", r, strings.ReplaceAll(string(data), "\n", " "), trainSteps)
		}
		ckpt, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("ckpt-%d", id), fmt.Sprintf("rank-%d", r)))
		if strings.TrimSpace(string(ckpt)) != strconv.Itoa(trainSteps) {
			t.Errorf("rank %d final checkpoint %q, want %d", r, ckpt, trainSteps)
		}
		m := regexp.MustCompile(fmt.Sprintf(`rank %d/%d local %d gpu \S+ master n01:\d+: starting at step (\d+) \(restart 1\)`,
			r, ranks, r%2)).FindSubmatch(out)
		if m == nil || string(m[1]) == "0" {
			t.Errorf("rank %d did not resume from a checkpoint; output:\n%s", r, out)
		}
	}
	if !strings.Contains(string(out), fmt.Sprintf("job %d run 1: 4 processes on n[01-02], master n01:", id)) {
		t.Errorf("no second run in the output:\n%s", out)
	}
}

// TestSrunTrainingRequeued runs the example training job across two
// emulated nodes, requeues it in the middle (scontrol requeue: the job's
// processes get SIGTERM, the ranks save their step), and checks that it
// resumed from the checkpoint and trained every step exactly once.
func TestSrunTrainingRequeued(t *testing.T) {
	// The requeued job may run again 6 s later (cred_expire + 1), not 121 s.
	s := startSrunCluster(t, clustertest.Spec{Nodes: 2, CPUs: 4, GPUs: 2, Extra: "AuthInfo=cred_expire=5"})
	dir, id := startTraining(t, s)
	waitProgress(t, dir, id, 4, 8)
	if r := s.run(t, dir, nil, "", nil, "scontrol", "requeue", fmt.Sprint(id)); r.code != 0 {
		t.Fatalf("scontrol requeue: %d %s", r.code, r.stderr)
	}
	j := s.waitJob(t, id, job.Completed, 2*nodedWait)
	if j.Restarts != 1 {
		t.Errorf("restarts %d, want 1", j.Restarts)
	}
	checkResumed(t, dir, id, 4)
}

// TestSrunTrainingPreempted runs the example in a low-priority partition
// and submits an urgent job that needs its nodes: the controller preempts
// it (its checkpoint signal, USR1, then its grace time), requeues it, and
// it resumes from its checkpoint once the urgent job is done.
func TestSrunTrainingPreempted(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 2, CPUs: 4, GPUs: 2, Extra: `PreemptType=preempt/partition_prio
PreemptMode=REQUEUE
PartitionName=batch Nodes=ALL Default=YES MaxTime=UNLIMITED DefaultTime=01:00:00 PriorityTier=1 QueueClass=batch GraceTime=10 CheckpointSignal=USR1 State=UP
PartitionName=urgent Nodes=ALL MaxTime=UNLIMITED DefaultTime=01:00:00 PriorityTier=3 QueueClass=urgent State=UP`})
	dir, id := startTraining(t, s, "-p", "batch")
	waitProgress(t, dir, id, 4, 8)
	urgent := s.sbatch(t, dir, "#!/bin/bash\nsleep 1\n", nil, "-p", "urgent", "-N2", "--gres=gpu:2", "-o", "/dev/null")
	s.waitJob(t, urgent, job.Completed, 2*nodedWait)
	j := s.waitJob(t, id, job.Completed, 2*nodedWait)
	if j.Restarts != 1 {
		t.Errorf("restarts %d, want 1 (preempted once)", j.Restarts)
	}
	checkResumed(t, dir, id, 4)
	if out, _ := os.ReadFile(filepath.Join(dir, "train.out")); !strings.Contains(string(out), "DUE TO PREEMPTION") {
		t.Errorf("the job was not preempted:\n%s", out)
	}
}
