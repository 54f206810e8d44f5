package jobopt

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSrunNodeCountVariables checks which variable srun takes -N from:
// Slurm 22.05's srun reads SLURM_JOB_NUM_NODES and ignores SLURM_NNODES
// (the peer ran one task on one node with SLURM_NNODES=2 and with
// SLURM_NNODES=abc, and refused SLURM_JOB_NUM_NODES=abc).
func TestSrunNodeCountVariables(t *testing.T) {
	tests := map[string]struct {
		env   []string
		nodes int
		err   string
	}{
		"SLURM_NNODES alone is not read":     {env: []string{"SLURM_NNODES=2"}, nodes: 0},
		"an invalid SLURM_NNODES is ignored": {env: []string{"SLURM_NNODES=abc"}, nodes: 0},
		"SLURM_JOB_NUM_NODES sets -N":        {env: []string{"SLURM_JOB_NUM_NODES=2"}, nodes: 2},
		"SLURM_JOB_NUM_NODES wins over SLURM_NNODES": {env: []string{"SLURM_JOB_NUM_NODES=2", "SLURM_NNODES=3"},
			nodes: 2},
		"an invalid SLURM_JOB_NUM_NODES is refused": {env: []string{"SLURM_JOB_NUM_NODES=abc"},
			err: `srun: error: "abc" is not a valid node count`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r, err := (&Parser{Env: tc.env, Cwd: "/work"}).Srun([]string{"true"})
			if tc.err != "" {
				if err == nil {
					t.Fatalf("no error, want %q", tc.err)
				}
				if diff := cmp.Diff(tc.err, err.Error()); diff != "" {
					t.Errorf("error (-want +got):\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Request.MinNodes != tc.nodes {
				t.Errorf("MinNodes = %d, want %d", r.Request.MinNodes, tc.nodes)
			}
		})
	}
}

// TestSrunExportVariables checks --export's variables as the peer's srun
// read them (printenv FOO of a step, FOO=bar in srun's environment):
// SRUN_EXPORT_ENV overrides SLURM_EXPORT_ENV, and --export both.
func TestSrunExportVariables(t *testing.T) {
	tests := map[string]struct {
		env  []string
		args []string
		want string
	}{
		"SRUN_EXPORT_ENV alone":                   {env: []string{"SRUN_EXPORT_ENV=NONE"}, want: "NONE"},
		"SRUN_EXPORT_ENV wins over SLURM's":       {env: []string{"SLURM_EXPORT_ENV=ALL", "SRUN_EXPORT_ENV=NONE"}, want: "NONE"},
		"SRUN_EXPORT_ENV wins whatever the order": {env: []string{"SRUN_EXPORT_ENV=ALL", "SLURM_EXPORT_ENV=NONE"}, want: "ALL"},
		"--export wins over both":                 {env: []string{"SRUN_EXPORT_ENV=NONE"}, args: []string{"--export=ALL"}, want: "ALL"},
		"SLURM_EXPORT_ENV alone":                  {env: []string{"SLURM_EXPORT_ENV=NONE"}, want: "NONE"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			r, err := (&Parser{Env: tc.env, Cwd: "/work"}).Srun(append(tc.args, "printenv", "FOO"))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, r.Step.ExportSpec); diff != "" {
				t.Errorf("export (-want +got):\n%s", diff)
			}
		})
	}
}
