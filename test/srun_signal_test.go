//go:build integration

package test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// srunSignalScript traps USR1 and USR2 in the batch shell and in a step,
// each writing what it got to a file, and waits for a gate. The step ends
// with true: a signal also kills the step's sleep, and when the gate opens
// right after the trap ran, the loop's status is that sleep's 138.
const srunSignalScript = `#!/bin/bash
#SBATCH -N1 -n1 -o out.txt
unset LOAM_CONF
trap 'echo USR1 >> shell.txt' USR1
trap 'echo USR2 >> shell.txt' USR2
srun bash -c 'trap "echo USR1 >> step.txt" USR1; trap "echo USR2 >> step.txt" USR2; touch step-ready; while [ ! -e go ]; do sleep 0.1; done; true' &
while [ ! -e go ]; do sleep 0.1; done
wait
`

// TestScancelSignalScopes: as in Slurm, scancel --signal reaches the
// job's steps and not the batch shell, -b reaches the batch shell only,
// and -f reaches both.
func TestScancelSignalScopes(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 1, CPUs: 4})
	dir := sharedDir(t)
	id := s.sbatch(t, dir, srunSignalScript, nil)
	s.waitJob(t, id, job.Running, nodedWait)
	clustertest.Eventually(t, nodedWait, "the step to start", func() error {
		_, err := os.Stat(filepath.Join(dir, "step-ready"))
		return err
	})
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		return string(b)
	}
	signal := func(want map[string]string, args ...string) {
		t.Helper()
		if r := s.run(t, dir, nil, "", nil, "scancel", append(args, fmt.Sprint(id))...); r.code != 0 {
			t.Fatalf("scancel %v: exit %d %q", args, r.code, r.stderr)
		}
		clustertest.Eventually(t, 30*time.Second, fmt.Sprintf("scancel %v to be delivered", args), func() error {
			for file, w := range want {
				if got := read(file); got != w {
					return fmt.Errorf("%s holds %q, want %q", file, got, w)
				}
			}
			return nil
		})
	}
	signal(map[string]string{"step.txt": "USR1\n", "shell.txt": ""}, "--signal=USR1")
	signal(map[string]string{"step.txt": "USR1\n", "shell.txt": "USR2\n"}, "-b", "--signal=USR2")
	// With -f srun gets the signal too and forwards it to its task, so
	// the task may see it once more (or once, when the two arrive during
	// the same sleep: signals do not queue).
	signal(map[string]string{"shell.txt": "USR2\nUSR1\n"}, "-f", "--signal=USR1")
	clustertest.Eventually(t, 30*time.Second, "scancel -f to reach the step", func() error {
		switch got := read("step.txt"); got {
		case "USR1\nUSR1\n", "USR1\nUSR1\nUSR1\n":
			return nil
		default:
			return fmt.Errorf("step.txt holds %q, want USR1 two or three times", got)
		}
	})
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s.waitJob(t, id, job.Completed, nodedWait)
	if out := read("out.txt"); strings.Contains(out, "rror") {
		t.Errorf("job output:\n%s", out)
	}
}
