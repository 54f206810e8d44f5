package job

import "math"

// Strtol reads a base-10 integer from the front of s as C's strtol does,
// because Slurm's controller parses array and dependency specs with it and
// Loam must accept and refuse the same strings: leading white space and one
// sign are skipped, the value saturates at the int64 limits, and n is the
// number of bytes used (0 when s holds no digits, like endptr == nptr).
func Strtol(s string) (v int64, n int) { return strtolBase(s, 10) }

// atoi is C's atoi: strtol that ignores where the number ends, 0 without
// digits. The result is truncated to 32 bits as an int would be.
func atoi(s string) int {
	v, _ := Strtol(s)
	return int(int32(v))
}

func isCSpace(c byte) bool {
	return c == ' ' || ('\t' <= c && c <= '\r')
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// strtolBase is C's strtol with base 0 (a "0x" prefix for hexadecimal, a
// leading 0 for octal), 10 or 16 (a "0x" prefix allowed): leading space
// and a sign skipped, the value saturated at the int64 limits, n the
// bytes used (0 without digits).
func strtolBase(s string, base int) (v int64, n int) {
	i := 0
	for i < len(s) && isCSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	hexPrefix := len(s) > i+2 && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') && isHexDigit(s[i+2])
	switch {
	case (base == 0 || base == 16) && hexPrefix:
		base, i = 16, i+2
	case base == 0 && i < len(s) && s[i] == '0':
		base = 8
	case base == 0:
		base = 10
	}
	start := i
	var u uint64
	for ; i < len(s); i++ {
		d := digitValue(s[i])
		if d >= base {
			break
		}
		if u > (1<<63)/uint64(base) {
			u = 1 << 63 // past any int64: saturated
			continue
		}
		u = min(u*uint64(base)+uint64(d), 1<<63)
	}
	if i == start {
		return 0, 0
	}
	switch {
	case neg && u >= 1<<63:
		return math.MinInt64, i
	case u >= 1<<63:
		return math.MaxInt64, i
	case neg:
		return -int64(u), i
	}
	return int64(u), i
}

// digitValue is c's value as a digit in bases up to 36 (36 when none).
func digitValue(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'z':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'Z':
		return int(c-'A') + 10
	}
	return 36
}
