package job

import "slices"

// What a parsed -C asks of the nodes, as Slurm 22.05's scheduler reads
// its feature list (node_scheduler.c):
//
//   - without counts, every node must pass the expression, evaluated left
//     to right, a parenthesis first (valid_feature_counts);
//   - a matching OR "[a|b|c]" is tried one option at a time, in order, all
//     the job's nodes passing the expression with that option in place of
//     the brackets (_pick_best_nodes walks the XOR positions);
//   - with counts ("gpu*2", "[rack1*2&rack2*4]") the nodes are not tested
//     one by one: at least that many of the job's nodes must pass each
//     counted term, the bracket's terms on different nodes, and the other
//     nodes may be any (the peer runs -N9 -C "[cpu*2&gpu*3]" on
//     cpu[001-006],gpu[001-003]). Counted terms outside brackets must all
//     hold on the same nodes, as Slurm makes each pick required for the
//     next (the peer refuses -N3 -C "gpu*1&cpu*1" where no node has both).

// NodeTest tests one node's features.
type NodeTest struct {
	terms []testTerm
}

// testTerm is a name or a parenthesis, joined to the result so far by
// AND or OR.
type testTerm struct {
	names []string
	ors   []bool // ors[i]: names[i+1] is ORed in, else ANDed
	or    bool
}

// FeatureCount asks for at least Nodes nodes passing Test.
type FeatureCount struct {
	Test  *NodeTest
	Nodes int
}

// Match reports whether a node with the given features (sorted) passes.
func (t *NodeTest) Match(features []string) bool {
	ok := true
	for i, tt := range t.terms {
		v := tt.match(features)
		switch {
		case i == 0:
			ok = v
		case tt.or:
			ok = ok || v
		default:
			ok = ok && v
		}
	}
	return ok
}

func (tt *testTerm) match(features []string) bool {
	_, ok := slices.BinarySearch(features, tt.names[0])
	for i, name := range tt.names[1:] {
		_, has := slices.BinarySearch(features, name)
		if tt.ors[i] {
			ok = ok || has
		} else {
			ok = ok && has
		}
	}
	return ok
}

// term is a name or a parenthesis of the expression, with the count and
// operator of its last name.
type term struct {
	test    testTerm
	count   int
	op      featureOp
	bracket bool
}

func (c *Constraint) terms() []term {
	var out []term
	var cur *term
	for i, it := range c.items {
		if cur == nil {
			out = append(out, term{bracket: it.bracket})
			cur = &out[len(out)-1]
		} else {
			cur.test.ors = append(cur.test.ors, c.items[i-1].op == opOr)
		}
		cur.test.names = append(cur.test.names, it.name)
		if c.termEnds(i) {
			cur.count, cur.op, cur = it.count, it.op, nil
		}
	}
	return out
}

// options returns where the matching OR's options are among terms: the
// first and one past the last; 0, 0 without one.
func options(terms []term) (int, int) {
	first, last, xor := -1, -1, false
	for i, t := range terms {
		if t.bracket {
			if first < 0 {
				first = i
			}
			last = i
			xor = xor || t.op == opXOr
		}
	}
	if !xor {
		return 0, 0
	}
	return first, last + 1
}

// Alternatives is how many ways the nodes may satisfy the constraint,
// tried in order: the options of a matching OR, else one.
func (c *Constraint) Alternatives() int {
	lo, hi := options(c.terms())
	return max(hi-lo, 1)
}

// alternative is the terms with option alt of the matching OR in place of
// the brackets.
func (c *Constraint) alternative(alt int) []term {
	ts := c.terms()
	lo, hi := options(ts)
	if hi == 0 {
		return ts
	}
	opt := ts[lo+alt]
	opt.op, opt.bracket = ts[hi-1].op, false
	return append(append(slices.Clip(ts[:lo]), opt), ts[hi:]...)
}

func counted(ts []term) bool {
	return slices.ContainsFunc(ts, func(t term) bool { return t.count > 0 })
}

// NodeTest is what each node must pass in alternative alt; nil when any
// node will do (with counts and no matching OR).
func (c *Constraint) NodeTest(alt int) *NodeTest {
	ts := c.terms()
	if counted(ts) {
		lo, hi := options(ts)
		if hi == 0 {
			return nil
		}
		return testOf(ts[lo+alt : lo+alt+1])
	}
	return testOf(c.alternative(alt))
}

// testOf joins terms left to right.
func testOf(ts []term) *NodeTest {
	t := &NodeTest{}
	for i, x := range ts {
		tt := x.test
		tt.or = i > 0 && (ts[i-1].op == opOr || ts[i-1].op == opXOr)
		t.terms = append(t.terms, tt)
	}
	return t
}

// Counts lists the node counts of alternative alt, each on its own nodes.
func (c *Constraint) Counts(alt int) []FeatureCount {
	var out []FeatureCount
	var same []term // counted outside brackets: one set of nodes
	most := 0
	for _, t := range c.alternative(alt) {
		switch {
		case t.count == 0:
		case t.bracket:
			out = append(out, FeatureCount{Test: testOf([]term{t}), Nodes: t.count})
		default:
			t.op = opAnd
			same = append(same, t)
			most = max(most, t.count)
		}
	}
	if len(same) > 0 {
		out = append([]FeatureCount{{Test: testOf(same), Nodes: most}}, out...)
	}
	return out
}

// MinNodes is the fewest nodes the counts need (0 without counts): the
// peer runs -C "[gpu*2&cpu*1]" on 3 nodes.
func (c *Constraint) MinNodes() int {
	n := 0
	for _, fc := range c.Counts(0) {
		n += fc.Nodes
	}
	return n
}
