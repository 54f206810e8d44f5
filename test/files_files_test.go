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

// filesScript runs the -o/-i values Slurm's srun reads before they are
// file names, and prints the job's own StdOut= as scontrol shows it. The
// expected text is what the peer's srun and scontrol printed.
const filesScript = `#!/bin/bash
#SBATCH -n3 -o out-%j-%N-%5j.txt -J nm
unset LOAM_CONF
srun -n3 -o 1 bash -c 'echo out $SLURM_PROCID; echo err $SLURM_PROCID >&2' 2>&1 | sort
srun -n2 -l -o allx.out bash -c 'echo all $SLURM_PROCID' | sort
srun -n2 -o 5 bash -c 'echo five $SLURM_PROCID'
echo in | srun -n2 -i ' 1' -l cat
scontrol show job $SLURM_JOB_ID | grep -o 'StdOut=.*'
`

// TestFilesSrunStreamsAndShownNames checks srun's "all...", task id and
// past-the-last-task values and scontrol's StdOut= of a running job
// (%j filled in, %N and %5j as written) on real daemons.
func TestFilesSrunStreamsAndShownNames(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 1, CPUs: 4})
	dir := sharedDir(t)
	id := s.sbatch(t, dir, filesScript, nil)
	s.waitJob(t, id, job.Completed, nodedWait)
	matches, _ := filepath.Glob(filepath.Join(dir, fmt.Sprintf("out-%d-*-%05d.txt", id, id)))
	if len(matches) != 1 {
		t.Fatalf("output files %q, want one out-%d-HOST-%05d.txt", matches, id, id)
	}
	out, err := os.ReadFile(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	// srun's two streams reach the file in no fixed order: sorted.
	want := fmt.Sprintf("err 1\nout 1\n0: all 0\n1: all 1\n1: in\nStdOut=%s/out-%d-%%N-%%5j.txt\n", dir, id)
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("job output (-want +got):\n%s", diff)
	}
	five, err := os.ReadFile(filepath.Join(dir, "5"))
	if err != nil {
		t.Fatalf("srun -n2 -o 5 wrote no file 5: %v", err)
	}
	if got := string(five); got != "five 0\nfive 1\n" && got != "five 1\nfive 0\n" {
		t.Errorf("file 5 = %q, want both tasks' lines", got)
	}
}
