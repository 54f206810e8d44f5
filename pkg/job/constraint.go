package job

import (
	"errors"
	"slices"
	"strconv"
	"strings"
)

// ErrInvalidFeature is a -C that Slurm's controller refuses as
// ESLURM_INVALID_FEATURE ("Invalid feature specification").
var ErrInvalidFeature = errors.New("Invalid feature specification")

// ErrInvalidPrefer is a --prefer that Slurm's controller refuses as
// ESLURM_INVALID_PREFER ("Invalid preferred feature specification").
var ErrInvalidPrefer = errors.New("Invalid preferred feature specification")

// errFeatureList marks the faults build_feature_list reports in the
// words of the list it reads (-C's or --prefer's): a ']' without a name
// or an open bracket, an unclosed parenthesis, and the operator checks
// of _valid_feature_list. Its other syntax faults are always
// ErrInvalidFeature, even for --prefer (the peer answers --prefer='a&|b'
// "Invalid feature specification").
var errFeatureList = errors.New("invalid feature list")

// featureOp joins a feature to the next one, as Slurm 22.05's feature
// list does (job_scheduler.c, build_feature_list).
type featureOp uint8

const (
	opEnd  featureOp = iota
	opAnd            // & (or ,) outside brackets
	opOr             // |
	opXAnd           // & inside brackets: multiple counts
	opXOr            // | inside brackets: matching OR
)

// featureItem is one feature name of a -C expression.
type featureItem struct {
	name    string
	count   int  // *N: that many nodes with it (0: none)
	group   int  // the ( ) it is in, numbered from 1; 0: none
	bracket bool // inside [ ]
	op      featureOp
}

// Constraint is a parsed -C expression: Slurm's flat list of features,
// each with the operator that joins it to the next. Slurm evaluates it
// left to right without precedence ("a|b&c" is "(a|b)&c").
type Constraint struct {
	text  string
	items []featureItem
}

// NormalizeConstraint is -C as Slurm stores it: commas become '&' (the
// peer shows -C gpu,ib as Features=gpu&ib).
func NormalizeConstraint(s string) string { return strings.ReplaceAll(s, ",", "&") }

// ParseConstraint reads a -C expression as Slurm 22.05 does, quirks
// included: a trailing operator is ignored ("gpu&"), text after a closing
// parenthesis up to the next operator is ignored ("(gpu)cpu"), and the
// last of repeated counts wins ("gpu*2*3"). It checks the syntax only;
// whether the features exist is the caller's check (Names).
func ParseConstraint(s string) (*Constraint, error) {
	c, err := parseFeatures(s)
	if errors.Is(err, errFeatureList) {
		err = ErrInvalidFeature
	}
	return c, err
}

// ParsePrefer reads a --prefer expression: the same syntax as -C, with
// the faults Slurm reports in --prefer's own words ErrInvalidPrefer
// (the peer refuses --prefer='[gpu*2|cpu]' so) and the others
// ErrInvalidFeature, as the peer answers them.
func ParsePrefer(s string) (*Constraint, error) {
	c, err := parseFeatures(s)
	if errors.Is(err, errFeatureList) {
		err = ErrInvalidPrefer
	}
	return c, err
}

func parseFeatures(s string) (*Constraint, error) {
	c, err := parseFeatureSyntax(s)
	if err != nil {
		return nil, err
	}
	return c, c.checkOps()
}

// parseFeatureSyntax is the first half of build_feature_list: the list's
// syntax. Its operator checks (checkOps) come after --batch's
// (batch_features.go).
func parseFeatureSyntax(s string) (*Constraint, error) {
	c := &Constraint{text: NormalizeConstraint(s)}
	p := constraintParser{src: c.text}
	if err := p.run(); err != nil {
		return nil, err
	}
	c.items = p.items
	if len(c.items) == 0 {
		return nil, errFeatureList
	}
	return c, nil
}

// checkOps is _valid_feature_list's check of the operators: counts
// inside brackets on all or none of the names, and the like.
func (c *Constraint) checkOps() error {
	if !c.validOps() {
		return errFeatureList
	}
	return nil
}

type constraintParser struct {
	src     string
	items   []featureItem
	start   int // of the current feature name; -1: none
	count   int
	group   int // current ( ), 0: none
	groups  int
	bracket bool
	sets    int // bracket sets seen
	// closed* hold the group or bracket that closed right after the
	// current name: it is their last member.
	closedGroup   int
	closedBracket bool
}

