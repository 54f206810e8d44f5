package jobopt

import (
	"slices"
	"testing"
)

// TestPrefer: sbatch, salloc and srun keep --prefer as Slurm stores it
// (the peer shows --prefer=gpu,cpu as Prefer=gpu&cpu), without a warning
// and without reading any input variable (Slurm 22.05 has none).
func TestPrefer(t *testing.T) {
	env := []string{"SBATCH_PREFER=x", "SALLOC_PREFER=x", "SLURM_PREFER=x"}
	p := &Parser{Cwd: "/home/u", Now: testNow, Env: env}
	sb, err := submit(t, env, "#!/bin/sh\n#SBATCH --prefer=gpu,cpu\n", "job.sh")
	if err != nil {
		t.Fatal(err)
	}
	sa, err := p.Salloc([]string{"--prefer=gpu"})
	if err != nil {
		t.Fatal(err)
	}
	sr, err := p.Srun([]string{"--prefer=[gpu|cpu]", "true"})
	if err != nil {
		t.Fatal(err)
	}
	none, err := submit(t, env, "#!/bin/sh\n", "job.sh")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, got, want string
		warnings        []string
	}{
		{"sbatch", sb.Request.Prefer, "gpu&cpu", sb.Warnings},
		{"salloc", sa.Request.Prefer, "gpu", sa.Warnings},
		{"srun", sr.Request.Prefer, "[gpu|cpu]", sr.Warnings},
		{"sbatch without", none.Request.Prefer, "", none.Warnings},
	} {
		if c.got != c.want {
			t.Errorf("%s: Prefer %q, want %q", c.name, c.got, c.want)
		}
		if slices.ContainsFunc(c.warnings, func(w string) bool { return w != "" }) {
			t.Errorf("%s: warnings %q", c.name, c.warnings)
		}
	}
}
