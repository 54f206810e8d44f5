//go:build integration

package test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// stepGraceScript runs one step whose task saves its work on SIGTERM (a
// second, well within KillWait=2) while the batch shell, with no trap,
// dies on SIGTERM at once.
const stepGraceScript = `#!/bin/bash
#SBATCH -N1 -n1 -o out.txt
unset LOAM_CONF
srun -n1 bash -c 'trap "sleep 1; echo saved > saved.txt; exit 0" TERM; touch ready; while :; do sleep 0.1; done'
`

// TestCancelGivesStepsTheirGrace: scancel of a running job sends SIGTERM
// to the batch shell and its steps; as in Slurm, the steps keep KillWait
// to save their work even when the batch shell dies at once.
func TestCancelGivesStepsTheirGrace(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 1, CPUs: 2})
	dir := sharedDir(t)
	id := s.sbatch(t, dir, stepGraceScript, nil)
	s.waitJob(t, id, job.Running, nodedWait)
	clustertest.Eventually(t, nodedWait, "the step to start", func() error {
		_, err := os.Stat(filepath.Join(dir, "ready"))
		return err
	})
	if r := s.run(t, dir, nil, "", nil, "scancel", fmt.Sprint(id)); r.code != 0 {
		t.Fatalf("scancel: exit %d %q", r.code, r.stderr)
	}
	s.waitJob(t, id, job.Cancelled, nodedWait)
	if b, err := os.ReadFile(filepath.Join(dir, "saved.txt")); err != nil || string(b) != "saved\n" {
		out, _ := os.ReadFile(filepath.Join(dir, "out.txt"))
		t.Errorf("the step did not save its work in its grace (%v); job output:\n%s", err, out)
	}
}
