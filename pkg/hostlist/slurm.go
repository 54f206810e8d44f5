package hostlist

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// ErrSyntax reports a host list whose brackets Slurm's hostlist_create
// refuses without naming a range: text after the closing bracket of the last
// group ("n[1-3]x") or a bracket inside a group ("n[[1]]").
var ErrSyntax = errors.New("text after the last ']' or a bracket inside brackets")

// RangeError reports one range inside brackets that Slurm refuses, with the
// range as written so that a command can name it as Slurm does.
type RangeError struct {
	Range   string // the range text, e.g. "3-1"
	TooMany bool   // the range holds more than MaxRange hosts
}

func (e *RangeError) Error() string {
	if e.TooMany {
		return fmt.Sprintf("too many hosts in range %q: at most %d", e.Range, MaxRange)
	}
	return fmt.Sprintf("invalid range %q", e.Range)
}

// ParseSlurm parses list exactly as Slurm's hostlist_create does, for
// commands whose output must match Slurm's on any input. Unlike Parse it
// accepts what Slurm accepts: an unclosed "[" ends the entry ("n[1-3" is
// the host "n]"), a stray "]" is part of a name, a newline is part of a
// name, and numbers in brackets read as C's strtoul reads them (" 1", "+1",
// clamped to the largest uint64). It fails with a *RangeError for a range
// Slurm names, ErrSyntax for misplaced brackets, and ErrTooLarge past
// MaxHosts names.
func ParseSlurm(list string) (*List, error) {
	l, _, err := ParseSlurmWarn(list)
	return l, err
}

// Warning is an error Slurm reports about one entry while it goes on with
// the rest of the list: a bad range in a bracket group before the last two
// ("a[3-1]b[1-2]c[1]"). Slurm's recursion prints it once for each name of
// the groups between it and the last one, drops the entry and does not
// fail the list.
type Warning struct {
	Err   error // a *RangeError, or too many ranges in one group
	Times uint64
}

// ParseSlurmWarn is ParseSlurm that also returns the warnings Slurm prints,
// in list order; those before a failing entry come with the error.
func ParseSlurmWarn(list string) (*List, []Warning, error) {
	toks := slurmTokens(list)
	entries := make([]entry, 0, len(toks))
	var warnings []Warning
	for _, tok := range toks {
		e, w, err := slurmEntry(tok)
		if err != nil {
			return nil, warnings, fmt.Errorf("invalid host list %q: %w", abbrev(list), err)
		}
		if w != nil {
			warnings = append(warnings, *w)
			continue
		}
		entries = append(entries, e)
	}
	l, err := build(list, entries)
	return l, warnings, err
}

// ExpandSlurm returns every name of list, parsed as ParseSlurm does.
func ExpandSlurm(list string) ([]string, error) {
	l, err := ParseSlurm(list)
	if err != nil {
		return nil, err
	}
	return l.Hosts(), nil
}

// isSlurmSep reports whether c separates entries for hostlist_create; a
// newline does not.
func isSlurmSep(c byte) bool { return c == ',' || c == ' ' || c == '\t' }

// slurmTokens splits list as Slurm's tokenizer does: at separators, except
// that a separator between a "[" and the first "]" after it stays in the
// token. An unclosed "[" does not hold the token together.
func slurmTokens(s string) []string {
	var out []string
	for i := 0; ; {
		for i < len(s) && isSlurmSep(s[i]) {
			i++
		}
		if i == len(s) {
			return out
		}
		tok, parse, end := i, i, i
		for more := true; more; {
			for end < len(s) && !isSlurmSep(s[end]) {
				end++
			}
			parse, end, more = skipBrackets(s, parse, end)
		}
		out = append(out, s[tok:end])
		i = end
	}
}

// skipBrackets moves past bracket pairs that start before end; it reports
// whether end moved to a closing bracket, so the token goes on after it.
func skipBrackets(s string, parse, end int) (int, int, bool) {
	for {
		open := indexFrom(s, parse, '[')
		if open < 0 || open > end {
			return parse, end, false
		}
		closing := indexFrom(s, parse, ']')
		if closing < 0 || closing < open {
			return parse, end, false
		}
		if closing >= end {
			return parse, closing, true
		}
		parse = closing + 1
	}
}

func indexFrom(s string, from int, c byte) int {
	k := strings.IndexByte(s[from:], c)
	if k < 0 {
		return -1
	}
	return from + k
}

