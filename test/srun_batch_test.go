//go:build integration

package test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// srunBatchScript runs steps the way the peer's srun was run to capture
// its behaviour (noded/step/testdata, tools/command's srun tests): inside
// "sbatch -N2 --ntasks-per-node=2 --gres=gpu:2".
const srunBatchScript = `#!/bin/bash
#SBATCH -N2 --ntasks-per-node=2 --gres=gpu:2 -o out.txt
# srun and scontrol find the cluster from the job's own SLURM_CONF.
unset LOAM_CONF
srun -l bash -c 'env > env-$SLURM_STEP_ID-$SLURM_PROCID'
echo rc=$?
srun -N2 -n3 --gpus-per-task=1 bash -c 'env > env-$SLURM_STEP_ID-$SLURM_PROCID'
echo rc=$?
srun -n2 bash -c 'exit $SLURM_PROCID'; echo rc=$?
srun -n1 bash -c 'kill -9 $$'; echo rc=$?
srun -n2 -l --kill-on-bad-exit bash -c 'if [ $SLURM_PROCID = 1 ]; then exit 4; fi; sleep 30'; echo rc=$?
srun -n2 -o task-%t-%n.txt bash -c 'echo task $SLURM_PROCID'; echo rc=$?
echo "some input" | srun -n4 -l cat | sort; echo rc=${PIPESTATUS[1]}
srun -n1 /no/such; echo rc=$?
MASTER_ADDR=$(scontrol show hostnames $SLURM_JOB_NODELIST | head -n1); echo MASTER_ADDR=$MASTER_ADDR
`

// TestSrunInsideBatchJob runs srun inside a batch job on two real node
// daemons: the peer's messages and exit statuses, the tasks' variables,
// output patterns, input, scontrol show hostnames (MASTER_ADDR), and the
// steps in sacct. The commands in the job find the cluster through the
// SLURM_CONF the node daemon sets, and on the PATH the job inherited.
func TestSrunInsideBatchJob(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 2, CPUs: 4, GPUs: 2})
	dir := sharedDir(t)
	id := s.sbatch(t, dir, srunBatchScript, nil)
	s.waitJob(t, id, job.Completed, nodedWait)

	out, err := os.ReadFile(filepath.Join(dir, "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	masked := regexp.MustCompile(`CANCELLED AT \S+`).ReplaceAllString(string(out), "CANCELLED AT <time>")
	want := fmt.Sprintf(`rc=0
srun: Warning: can't honor --ntasks-per-node set to 2 which doesn't match the requested tasks 3 with the number of requested nodes 2. Ignoring --ntasks-per-node.
rc=0
srun: error: n02: task 1: Exited with exit code 1
rc=1
srun: Warning: can't run 1 processes on 2 nodes, setting nnodes to 1
srun: error: n01: task 0: Killed
srun: Force Terminated StepId=%[1]d.3
rc=137
srun: error: n02: task 1: Exited with exit code 4
srun: launch/slurm: _step_signal: Terminating StepId=%[1]d.4
0: slurmstepd-n01: error: *** STEP %[1]d.4 ON n01 CANCELLED AT <time> ***
srun: error: n01: task 0: Terminated
srun: Force Terminated StepId=%[1]d.4
rc=143
rc=0
0: some input
1: some input
2: some input
3: some input
rc=0
srun: Warning: can't run 1 processes on 2 nodes, setting nnodes to 1
slurmstepd-n01: error: execve(): /no/such: No such file or directory
srun: error: n01: task 0: Exited with exit code 2
rc=2
MASTER_ADDR=n01
`, id)
	if diff := cmp.Diff(want, masked); diff != "" {
		t.Errorf("job output (-want +got):\n%s", diff)
	}
	checkTaskEnv(t, dir, id)
	for file, want := range map[string]string{"task-0-0.txt": "task 0\n", "task-1-1.txt": "task 1\n"} {
		if got, err := os.ReadFile(filepath.Join(dir, file)); err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", file, got, err, want)
		}
	}
	acct := s.run(t, dir, nil, "", nil, "sacct", "-j", fmt.Sprint(id), "-P", "-n", "-o", "JobID,JobName,State,ExitCode")
	wantAcct := fmt.Sprintf(`%[1]d|job.sh|COMPLETED|0:0
%[1]d.batch|batch|COMPLETED|0:0
%[1]d.0|bash|COMPLETED|0:0
%[1]d.1|bash|COMPLETED|0:0
%[1]d.2|bash|FAILED|1:0
%[1]d.3|bash|FAILED|0:9
%[1]d.4|bash|FAILED|0:15
%[1]d.5|bash|COMPLETED|0:0
%[1]d.6|cat|COMPLETED|0:0
%[1]d.7|such|FAILED|2:0
`, id)
	if diff := cmp.Diff(wantAcct, acct.stdout); diff != "" {
		t.Errorf("sacct (-want +got):\n%s\nstderr: %s", diff, acct.stderr)
	}
}

// checkTaskEnv compares each task's step variables with what the peer's
// srun gave the same tasks (noded/step/testdata/*.peer; there the nodes
// were gpu001 and gpu002).
func checkTaskEnv(t *testing.T, dir string, id uint32) {
	t.Helper()
	keys := []string{"SLURM_PROCID", "SLURM_LOCALID", "SLURM_NODEID", "SLURMD_NODENAME", "SLURM_GTIDS", "SLURM_STEP_ID",
		"SLURM_STEP_NODELIST", "SLURM_STEP_NUM_NODES", "SLURM_STEP_NUM_TASKS", "SLURM_STEP_TASKS_PER_NODE",
		"SLURM_NTASKS", "SLURM_NNODES", "SLURM_TASKS_PER_NODE", "SLURM_STEP_GPUS", "CUDA_VISIBLE_DEVICES",
		"SLURM_GPUS_ON_NODE", "SLURM_JOB_ID", "SLURM_JOB_NODELIST", "SLURM_DISTRIBUTION", "SLURM_CPUS_ON_NODE"}
	peer := map[string]string{"0": "plain", "1": "gpus-per-task"}
	for _, f := range []string{"0-0", "0-1", "0-2", "0-3", "1-0", "1-1", "1-2"} {
		step, task, _ := strings.Cut(f, "-")
		got := readEnv(t, filepath.Join(dir, "env-"+f))
		want := readEnv(t, filepath.Join("..", "noded", "step", "testdata", peer[step]+"-"+task+".peer"))
		for _, k := range keys {
			w := strings.NewReplacer("gpu001", "n01", "gpu002", "n02", "gpu[001-002]", "n[01-02]", "<job>", fmt.Sprint(id)).Replace(want[k])
			if k == "SLURM_STEP_ID" {
				w = step // the peer's steps of capture.sh are numbered alike
			}
			if got[k] != w {
				t.Errorf("env-%s: %s=%q, the peer's task had %q", f, k, got[k], w)
			}
		}
	}
}