func (p *constraintParser) run() error {
	p.start = -1
	for i := 0; i < len(p.src); i++ {
		var err error
		switch ch := p.src[i]; ch {
		case '*':
			i, err = p.star(i)
		case '&', '|':
			err = p.operator(ch)
		case '[':
			err = p.open(&p.sets, p.bracket)
			p.bracket = true
		case ']':
			if err = p.close(p.bracket); err != nil {
				err = errFeatureList
			}
			p.closedBracket, p.bracket = p.bracket, false
		case '(':
			err = p.open(&p.groups, p.group > 0)
			p.group = p.groups
		case ')':
			err = p.close(p.group > 0)
			p.closedGroup, p.group = p.group, 0
		default:
			if p.start < 0 {
				p.start = i
			}
		}
		if err != nil {
			return err
		}
	}
	if p.start >= 0 {
		p.add(opEnd)
	}
	switch {
	case p.sets > 1 || p.bracket:
		return ErrInvalidFeature
	case p.group > 0:
		return errFeatureList
	}
	return nil
}

func (p *constraintParser) star(i int) (int, error) {
	j := i + 1
	for j < len(p.src) && p.src[j] >= '0' && p.src[j] <= '9' {
		j++
	}
	n, err := strconv.Atoi(p.src[i+1 : j])
	if p.start < 0 || err != nil || n <= 0 || p.group > 0 {
		return i, ErrInvalidFeature
	}
	p.count = n
	return j - 1, nil
}

func (p *constraintParser) operator(ch byte) error {
	if p.start < 0 {
		return ErrInvalidFeature
	}
	op := opAnd
	switch {
	case ch == '|' && p.bracket && p.group == 0:
		op = opXOr
	case ch == '|':
		op = opOr
	case p.bracket && p.group == 0:
		op = opXAnd
	}
	p.add(op)
	return nil
}

// open starts a bracket or parenthesis: not after a name, not nested.
func (p *constraintParser) open(n *int, inside bool) error {
	if p.start >= 0 || inside {
		return ErrInvalidFeature
	}
	*n++
	return nil
}

// close ends one: only after a name, only when open.
func (p *constraintParser) close(open bool) error {
	if p.start < 0 || !open {
		return ErrInvalidFeature
	}
	return nil
}

// add ends the current feature: its name runs to the first special
// character, where Slurm's scan puts its NUL.
func (p *constraintParser) add(op featureOp) {
	end := len(p.src)
	if i := strings.IndexAny(p.src[p.start:], "*&|[]()"); i >= 0 {
		end = p.start + i
	}
	p.items = append(p.items, featureItem{name: p.src[p.start:end], count: p.count,
		group: max(p.group, p.closedGroup), bracket: p.bracket || p.closedBracket, op: op})
	p.start, p.count, p.closedGroup, p.closedBracket = -1, 0, 0, false
}

// validOps is _valid_feature_list's operator check: inside brackets AND
// needs counts on every term and OR none.
func (c *Constraint) validOps() bool {
	hasXAnd, hasXOr := false, false
	for i, it := range c.items {
		if it.op == opXAnd && it.count == 0 || it.op == opXOr && it.count > 0 {
			return false
		}
		hasXAnd = hasXAnd || it.op == opXAnd
		hasXOr = hasXOr || it.op == opXOr
		if it.bracket && it.op != opXAnd && it.op != opXOr && c.termEnds(i) { // the bracket's last term
			if hasXAnd && it.count == 0 || hasXOr && it.count > 0 {
				return false
			}
			hasXAnd, hasXOr = false, false
		}
	}
	return true
}

// termEnds reports whether item i ends a term: a name, or the last name
// of a parenthesis.
func (c *Constraint) termEnds(i int) bool {
	g := c.items[i].group
	return g == 0 || i+1 == len(c.items) || c.items[i+1].group != g
}

// String is the expression as given, commas made '&'.
func (c *Constraint) String() string { return c.text }

// Equal reports whether two constraints are the same expression.
func (c *Constraint) Equal(o *Constraint) bool {
	return c == o || c != nil && o != nil && c.text == o.text
}

// Names lists the feature names, each once, in order: Slurm refuses a job
// naming a feature no node has.
func (c *Constraint) Names() []string {
	var out []string
	for _, it := range c.items {
		if !slices.Contains(out, it.name) {
			out = append(out, it.name)
		}
	}
	return out
}
