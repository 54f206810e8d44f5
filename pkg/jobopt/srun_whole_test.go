package jobopt

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestExactWhole: srun refuses --exact beside --whole once its options
// check out, in the peer's words and status; --whole alone is taken
// without a warning (it asks for what a step not made exact gets).
func TestExactWhole(t *testing.T) {
	p := &Parser{Env: []string{"SLURM_EXIT_ERROR=7"}, Cwd: "/home/u", Now: testNow, Host: "login1"}
	code, lines := errorOf(t, parseAs(p, "srun", "--exact", "--whole", "-n1", "true"))
	if want := []string{"srun: error: --exact and --whole are mutually exclusive."}; code != 7 || !cmp.Equal(lines, want) {
		t.Errorf("exit %d, lines %q; want 7, %q", code, lines, want)
	}
	res, err := p.Srun([]string{"--whole", "-n1", "true"})
	if err != nil || !res.Step.Whole || len(res.Warnings) != 0 {
		t.Errorf("--whole: %+v, %v", res, err)
	}
}

// TestSrunMinCPUs: srun --mincpus asks the allocation srun makes for that
// many CPUs a node, as sbatch's does (the peer's srun --mincpus=4 -n1
// task sees SLURM_CPUS_ON_NODE=4, and --mincpus=70 is refused), without
// the warning of an ignored option.
func TestSrunMinCPUs(t *testing.T) {
	p := &Parser{Cwd: "/home/u", Now: testNow, Host: "login1"}
	res, err := p.Srun([]string{"--mincpus=4", "-n1", "true"})
	if err != nil || res.Request.MinCPUs != 4 || len(res.Warnings) != 0 {
		t.Errorf("--mincpus=4: %+v, %v", res, err)
	}
}

// TestSrunSpreadJob: srun --spread-job (or SLURM_SPREAD_JOB) spreads the
// allocation srun makes, as sbatch's does (the peer's srun --spread-job
// -n4 ran on 4 nodes).
func TestSrunSpreadJob(t *testing.T) {
	for _, env := range [][]string{nil, {"SLURM_SPREAD_JOB=1"}} {
		args := []string{"-n4", "true"}
		if env == nil {
			args = append([]string{"--spread-job"}, args...)
		}
		p := &Parser{Env: env, Cwd: "/home/u", Now: testNow, Host: "login1"}
		res, err := p.Srun(args)
		if err != nil || !res.Request.SpreadJob || len(res.Warnings) != 0 {
			t.Errorf("%v %v: %+v, %v", env, args, res, err)
		}
	}
}