// slurmEntry parses one token: the last "[" opens the final group, which
// must end the token; groups before it are found right to left, each from
// the last "[" to the last "]" after it, and text without such a pair is
// literal.
func slurmEntry(tok string) (entry, *Warning, error) {
	p := strings.LastIndexByte(tok, '[')
	if p < 0 {
		return entry{name: tok}, nil, nil
	}
	prefix, rest := tok[:p], tok[p+1:]
	q := strings.IndexByte(rest, ']')
	if q < 0 {
		// Slurm's repair of an unclosed bracket: the prefix with a "]", or
		// the text after the bracket when there is no prefix.
		if prefix != "" {
			return entry{name: prefix + "]"}, nil, nil
		}
		return entry{name: rest}, nil, nil
	}
	if q+1 < len(rest) && rest[q+1] != ',' {
		return entry{}, nil, ErrSyntax
	}
	spans, err := slurmSpans(rest[:q])
	if err != nil {
		return entry{}, nil, err
	}
	groups := []group{{spans: spans}}
	times := uint64(1) // names of the groups between the last and this one
	for {
		p := strings.LastIndexByte(prefix, '[')
		if p < 0 {
			break
		}
		q := strings.LastIndexByte(prefix[p:], ']')
		if q < 0 {
			break
		}
		spans, err := slurmSpans(prefix[p+1 : p+q])
		switch {
		case err != nil && len(groups) == 1:
			return entry{}, nil, err
		case err != nil:
			return entry{}, &Warning{Err: err, Times: times}, nil
		}
		times = satMul(times, group{spans: spans}.count())
		groups[len(groups)-1].lead = prefix[p+q+1:]
		groups = append(groups, group{spans: spans})
		prefix = prefix[:p]
	}
	groups[len(groups)-1].lead = prefix
	slices.Reverse(groups)
	return entry{groups: groups}, nil, nil
}

// count returns how many numbers g holds.
func (g group) count() uint64 {
	var n uint64
	for _, s := range g.spans {
		n += s.count() // at most MaxRanges*MaxRange
	}
	return n
}

// satMul multiplies, saturating at the largest uint64.
func satMul(a, b uint64) uint64 {
	if b != 0 && a > math.MaxUint64/b {
		return math.MaxUint64
	}
	return a * b
}

// slurmSpans parses the inside of a group: ranges separated by commas.
func slurmSpans(s string) ([]span, error) {
	items := strings.Split(s, ",")
	if len(items) > MaxRanges {
		return nil, fmt.Errorf("too many ranges in [%s]: %d, at most %d", abbrev(s), len(items), MaxRanges)
	}
	spans := make([]span, 0, len(items))
	for _, item := range items {
		sp, err := slurmSpan(item)
		if err != nil {
			return nil, err
		}
		spans = append(spans, sp)
	}
	return spans, nil
}

// slurmSpan parses one range as Slurm's _parse_single_range: "lo" or
// "lo-hi", each read by strtoul, the width being the length of the lo text.
// Only the text after the last number read must be empty, so "1a-3" is
// 1-3 at width 2, as in Slurm.
func slurmSpan(item string) (span, error) {
	bad := &RangeError{Range: item}
	if strings.IndexByte(item, 'x') >= 0 { // Slurm's box syntax
		return span{}, bad
	}
	loText, hiText, isRange := strings.Cut(item, "-")
	if strings.HasPrefix(hiText, "-") {
		return span{}, bad
	}
	lo, rest, ok := strtoul(loText)
	if !ok {
		return span{}, bad
	}
	hi := lo
	if isRange && hiText != "" {
		if hi, rest, ok = strtoul(hiText); !ok {
			return span{}, bad
		}
	}
	if rest != "" || lo > hi {
		return span{}, bad
	}
	if hi-lo >= MaxRange {
		return span{}, &RangeError{Range: item, TooMany: true}
	}
	return span{lo: lo, hi: hi, width: len(loText)}, nil
}

// strtoul reads a number as C's strtoul in base 10: leading white space,
// an optional sign (a minus negates modulo 2^64), digits, clamping to the
// largest uint64. It returns the text after the digits, and false when
// there are none.
func strtoul(s string) (uint64, string, bool) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	var n uint64
	over := false
	for ; i < len(s) && isDigit(s[i]); i++ {
		d := uint64(s[i] - '0')
		if n > (math.MaxUint64-d)/10 {
			over = true
		}
		n = n*10 + d
	}
	switch {
	case i == start:
		return 0, s, false
	case over:
		n = math.MaxUint64
	case neg:
		n = -n
	}
	return n, s[i:], true
}

// build checks the size of entries and pushes them into a List.
func build(list string, entries []entry) (*List, error) {
	var total uint64
	for _, e := range entries {
		total += e.count(MaxHosts)
		if total > MaxHosts {
			return nil, fmt.Errorf("host list %q: %w: more than %d names", abbrev(list), ErrTooLarge, MaxHosts)
		}
	}
	l := &List{}
	for _, e := range entries {
		l.pushEntry(e)
	}
	return l, nil
}
