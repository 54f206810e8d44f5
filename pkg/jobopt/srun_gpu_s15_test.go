package jobopt

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestS15TasksPerGPUWithoutGPUs: the peer's srun refuses --ntasks-per-gpu
// for a new allocation without any GPU option (status 1); with -n, with
// a GPU option or inside an allocation the options pass.
func TestS15TasksPerGPUWithoutGPUs(t *testing.T) {
	const gres = "srun: error: Invalid generic resource (gres) specification"
	tests := map[string]struct {
		args []string
		env  []string
		want []string // nil: accepted
	}{
		"alone": {args: []string{"--ntasks-per-gpu=2", "true"}, want: []string{
			"srun: error: gres_job_state_validate: --ntasks-per-tres needs either a GRES GPU specification or a node/ntask specification",
			gres}},
		"with -N only": {args: []string{"--ntasks-per-gpu=2", "-N", "1", "true"}, want: []string{gres}},
		// A fixed -N is a task a node: the peer runs -N2
		// --ntasks-per-gpu=1 on 2 GPUs, refuses -N3 --ntasks-per-gpu=2
		// (not a multiple) and -N2-3 (no task count).
		"-N2, a GPU a task": {args: []string{"--ntasks-per-gpu=1", "-N2", "true"}},
		"-n3, two a GPU": {args: []string{"--ntasks-per-gpu=2", "-n3", "true"}, want: []string{
			"srun: error: Failed to validate job spec, -n/--ntasks has to be a multiple of --ntasks-per-gpu.", gres}},
		"-N3, two a GPU": {args: []string{"--ntasks-per-gpu=2", "-N3", "true"}, want: []string{gres}},
		"a -N range": {args: []string{"--ntasks-per-gpu=1", "-N2-3", "true"}, want: []string{
			"srun: error: gres_job_state_validate: --ntasks-per-tres needs either a GRES GPU specification or a node/ntask specification",
			gres}},
		"with -n":              {args: []string{"--ntasks-per-gpu=1", "-n", "2", "true"}},
		"with --gpus":          {args: []string{"--ntasks-per-gpu=2", "--gpus=1", "true"}},
		"with --gres=gpu":      {args: []string{"--ntasks-per-gpu=2", "--gres=gpu:1", "true"}},
		"inside an allocation": {args: []string{"--ntasks-per-gpu=2", "true"}, env: []string{"SLURM_JOB_ID=7"}},
		"with --jobid":         {args: []string{"--ntasks-per-gpu=2", "--jobid=7", "true"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Prog: "srun", Cwd: "/work", Now: testNow, Env: tc.env}
			_, err := p.Srun(tc.args)
			if tc.want == nil {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			code, lines := errorOf(t, err)
			if diff := cmp.Diff(tc.want, lines); diff != "" || code != 1 {
				t.Errorf("status %d (want 1), lines (-want +got):\n%s", code, diff)
			}
		})
	}
}
