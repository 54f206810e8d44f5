package slurmconf

import (
	"sort"
	"strings"
	"sync"
)

// use says what Loam does with a key.
type use int

const (
	// honoured keys are parsed and acted on.
	honoured use = iota
	// ignored keys exist in Slurm but mean nothing to Loam: they produce a
	// warning so that an existing site's file still loads.
	ignored
)

// keySpec describes one key of a file or line type.
type keySpec struct {
	name  string // canonical spelling, as printed
	use   use
	alias string // canonical key this one stands for, if any
	note  string // why Loam ignores it, appended to the warning
}

// schema is the set of keys one kind of line accepts. Lookups are
// case-insensitive, as in Slurm.
type schema struct {
	what  string
	specs func() []keySpec
	once  sync.Once
	index map[string]keySpec
}

func newSchema(what string, specs func() []keySpec) *schema {
	return &schema{what: what, specs: specs}
}

// keys returns the schema's keys by lower-case name. The index is built on
// first use, not at package initialisation: every user command links this
// package (to find the controller) and most never parse a whole file.
func (s *schema) keys() map[string]keySpec {
	s.once.Do(func() {
		specs := s.specs()
		s.index = make(map[string]keySpec, len(specs))
		for _, k := range specs {
			s.index[strings.ToLower(k.name)] = k
		}
	})
	return s.index
}

func keys(u use, names ...string) []keySpec {
	out := make([]keySpec, len(names))
	for i, n := range names {
		out[i] = keySpec{name: n, use: u}
	}
	return out
}

func join(lists ...[]keySpec) []keySpec {
	var out []keySpec
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// values maps a canonical key to the field that set it last.
type values map[string]field

// check sorts the fields of one line into values: unknown keys are errors
// (with a suggestion when one is close), ignored keys are warnings, a key
// given twice keeps the later value with a warning, as Slurm does.
func (s *schema) check(fields []field, recName string, d *diag) values {
	out := make(values, len(fields))
	for _, f := range fields {
		spec, ok := s.keys()[strings.ToLower(f.Key)]
		if !ok {
			d.errorf(f.Pos, recName, f.Key, ErrUnknownKey, "not a %s key%s", s.what, s.suggest(f.Key))
			continue
		}
		if spec.use == ignored {
			msg := "Slurm key not used by Loam, ignored"
			if spec.note != "" {
				msg += " (" + spec.note + ")"
			}
			d.warnf(f.Pos, recName, f.Key, "%s", msg)
			continue
		}
		name := spec.name
		if spec.alias != "" {
			name = spec.alias
		}
		if prev, dup := out[name]; dup {
			d.warnf(f.Pos, recName, f.Key, "given more than once (also at %s), the last value is used", prev.Pos)
		}
		out[name] = f
	}
	return out
}

// suggest returns ", did you mean X?" for the closest known key, if close.
func (s *schema) suggest(key string) string {
	lk := strings.ToLower(key)
	best, bestDist := "", len(lk)/3+1
	index := s.keys()
	names := make([]string, 0, len(index))
	for k := range index {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if d := editDistance(lk, k, bestDist); d < bestDist {
			best, bestDist = index[k].name, d
		}
	}
	if best == "" {
		return ""
	}
	return ", did you mean " + best + "?"
}

// editDistance is the Levenshtein distance of a and b, or limit when it is
// at least limit.
func editDistance(a, b string, limit int) int {
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}
