package jobopt

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGPUNodes: --gpus over GPUs a node sets the node count, as the
// peer's sbatch and salloc do (--gpus=4 --gpus-per-node=2 shows
// NumNodes=2-2 and runs on 2 nodes with 4 GPUs; --gres=gpu:1 -G4 on 4);
// a count that disagrees with -N is refused.
func TestGPUNodes(t *testing.T) {
	type nodes struct {
		Min, Max int
		Set      bool
		Refused  bool
		FromGPUs bool
	}
	tests := map[string]struct {
		prog string
		args []string
		want nodes
	}{
		"--gpus=4 --gpus-per-node=2":     {"sbatch", []string{"--gpus=4", "--gpus-per-node=2"}, nodes{2, 2, true, false, true}},
		"--gres=gpu:1 -G4":               {"sbatch", []string{"--gres=gpu:1", "-G4"}, nodes{4, 4, true, false, true}},
		"-N2 --gpus=4 --gpus-per-node=2": {"sbatch", []string{"-N2", "--gpus=4", "--gpus-per-node=2"}, nodes{2, 2, true, false, false}},
		"-N3 --gpus=4 --gpus-per-node=2": {"sbatch", []string{"-N3", "--gpus=4", "--gpus-per-node=2"}, nodes{Refused: true}},
		"--gpus=4 alone":                 {"sbatch", []string{"--gpus=4"}, nodes{}},
		"salloc":                         {"salloc", []string{"--gpus=4", "--gpus-per-node=2"}, nodes{2, 2, true, false, true}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Prog: tc.prog, Cwd: "/work", Now: testNow}
			var got nodes
			if tc.prog == "salloc" {
				res, err := p.Salloc(append(tc.args, "true"))
				if err != nil {
					t.Fatal(err)
				}
				r := res.Request
				got = nodes{r.MinNodes, r.MaxNodes, r.NodesSet, false, r.NodesFromGPUs}
			} else {
				cl, err := p.CommandLine(append(tc.args, "--wrap=true"))
				if err != nil {
					t.Fatal(err)
				}
				res, err := p.Submission(cl, nil)
				if err != nil {
					got.Refused = true
				} else {
					r := res.Request
					got = nodes{r.MinNodes, r.MaxNodes, r.NodesSet, false, r.NodesFromGPUs}
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("nodes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSrunOvercommitAllocation: srun's -O reaches the allocation it makes
// as sbatch's does (the peer's srun -O -n8 job holds one CPU), and its
// step's tasks share CPUs.
func TestSrunOvercommitAllocation(t *testing.T) {
	p := &Parser{Prog: "srun", Cwd: "/work", Now: testNow}
	res, err := p.Srun([]string{"-O", "-n8", "true"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Request.Overcommit || !res.Step.Overcommit {
		t.Errorf("-O: request overcommit %v, step %v; want both", res.Request.Overcommit, res.Step.Overcommit)
	}
}
