//go:build integration

package test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// srunShareScript runs steps side by side as the peer's t1/t3 sweeps did
// (job of one node, 2 CPUs, 2 GPUs): a second step waits for the CPUs the
// first holds, --exact steps share the node, GPUs held by one step are
// not given to another, and more GPUs than the job's are refused.
const srunShareScript = `#!/bin/bash
#SBATCH -N1 -n2 --gpus=2 -o out.txt
unset LOAM_CONF
srun -n2 bash -c 'touch held.$SLURM_PROCID; while [ ! -e go ]; do sleep 0.1; done' &
while [ ! -e held.0 ] || [ ! -e held.1 ]; do sleep 0.1; done
srun -n1 true &
until grep -q 'temporarily disabled' out.txt; do sleep 0.1; done
touch go
wait $!; echo rc=$?
wait
rm -f go
srun --exact -n1 --gpus=1 bash -c 'echo first $CUDA_VISIBLE_DEVICES > first.txt; touch one; while [ ! -e go ]; do sleep 0.1; done' &
while [ ! -e one ]; do sleep 0.1; done
srun --exact -n1 --gpus=1 bash -c 'echo second $CUDA_VISIBLE_DEVICES'; echo rc=$?
touch go
wait
cat first.txt
srun --exact -n1 --gpus=3 true; echo rc=$?
`

// TestSrunStepsShareTheJob: the peer's lines and GPUs for steps that run
// side by side in one job, on a real node daemon.
func TestSrunStepsShareTheJob(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 1, CPUs: 2, GPUs: 2})
	dir := sharedDir(t)
	id := s.sbatch(t, dir, srunShareScript, nil)
	s.waitJob(t, id, job.Completed, nodedWait)
	out, err := os.ReadFile(filepath.Join(dir, "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`srun: Job %[1]d step creation temporarily disabled, retrying (Requested nodes are busy)
srun: Step created for job %[1]d
rc=0
second 1
rc=0
first 0
srun: error: Step requested gres=gpu:3 is more than the job's gres=gpu:2
srun: error: Unable to create step for job %[1]d: Invalid generic resource (gres) specification
rc=1
`, id)
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("out.txt (-want +got):\n%s", diff)
	}
}
