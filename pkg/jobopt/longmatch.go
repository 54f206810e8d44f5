package jobopt

import (
	"strconv"
	"strings"
)

// LongName is what MatchLong needs to know of one long option.
type LongName struct {
	Long string // without "--"; "" for a short-only option
	// Same identifies one option to getopt: names with equal Same (same
	// key and argument kind) are one option, so a prefix of both is not
	// ambiguous, as glibc decides by flag and val.
	Same string
	// LoamOnly marks a name Slurm's command does not have. Slurm's names
	// are matched first, so a prefix means to Loam what it means to
	// Slurm (its possibilities list only Slurm's names); Loam's own
	// names answer only prefixes no Slurm name has.
	LoamOnly bool
}

// SameOption is LongName.Same for an option of the given key and
// argument kind.
func SameOption(key string, arg int) string { return key + "\x00" + strconv.Itoa(arg) }

// MatchLong finds the long option name selects among names, in table
// order, as glibc's getopt_long does: an exact name wins, otherwise the
// prefix must select one option. It returns the index of the option, or
// -1 with the indexes of the possibilities when the prefix is ambiguous,
// or -1 and nil when nothing matches.
func MatchLong(names []LongName, name string) (int, []int) {
	for i, n := range names {
		if n.Long != "" && n.Long == name {
			return i, nil
		}
	}
	for _, loamOnly := range []bool{false, true} {
		if found, ambiguous := matchPrefix(names, name, loamOnly); found >= 0 || ambiguous != nil {
			return found, ambiguous
		}
	}
	return -1, nil
}

// matchPrefix is MatchLong's prefix pass over Slurm's names or Loam's.
func matchPrefix(names []LongName, name string, loamOnly bool) (int, []int) {
	found := -1
	var ambiguous []int
	for i, n := range names {
		if n.Long == "" || n.LoamOnly != loamOnly || !strings.HasPrefix(n.Long, name) {
			continue
		}
		switch {
		case found < 0:
			found = i
		case n.Same != names[found].Same:
			if ambiguous == nil {
				ambiguous = append(ambiguous, found)
			}
			ambiguous = append(ambiguous, i)
		}
	}
	if ambiguous != nil {
		return -1, ambiguous
	}
	return found, nil
}
