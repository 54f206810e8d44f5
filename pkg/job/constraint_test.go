package job

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestParseConstraintSyntax: what the peer (Slurm 22.05) accepts and
// refuses with "Invalid feature specification" for features that exist
// (gpu, cpu).
func TestParseConstraintSyntax(t *testing.T) {
	valid := []string{"gpu", "gpu|cpu", "[gpu|cpu]", "gpu*2", "[gpu*2&cpu*1]", "(gpu|cpu)",
		"(gpu)&gpu", "gpu,gpu", "gpu&gpu", "gpu&", "gpu*2*3", "[gpu]", "[gpu|cpu]&gpu",
		"gpu&[gpu|cpu]", "gpu|[gpu|cpu]", "[(gpu|cpu)*1&gpu*2]", "gpu,cpu", "gpu&cpu",
		"gpu*1&cpu*1", "(gpu)cpu", "(gpu|cpu)*2", "gpu*99", "[gpu*99&cpu*1]", "gpu,cpu|gpu"}
	invalid := []string{"&gpu", "gpu||cpu", "[gpu", "gpu]", "(gpu", "gpu)", "gpu*", "gpu*0",
		"gpu*x", "[gpu&cpu]", "[gpu|cpu][gpu|cpu]", "[gpu*1|cpu*1]", "()", "[]", "[[gpu]]",
		"((gpu))", "(gpu*1)", "gpu(cpu)", "[gpu|cpu]*2", ""}
	for _, s := range valid {
		if _, err := ParseConstraint(s); err != nil {
			t.Errorf("ParseConstraint(%q) = %v, want it accepted", s, err)
		}
	}
	for _, s := range invalid {
		if _, err := ParseConstraint(s); !errors.Is(err, ErrInvalidFeature) {
			t.Errorf("ParseConstraint(%q) = %v, want %v", s, err, ErrInvalidFeature)
		}
	}
}

func TestConstraintNames(t *testing.T) {
	for _, tc := range []struct{ in, want, text string }{
		{"gpu,ib", "gpu ib", "gpu&ib"},
		{"(gpu)cpu", "gpu", "(gpu)cpu"},
		{"[rack1*2&rack2*4]", "rack1 rack2", "[rack1*2&rack2*4]"},
		{"gpu*2*3&gpu", "gpu", "gpu*2*3&gpu"},
		{"g-p_u|a.b", "g-p_u a.b", "g-p_u|a.b"},
	} {
		c, err := ParseConstraint(tc.in)
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		if got := strings.Join(c.Names(), " "); got != tc.want || c.String() != tc.text {
			t.Errorf("%q: names %q text %q, want %q %q", tc.in, got, c.String(), tc.want, tc.text)
		}
	}
}

// node features for the evaluation tests, sorted as the scheduler keeps
// them.
var testNodes = map[string][]string{
	"a": {"a"}, "b": {"b"}, "c": {"c"}, "ac": {"a", "c"}, "bc": {"b", "c"}, "none": nil,
}

func passing(t *NodeTest) string {
	var out []string
	for _, n := range []string{"a", "b", "c", "ac", "bc", "none"} {
		if t.Match(testNodes[n]) {
			out = append(out, n)
		}
	}
	return strings.Join(out, ",")
}

func TestConstraintNodeTest(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string // nodes passing each alternative
	}{
		{"a", []string{"a,ac"}},
		{"a&c", []string{"ac"}},
		{"a|b", []string{"a,b,ac,bc"}},
		{"a|b&c", []string{"ac,bc"}}, // left to right: (a|b)&c
		{"c&(a|b)", []string{"ac,bc"}},
		{"(a|b)&c|b", []string{"b,ac,bc"}},
		{"[a|b]", []string{"a,ac", "b,bc"}},
		{"c&[a|b]", []string{"ac", "bc"}},
		{"[a|b]&c", []string{"ac", "bc"}},
		{"[(a&c)|b]", []string{"ac", "b,bc"}},
		{"[a]", []string{"a,ac"}},
	} {
		c, err := ParseConstraint(tc.in)
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		if c.Alternatives() != len(tc.want) {
			t.Errorf("%q: %d alternatives, want %d", tc.in, c.Alternatives(), len(tc.want))
			continue
		}
		for k, want := range tc.want {
			if got := passing(c.NodeTest(k)); got != want {
				t.Errorf("%q alternative %d: %s pass, want %s", tc.in, k, got, want)
			}
			if c.Counts(k) != nil {
				t.Errorf("%q: counts %v, want none", tc.in, c.Counts(k))
			}
		}
	}
}

