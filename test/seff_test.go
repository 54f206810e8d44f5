//go:build integration

package test

import (
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// seffScript touches 50 MiB and burns 0.3 s of CPU in the batch step.
const seffScript = `#!/bin/bash
#SBATCH -n1 --mem=1G -o out.txt
python3 -c '
import time
b = bytearray(50 << 20)
for i in range(0, len(b), 4096): b[i] = 1
t = time.process_time()
while time.process_time() - t < 0.3: pass
'
`

// TestSeffS17FinishedJob: the built seff reports a finished job of a live
// cluster in Slurm's lines, with the memory its batch step measured
// against the --mem request, and refuses an unknown job as Slurm's does.
func TestSeffS17FinishedJob(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	s := startSrunCluster(t, clustertest.Spec{Nodes: 1, CPUs: 2})
	dir := sharedDir(t)
	id := s.sbatch(t, dir, seffScript, nil)
	s.waitJob(t, id, job.Completed, nodedWait)

	r := s.run(t, dir, nil, "", nil, "seff", fmt.Sprint(id))
	if r.code != 0 {
		t.Fatalf("seff: exit %d %q %q", r.code, r.stdout, r.stderr)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	want := []string{
		fmt.Sprintf("^Job ID: %d$", id), `^Cluster: \S+$`, `^User/Group: \S+/\S+$`, `^State: COMPLETED \(exit code 0\)$`,
		`^Cores: 1$`, `^CPU Utilized: 00:00:0\d$`, `^CPU Efficiency: \d+\.\d\d% of 00:00:\d\d core-walltime$`,
		`^Job Wall-clock time: 00:00:\d\d$`, `^Memory Utilized: (\d+\.\d\d) MB$`, `^Memory Efficiency: (\d+\.\d\d)% of 1\.00 GB$`,
	}
	if len(lines) != len(want) {
		t.Fatalf("seff printed %d lines, want %d:\n%s", len(lines), len(want), r.stdout)
	}
	for i, re := range want {
		if !regexp.MustCompile(re).MatchString(lines[i]) {
			t.Errorf("line %d %q: want %s", i+1, lines[i], re)
		}
	}
	// The batch step's peak is at least the 50 MiB it touched and well
	// under the request; the efficiency is that peak over 1 GiB.
	used, _ := strconv.ParseFloat(regexp.MustCompile(`[\d.]+`).FindString(lines[8]), 64)
	eff, _ := strconv.ParseFloat(regexp.MustCompile(`[\d.]+`).FindString(lines[9]), 64)
	if used < 50 || used > 1000 || eff < used/1024*100-0.01 || eff > used/1024*100+0.01 {
		t.Errorf("memory %v MB at %v%%: want 50 to 1000 MB and the share of 1 GB", used, eff)
	}

	r = s.run(t, dir, nil, "", nil, "seff", "999999")
	if r.code != 2 || r.stdout != "" || r.stderr != "Job not found.\n" {
		t.Errorf("seff 999999: exit %d %q %q, want 2 and Slurm's line", r.code, r.stdout, r.stderr)
	}
}
