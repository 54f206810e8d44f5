//go:build integration

package test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/loamhpc/loam/test/clustertest"
)

// TestSallocS14Revoked: salloc's command sees the variables its options
// give (SLURM_CPUS_PER_TASK, as the peer's salloc -c2), and when the job
// is cancelled under it salloc says at once that the allocation is
// revoked, lets the command finish and relinquishes nothing, as the
// peer's salloc; the job shows BatchFlag=0.
func TestSallocS14Revoked(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 1, CPUs: 4})
	dir := sharedDir(t)
	r := s.run(t, dir, nil, "", nil, "salloc", "-N1", "-c2", "bash", "-c",
		"echo cpus=$SLURM_CPUS_PER_TASK; scancel $SLURM_JOB_ID; sleep 5; echo survived")
	m := regexp.MustCompile(`^salloc: Granted job allocation (\d+)\nsalloc: Job allocation (\d+) has been revoked\.\n$`).FindStringSubmatch(r.stderr)
	if r.code != 0 || m == nil || m[1] != m[2] || r.stdout != "cpus=2\nsurvived\n" {
		t.Fatalf("salloc: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	show := s.run(t, dir, nil, "", nil, "scontrol", "show", "job", m[1])
	if !strings.Contains(show.stdout, " BatchFlag=0 ") {
		t.Errorf("scontrol show job %s: %q, want BatchFlag=0", m[1], show.stdout)
	}
	if strings.Contains(show.stdout, "StdOut=") {
		t.Errorf("scontrol show job %s shows StdOut for an allocation: %q", m[1], show.stdout)
	}
}