func TestConstraintCounts(t *testing.T) {
	for _, tc := range []struct {
		in       string
		node     string   // nodes passing the per-node test; "*": no test
		counts   []string // "N:passing"
		minNodes int
	}{
		{"a*2", "*", []string{"2:a,ac"}, 2},
		{"[a*2&b*4]", "*", []string{"2:a,ac", "4:b,bc"}, 6},
		{"[(a|b)*1&c*2]", "*", []string{"1:a,b,ac,bc", "2:c,ac,bc"}, 3},
		{"(a|b)*2", "*", []string{"2:a,b,ac,bc"}, 2},
		{"a*2&c", "*", []string{"2:a,ac"}, 2},
		{"a*1&c*3", "*", []string{"3:ac"}, 3},
		{"a*2*3", "*", []string{"3:a,ac"}, 3},
	} {
		c, err := ParseConstraint(tc.in)
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		node := "*"
		if nt := c.NodeTest(0); nt != nil {
			node = passing(nt)
		}
		var counts []string
		for _, fc := range c.Counts(0) {
			counts = append(counts, itoa(fc.Nodes)+":"+passing(fc.Test))
		}
		if node != tc.node || !slices.Equal(counts, tc.counts) || c.MinNodes() != tc.minNodes {
			t.Errorf("%q: node %q counts %q min %d, want %q %q %d", tc.in, node, counts, c.MinNodes(),
				tc.node, tc.counts, tc.minNodes)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// FuzzParseConstraint: any input parses or is refused, never panics, and
// what parses keeps its text and answers every alternative.
func FuzzParseConstraint(f *testing.F) {
	for _, s := range []string{"gpu", "a|b", "[a|b|c]", "[r1*2&r2*4]", "(a|b)&c", "[(a|b)*1&c*2]",
		"(gpu)cpu", "gpu&", "a*2*3", "[a]&b|c", "a,b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseConstraint(s)
		if err != nil {
			return
		}
		if c.String() != NormalizeConstraint(s) || len(c.Names()) == 0 {
			t.Fatalf("%q: text %q names %q", s, c.String(), c.Names())
		}
		for k := range c.Alternatives() {
			if nt := c.NodeTest(k); nt != nil {
				nt.Match([]string{"a", "gpu"})
			}
			for _, fc := range c.Counts(k) {
				if fc.Nodes <= 0 {
					t.Fatalf("%q: count %d", s, fc.Nodes)
				}
				fc.Test.Match(nil)
			}
		}
		_ = c.MinNodes()
	})
}

// TestParsePreferErrors: the peer's answers to sbatch --prefer=X, in
// --prefer's words for the list's own faults, in -C's for the others.
func TestParsePreferErrors(t *testing.T) {
	for in, want := range map[string]error{
		"gpu":         nil,
		"gpu*2":       nil,
		"[gpu|cpu]":   nil,
		"gpu&":        nil,
		"(gpu)":       nil,
		"a&|b":        ErrInvalidFeature,
		"[gpu*2|cpu]": ErrInvalidPrefer,
		"(gpu":        ErrInvalidPrefer,
		"gpu]":        ErrInvalidPrefer,
		"[gpu":        ErrInvalidFeature,
		"*2":          ErrInvalidFeature,
	} {
		_, err := ParsePrefer(in)
		if !errors.Is(err, want) && err != want {
			t.Errorf("ParsePrefer(%q) = %v, want %v", in, err, want)
		}
		if _, cerr := ParseConstraint(in); (cerr == nil) != (want == nil) || cerr != nil && cerr != ErrInvalidFeature {
			t.Errorf("ParseConstraint(%q) = %v, want %v", in, cerr, want != nil)
		}
	}
}
