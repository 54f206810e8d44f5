package rlimit

import "strings"

// Names are the limits Slurm propagates, in its order (slurm.conf's
// PropagateResourceLimits and --propagate name them).
var Names = []string{"CPU", "FSIZE", "DATA", "STACK", "CORE", "RSS", "NPROC", "NOFILE", "MEMLOCK", "AS"}

// Set is a set of limits, one bit per entry of Names.
type Set uint16

// All is every limit: PropagateResourceLimits' default.
const All Set = 1<<10 - 1

// Has reports whether name (as in Names) is in s.
func (s Set) Has(name string) bool {
	i := index(name)
	return i >= 0 && s&(1<<i) != 0
}

// String is s as slurm.conf writes it: ALL, NONE or a list.
func (s Set) String() string {
	switch s {
	case All:
		return "ALL"
	case 0:
		return "NONE"
	}
	var out []string
	for i, n := range Names {
		if s&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return strings.Join(out, ",")
}

func index(name string) int {
	for i, n := range Names {
		if n == name {
			return i
		}
	}
	return -1
}

// NameError is a limit name Slurm does not know; its text is Slurm's.
type NameError struct{ Name string }

func (e NameError) Error() string { return "Bad rlimit name: " + e.Name }

// Parse reads ALL, NONE or a comma-separated list of names, each with or
// without RLIMIT_, in upper case as Slurm compares them.
func Parse(s string) (Set, error) {
	switch s {
	case "ALL":
		return All, nil
	case "NONE":
		return 0, nil
	}
	var set Set
	for _, name := range strings.Split(s, ",") {
		if name == "" {
			continue
		}
		i := index(strings.TrimPrefix(name, "RLIMIT_"))
		if i < 0 {
			return 0, NameError{name}
		}
		set |= 1 << i
	}
	return set, nil
}
