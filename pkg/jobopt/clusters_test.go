package jobopt

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestClustersRefused: -M (or its variables) names a cluster the
// accounting database must find; without one the peer's sbatch, srun and
// salloc refuse every name once their options check out, with exit
// status SLURM_EXIT_ERROR, and the last value given is the one named.
func TestClustersRefused(t *testing.T) {
	unreachable := func(prog, name string) []string {
		return []string{prog + ": error: Problem talking to database",
			prog + ": error: '" + name + "' can't be reached now, or it is an invalid entry for --cluster.  " +
				"Use 'sacctmgr list clusters' to see available clusters."}
	}
	tests := map[string]struct {
		cmd   string
		env   []string
		args  []string
		code  int
		lines []string
	}{
		"sbatch -M x":                 {"sbatch", nil, []string{"-M", "x", "--wrap=true"}, 1, unreachable("sbatch", "x")},
		"sbatch --cluster=y last":     {"sbatch", nil, []string{"-M", "x", "--cluster=y", "--wrap=true"}, 1, unreachable("sbatch", "y")},
		"sbatch -M all":               {"sbatch", nil, []string{"-M", "all", "--wrap=true"}, 1, []string{"sbatch: error: Problem talking to database", "sbatch: error: No clusters can be reached now. Contact your admin to resolve the problem."}},
		"SLURM_CLUSTERS beats SBATCH": {"sbatch", []string{"SBATCH_CLUSTERS=x", "SLURM_CLUSTERS=y"}, []string{"--wrap=true"}, 1, unreachable("sbatch", "y")},
		"SLURM_EXIT_ERROR":            {"sbatch", []string{"SLURM_EXIT_ERROR=7"}, []string{"-M", "x", "--wrap=true"}, 7, unreachable("sbatch", "x")},
		"a bad -N is named first":     {"sbatch", nil, []string{"-N", "abc", "-M", "x", "--wrap=true"}, 255, []string{`sbatch: error: "abc" is not a valid node count`}},
		"srun -M x":                   {"srun", nil, []string{"-M", "x", "true"}, 1, unreachable("srun", "x")},
		"salloc SLURM_CLUSTERS":       {"salloc", []string{"SALLOC_CLUSTERS=x", "SLURM_CLUSTERS=y"}, nil, 1, unreachable("salloc", "y")},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Env: tc.env, Cwd: "/home/u", Now: testNow, Host: "login1"}
			code, lines := errorOf(t, parseAs(p, tc.cmd, tc.args...))
			if code != tc.code || !cmp.Equal(lines, tc.lines) {
				t.Errorf("exit %d, lines %q; want %d, %q", code, lines, tc.code, tc.lines)
			}
		})
	}
}
