package command

import (
	"context"
	"slices"
	"testing"
)

// TestSbatchPBSUmask: #PBS -W umask= replaces the umask sbatch passes on
// (the peer's job ran with umask 0077), not a SLURM_UMASK the submitter
// set (the peer's job kept 0022).
func TestSbatchPBSUmask(t *testing.T) {
	tests := map[string]struct {
		environ []string
		want    string
	}{
		"sbatch's own umask":       {want: "SLURM_UMASK=0077"},
		"the submitter's variable": {environ: []string{"SLURM_UMASK=0002"}, want: "SLURM_UMASK=0002"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{}
			te := newTestEnv(f, 1795949851)
			te.files["/home/alice/work/job.sh"] = []byte("#!/bin/sh\n#PBS -N pbs -W umask=077\ntrue\n")
			te.Environ = append(te.Environ, tc.environ...)
			if code := Sbatch(context.Background(), te.Env, []string{"job.sh"}); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			req := f.submits[0]
			if req.Job.Name != "pbs" || !slices.Contains(req.Job.Environment, tc.want) {
				t.Errorf("name %q, environment %q lacks %s", req.Job.Name, req.Job.Environment, tc.want)
			}
		})
	}
}
