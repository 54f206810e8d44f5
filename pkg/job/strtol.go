package job

import "math"

// Strtol reads a base-10 integer from the front of s as C's strtol does,
// because Slurm's controller parses array and dependency specs with it and
// Loam must accept and refuse the same strings: leading white space and one
// sign are skipped, the value saturates at the int64 limits, and n is the
// number of bytes used (0 when s holds no digits, like endptr == nptr).
func Strtol(s string) (v int64, n int) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	overflow := false
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		d := int64(s[i] - '0')
		if !overflow {
			if v > (math.MaxInt64-d)/10 {
				overflow = true
			} else {
				v = v*10 + d
			}
		}
		i++
	}
	if i == start {
		return 0, 0
	}
	switch {
	case overflow && neg:
		return math.MinInt64, i
	case overflow:
		return math.MaxInt64, i
	case neg:
		return -v, i
	}
	return v, i
}

// atoi is C's atoi: strtol that ignores where the number ends, 0 without
// digits. The result is truncated to 32 bits as an int would be.
func atoi(s string) int {
	v, _ := Strtol(s)
	return int(int32(v))
}

func isCSpace(c byte) bool {
	return c == ' ' || ('\t' <= c && c <= '\r')
}
