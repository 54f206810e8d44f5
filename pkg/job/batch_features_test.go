package job

import "testing"

// knownOnPeer is the peer's node features: cpu[001-008] have cpu,
// gpu[001-032] gpu.
func knownOnPeer(name string) bool { return name == "cpu" || name == "gpu" }

// TestBatchSubset: the peer's answers to sbatch --batch=B -C C (true:
// "Submitted batch job", false: "Job --batch option is invalid or not a
// subset of --constraints").
func TestBatchSubset(t *testing.T) {
	for _, tc := range []struct {
		batch, constraint string
		want              bool
	}{
		{"gpu", "gpu", true},
		{"gpu", "gpu|cpu", true},
		{"gpu", "[gpu|cpu]", true},
		{"gpu", "gpu&cpu", true},
		{"gpu", "gpu*2", true},
		{"cpu", "[gpu|cpu]", true},
		{"gpu|cpu", "gpu", true},
		{"gpu|nosuch", "gpu", true},
		{"nosuch|gpu", "gpu", false},
		{"gpu&cpu", "gpu&cpu", true},
		{"gpu&cpu", "gpu", false},
		{"gpu,cpu", "gpu&cpu", false},
		{"gpu*2", "gpu*2", false},
		{"[gpu]", "[gpu|cpu]", false},
		{"(gpu)", "gpu", false},
		{"cpu", "gpu", false},
		{"nosuch", "nosuch", false},
		{"Gpu", "gpu", false},
		{"", "gpu", true},
		{"gpu|", "gpu", true},
		{"|gpu", "gpu", true},
		{"&", "gpu", true},
		{"gpu", "", false},
		{"", "", false},
	} {
		var list *Constraint
		if tc.constraint != "" {
			var err error
			if list, err = ParseConstraint(tc.constraint); err != nil {
				t.Fatalf("ParseConstraint(%q): %v", tc.constraint, err)
			}
		}
		if got := BatchSubset(tc.batch, list, knownOnPeer); got != tc.want {
			t.Errorf("BatchSubset(%q, -C %q) = %v, want %v", tc.batch, tc.constraint, got, tc.want)
		}
	}
}

// TestBatchTest: the batch hosts the peer chose for -N2 -C
// '[cpu*1&gpu*1]' jobs on cpu00N,gpu00N: "gpu" when the script ran on the
// gpu node, "first" when on the first node (no test, or no node passing).
func TestBatchTest(t *testing.T) {
	for _, tc := range []struct {
		batch, want string
	}{
		{"gpu", "gpu"},
		{"gpu|gpu", "gpu"},
		{"gpu&gpu", "gpu"},
		{"cpu|gpu&gpu", "gpu"}, // left to right: (cpu|gpu)&gpu
		{"gpu||gpu", "gpu"},
		{"gpu|||gpu", "gpu"},
		{"||gpu", "gpu"},
		{"|gpu", "gpu"},
		{"gpu&|gpu", "gpu"},
		{"cpu||gpu&gpu", "gpu"},
		{"gpu&cpu", "first"},
		{"gpu|nosuch", "first"},
		{"gpu&gpu|nosuch", "first"},
		{"gpu|", "first"},
		{"gpu&", "first"},
		{"&gpu", "first"},
		{"gpu&&gpu", "first"},
		{"gpu|&gpu", "first"},
		{"", "first"},
	} {
		got := "first"
		if test := BatchTest(tc.batch, knownOnPeer); test != nil {
			switch {
			case test.Match([]string{"cpu"}):
				got = "cpu"
			case test.Match([]string{"gpu"}):
				got = "gpu"
			}
		}
		if got == "cpu" { // cpu00N is the first node
			got = "first"
		}
		if got != tc.want {
			t.Errorf("--batch=%q ran on %s, want %s", tc.batch, got, tc.want)
		}
	}
}
