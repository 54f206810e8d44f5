package hostlist

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"strconv"
	"strings"
)

// Limits on the size of host lists.
const (
	// MaxRange is the most hosts one lo-hi range may hold (Slurm's MAX_RANGE).
	MaxRange = 64 * 1024
	// MaxRanges is the most ranges one bracket group may hold (Slurm's
	// MAX_RANGES).
	MaxRanges = 64 * 1024
	// MaxHosts is the most names Parse and Expand materialize; a larger list
	// is almost certainly a mistake and would exhaust memory.
	MaxHosts = 1 << 21
)

// ErrTooLarge reports a host list with more names than the limits allow.
var ErrTooLarge = errors.New("too many hosts")

// span is one lo-hi range of a bracket group.
type span struct {
	lo, hi uint64
	width  int
}

func (s span) count() uint64 { return s.hi - s.lo + 1 }

// group is one bracket group with the literal text that precedes it.
type group struct {
	lead  string
	spans []span
}

// entry is one separator-delimited entry of a host list: either a plain
// name or literal text interleaved with bracket groups, ending in a group.
type entry struct {
	name   string  // plain name when groups is empty
	groups []group // in text order
}

// isSep reports whether c separates entries, as in Slurm's hostlist_create.
func isSep(c byte) bool { return c == ',' || c == ' ' || c == '\t' || c == '\n' }

// splitEntries splits list at separators outside brackets.
func splitEntries(list string) ([]string, error) {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(list); i++ {
		switch c := list[i]; {
		case c == '[':
			if depth > 0 {
				return nil, fmt.Errorf("nested '[' at offset %d", i)
			}
			depth++
		case c == ']':
			if depth == 0 {
				return nil, fmt.Errorf("']' without '[' at offset %d", i)
			}
			depth--
		case depth == 0 && isSep(c):
			if i > start {
				out = append(out, list[start:i])
			}
			start = i + 1
		}
	}
	if depth > 0 {
		return nil, errors.New("'[' without ']'")
	}
	if start < len(list) {
		out = append(out, list[start:])
	}
	return out, nil
}

// parseEntry splits one entry into literal text and bracket groups.
func parseEntry(tok string) (entry, error) {
	if !strings.Contains(tok, "[") {
		return entry{name: tok}, nil
	}
	var e entry
	rest := tok
	for rest != "" {
		open := strings.IndexByte(rest, '[')
		if open < 0 {
			return entry{}, fmt.Errorf("text %q after the last ']' (a bracketed name must end in ']')", rest)
		}
		closing := strings.IndexByte(rest, ']') // balanced: splitEntries checked
		spans, err := parseSpans(rest[open+1 : closing])
		if err != nil {
			return entry{}, err
		}
		e.groups = append(e.groups, group{lead: rest[:open], spans: spans})
		rest = rest[closing+1:]
	}
	return e, nil
}

// parseSpans parses the inside of a bracket group: "1-3,7,09-10".
func parseSpans(s string) ([]span, error) {
	items := strings.Split(s, ",")
	if len(items) > MaxRanges {
		return nil, fmt.Errorf("too many ranges in [%s]: %d, at most %d", abbrev(s), len(items), MaxRanges)
	}
	spans := make([]span, 0, len(items))
	for _, item := range items {
		sp, err := parseSpan(item)
		if err != nil {
			return nil, err
		}
		spans = append(spans, sp)
	}
	return spans, nil
}

// parseSpan parses "7" or "01-10".
func parseSpan(item string) (span, error) {
	loText, hiText, isRange := strings.Cut(item, "-")
	if item == "" {
		return span{}, errors.New("empty range in brackets")
	}
	lo, err := parseNumber(loText, item)
	if err != nil {
		return span{}, err
	}
	hi := lo
	if isRange {
		if hi, err = parseNumber(hiText, item); err != nil {
			return span{}, err
		}
	}
	if lo > hi {
		return span{}, fmt.Errorf("invalid range %q: %d is greater than %d", item, lo, hi)
	}
	if hi-lo >= MaxRange {
		return span{}, fmt.Errorf("too many hosts in range %q: at most %d", item, MaxRange)
	}
	return span{lo: lo, hi: hi, width: len(loText)}, nil
}

