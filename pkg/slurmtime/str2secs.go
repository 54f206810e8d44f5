package slurmtime

import "strings"

// InfiniteSecs is what Str2Secs gives for -1, INFINITE and UNLIMITED:
// Slurm's INFINITE read back into a C int.
const InfiniteSecs = -1

// Str2Secs reads s as Slurm's time_str2secs does, for the options that
// take a time without complaining about it (--switches=N@TIME,
// SBATCH_WAIT4SWITCH, scontrol's Switches=N@TIME): M, M:S, H:M:S, D-H,
// D-H:M, D-H:M:S, or -1/INFINITE/UNLIMITED (InfiniteSecs). ok is false
// where Slurm answers NO_VAL (empty or malformed), which its callers take
// as "not given". Unlike ParseDuration it never fails loudly, and a field
// may carry a sign as C's sscanf reads it.
func Str2Secs(s string) (secs int64, ok bool) {
	if s == "" {
		return 0, false
	}
	if isUnlimited(s) {
		return InfiniteSecs, true
	}
	if !validTimeSpec(s) {
		return 0, false
	}
	var f [4]int64
	if strings.IndexByte(s, '-') >= 0 {
		scanFields(s, "-::", f[:]) // days-hours:minutes:seconds
		return f[0]*86400 + f[1]*3600 + f[2]*60 + f[3], true
	}
	if scanFields(s, "::", f[:3]) == 3 {
		return f[0]*3600 + f[1]*60 + f[2], true
	}
	return f[0]*60 + f[1], true // minutes[:seconds]
}

// validTimeSpec is Slurm's check before it scans: digits, at most one
// dash (never after a colon), at most two colons, and enough numbers for
// the colons.
func validTimeSpec(s string) bool {
	digits, dashes, colons := 0, 0, 0
	inDigits := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			if !inDigits {
				digits++
				inDigits = true
			}
		case c == '-':
			inDigits = false
			dashes++
			if colons > 0 {
				return false
			}
		case c == ':':
			inDigits = false
			colons++
		default:
			return false
		}
	}
	if digits == 0 || dashes > 1 || colons > 2 {
		return false
	}
	least := colons + 1 // numbers needed for the colons, plus the days
	if dashes > 0 && colons > 0 {
		least++
	}
	return colons == 0 || digits >= least
}

// scanFields reads signed numbers separated by seps into out, as sscanf
// with "%d-%d:%d:%d" does: it stops at the first mismatch and returns how
// many numbers it read.
func scanFields(s string, seps string, out []int64) int {
	pos := 0
	for i := range out {
		if i > 0 {
			if pos >= len(s) || s[pos] != seps[i-1] {
				return i
			}
			pos++
		}
		v, n := scanInt(s[pos:])
		if n == 0 {
			return i
		}
		out[i], pos = v, pos+n
	}
	return len(out)
}

// scanInt reads an optional sign and decimal digits; n is 0 without
// digits.
func scanInt(s string) (v int64, n int) {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg, n = s[0] == '-', 1
	}
	start := n
	for n < len(s) && s[n] >= '0' && s[n] <= '9' && v < 1<<40 {
		v = v*10 + int64(s[n]-'0')
		n++
	}
	if n == start {
		return 0, 0
	}
	if neg {
		v = -v
	}
	return v, n
}
