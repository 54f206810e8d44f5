//go:build integration

package test

import (
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/test/clustertest"
)

// TestS16SrunTasksPerGPU: as on the peer, srun -n4 --ntasks-per-gpu=2
// with no GPU option runs on two GPUs, tasks 0,1 seeing GPU 0 and tasks
// 2,3 GPU 1, all with SLURM_NTASKS_PER_TRES=2; inside an allocation without GPUs the step is refused with
// the peer's two lines and status 1.
func TestS16SrunTasksPerGPU(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 1, CPUs: 4, GPUs: 4})
	dir := sharedDir(t)
	r := s.run(t, dir, nil, "", nil, "srun", "-n4", "--ntasks-per-gpu=2", "-t", "1",
		"bash", "-c", "echo $SLURM_PROCID $CUDA_VISIBLE_DEVICES $SLURM_NTASKS_PER_TRES")
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	sort.Strings(lines)
	if diff := cmp.Diff([]string{"0 0 2", "1 0 2", "2 1 2", "3 1 2"}, lines); diff != "" || r.code != 0 {
		t.Errorf("new allocation: exit %d, tasks (-want +got):\n%s\nstderr: %s", r.code, diff, r.stderr)
	}
	r = s.run(t, dir, nil, "", nil, "salloc", "-n2", "-t", "1", "srun", "-n2", "--ntasks-per-gpu=1", "true")
	var errs []string
	for _, l := range strings.Split(r.stderr, "\n") {
		if strings.HasPrefix(l, "srun: ") {
			errs = append(errs, l)
		}
	}
	want := []string{"srun: error: Step requested GRES but job doesn't have GRES",
		"srun: error: Unable to create step for job N: Invalid generic resource (gres) specification"}
	for i := range errs {
		errs[i] = jobNumber.ReplaceAllString(errs[i], "job N:")
	}
	if diff := cmp.Diff(want, errs); diff != "" || r.code != 1 {
		t.Errorf("inside an allocation without GPUs: exit %d (want 1), lines (-want +got):\n%s", r.code, diff)
	}
}

var jobNumber = regexp.MustCompile(`job \d+:`)
