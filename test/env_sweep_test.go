//go:build integration

package test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// envSweepScript runs the steps whose variables differed from the peer's
// in the environment sweep, printing what the peer's tasks printed.
const envSweepScript = `#!/bin/bash
#SBATCH -N1 -n4 --gpus-per-node=2 -m plane=2 -o out.txt
unset LOAM_CONF
echo batch $SLURM_DISTRIBUTION $SLURM_DIST_PLANESIZE
srun -n2 --exact bash -c 'echo exact $SLURM_PROCID $SLURM_CPUS_ON_NODE' | sort
srun -n2 -c1 bash -c 'echo c1 $SLURM_PROCID $SLURM_CPUS_ON_NODE' | sort
srun -n2 bash -c 'echo whole $SLURM_PROCID $SLURM_CPUS_ON_NODE $SLURM_DISTRIBUTION $SLURM_DIST_PLANESIZE' | sort
srun -n1 --gpus-per-task=1 bash -c 'echo lone $SLURM_GPUS_ON_NODE $CUDA_VISIBLE_DEVICES ${SLURMD_TRES_BIND:-none}'
srun -n2 --gpus-per-task=1 bash -c 'echo pair $SLURM_PROCID $SLURM_GPUS_ON_NODE $CUDA_VISIBLE_DEVICES $SLURMD_TRES_BIND' | sort
`

// TestEnvSweepSteps checks, on real node daemons, the step variables the
// peer gave inside "sbatch -N1 -n4 --gpus-per-node=2 -m plane=2": exact
// steps get only their tasks' CPUs, a lone task sees all the step's GPUs,
// and srun runs with the plane distribution sbatch exported.
func TestEnvSweepSteps(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 1, CPUs: 4, GPUs: 2})
	dir := sharedDir(t)
	id := s.sbatch(t, dir, envSweepScript, nil)
	s.waitJob(t, id, job.Completed, nodedWait)
	out, err := os.ReadFile(filepath.Join(dir, "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := `batch plane 2
exact 0 2
exact 1 2
c1 0 2
c1 1 2
whole 0 4 plane 2
whole 1 4 plane 2
lone 2 0,1 none
pair 0 2 0 gpu:per_task:1
pair 1 2 1 gpu:per_task:1
`
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("job output (-want +got):\n%s", diff)
	}
}

// TestEnvSweepExclusiveTasks checks that a job without -n runs as many
// tasks as its CPUs hold: the peer's --exclusive job on a 32-CPU node
// shows SLURM_TASKS_PER_NODE=32.
func TestEnvSweepExclusiveTasks(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 1, CPUs: 4, GPUs: 0})
	dir := sharedDir(t)
	id := s.sbatch(t, dir, "#!/bin/bash\n#SBATCH --exclusive -o out.txt\necho $SLURM_TASKS_PER_NODE $SLURM_JOB_CPUS_PER_NODE ${SLURM_NTASKS:-unset}\n", nil)
	s.waitJob(t, id, job.Completed, nodedWait)
	out, err := os.ReadFile(filepath.Join(dir, "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("4 4 unset\n", string(out)); diff != "" {
		t.Errorf("job output (-want +got):\n%s", diff)
	}
}