func parseNumber(s, item string) (uint64, error) {
	if s == "" {
		return 0, fmt.Errorf("invalid range %q: missing number", item)
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("invalid range %q: %q is not a number", item, s)
		}
	}
	// Slurm reads ULONG_MAX as an empty range, so the largest usable number
	// is one less.
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n == math.MaxUint64 {
		return 0, fmt.Errorf("invalid range %q: %s does not fit in 64 bits", item, s)
	}
	return n, nil
}

// parseList splits and parses every entry of list.
func parseList(list string) ([]entry, error) {
	toks, err := splitEntries(list)
	if err != nil {
		return nil, fmt.Errorf("invalid host list %q: %w", abbrev(list), err)
	}
	entries := make([]entry, 0, len(toks))
	for _, tok := range toks {
		e, err := parseEntry(tok)
		if err != nil {
			return nil, fmt.Errorf("invalid host list %q: %w", abbrev(list), err)
		}
		entries = append(entries, e)
	}
	return entries, nil
}

// count returns the number of names e expands to, saturating at limit+1 so
// that products of huge groups cannot overflow.
func (e entry) count(limit uint64) uint64 {
	if e.groups == nil {
		return 1
	}
	n := uint64(1)
	for _, g := range e.groups {
		var c uint64
		for _, s := range g.spans {
			c += s.count() // at most MaxRanges*MaxRange: no overflow
		}
		if n > (limit+1)/c {
			return limit + 1
		}
		n *= c
	}
	return min(n, limit+1)
}

// Count returns how many names list expands to, duplicates included,
// without building them. It fails on malformed lists and on counts above
// math.MaxInt/2.
func Count(list string) (int, error) {
	entries, err := parseList(list)
	if err != nil {
		return 0, err
	}
	const limit = math.MaxInt / 2
	var total uint64
	for _, e := range entries {
		total += e.count(limit)
		if total > limit {
			return 0, fmt.Errorf("host list %q: %w: count overflows", abbrev(list), ErrTooLarge)
		}
	}
	return int(total), nil
}

// Expand returns every host name in list, in list order, duplicates kept,
// as `scontrol show hostnames` prints them.
func Expand(list string) ([]string, error) {
	l, err := Parse(list)
	if err != nil {
		return nil, err
	}
	return l.Hosts(), nil
}

// All returns an iterator over every name in list, in list order, without
// holding them all in memory. It fails on malformed lists; it does not apply
// MaxHosts.
func All(list string) (iter.Seq[string], error) {
	entries, err := parseList(list)
	if err != nil {
		return nil, err
	}
	return func(yield func(string) bool) {
		for _, e := range entries {
			if !e.each(yield) {
				return
			}
		}
	}, nil
}

// each yields the names of e in Slurm's order: the last group varies
// fastest, then the first, second, ... up to the one before last.
func (e entry) each(yield func(string) bool) bool {
	if e.groups == nil {
		return yield(e.name)
	}
	last := len(e.groups) - 1
	return eachPrefix(e.groups[:last], func(prefix string) bool {
		g := e.groups[last]
		for _, s := range g.spans {
			for n := s.lo; ; n++ {
				if !yield(prefix + g.lead + pad(n, s.width)) {
					return false
				}
				if n == s.hi {
					break
				}
			}
		}
		return true
	})
}

// eachPrefix yields the expansions of groups (all groups of an entry but the
// last) with the last of them varying slowest, as Slurm's recursion does.
func eachPrefix(groups []group, yield func(string) bool) bool {
	if len(groups) == 0 {
		return yield("")
	}
	last := len(groups) - 1
	g := groups[last]
	for _, s := range g.spans {
		for n := s.lo; ; n++ {
			mid := g.lead + pad(n, s.width)
			ok := eachPrefix(groups[:last], func(p string) bool { return yield(p + mid) })
			if !ok {
				return false
			}
			if n == s.hi {
				break
			}
		}
	}
	return true
}

// pad prints n in decimal, zero-padded to width.
func pad(n uint64, width int) string {
	s := strconv.FormatUint(n, 10)
	if len(s) >= width {
		return s
	}
	return strings.Repeat("0", width-len(s)) + s
}

// abbrev shortens s for error messages.
func abbrev(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}
