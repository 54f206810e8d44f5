package slurmtime

import "strings"

// DiagnosticPos says where Slurm's parse_time gives up on s: the position
// it prints in "Invalid time specification (pos=N): s" before sbatch's own
// "Invalid --begin specification". ok is false when parse_time prints no
// such line (s is empty or names no date or time, or is valid). ParseTime
// decides validity; this only reproduces the position parse_time reports,
// which is not always where the element starts: "now+garbage" reports the
// '+' (3), "12/31/2026x" the "26x" it reads as a second date (8).
func DiagnosticPos(s string) (pos int, ok bool) {
	if len(s) >= 3 && strings.EqualFold(s[:3], "uts") {
		return 0, true
	}
	at := func(i int) byte {
		if i >= 0 && i < len(s) {
			return s[i]
		}
		return 0
	}
	for pos = 0; at(pos) != 0 && at(pos) != '\n'; pos++ {
		c := at(pos)
		if c == ' ' || c == '\t' || c == '-' || c == 'T' {
			continue
		}
		if n, found := diagKeyword(s[pos:]); found {
			pos += n - 1
			continue
		}
		if hasPrefixFold(s[pos:], "now") {
			var bad bool
			if pos, bad = diagNow(s, pos, at); bad {
				return pos, true
			}
			continue
		}
		if !isDigit(c) {
			return pos, true
		}
		var bad bool
		if at(pos+1) == ':' || at(pos+2) == ':' {
			pos, bad = diagClock(pos, at)
		} else {
			pos, bad = diagDate(s, pos, at)
		}
		if bad {
			return pos, true
		}
	}
	return 0, false
}

func hasPrefixFold(s, word string) bool {
	return len(s) >= len(word) && strings.EqualFold(s[:len(word)], word)
}

// diagKeyword matches the words parse_time tries before "now", in its order.
func diagKeyword(s string) (int, bool) {
	for _, w := range []string{"today", "tomorrow", "midnight", "noon", "fika", "teatime"} {
		if hasPrefixFold(s, w) {
			return len(w), true
		}
	}
	return 0, false
}

// diagNow follows "now[+-count[unit]]"; like parse_time it adds the offset
// of the sign to pos (the same as setting it when "now" starts at 0).
func diagNow(s string, pos int, at func(int) byte) (int, bool) {
	for i := pos + 3; ; i++ {
		switch c := at(i); {
		case c == '+' || c == '-':
			return diagDelta(s, pos+i, at)
		case c == ' ' || c == '\t':
		case c == 0 || c == '\n':
			return pos + i - 1, false
		default:
			return pos + i, true
		}
	}
}

// diagDelta reads the count and unit after the sign at pos.
func diagDelta(s string, pos int, at func(int) byte) (int, bool) {
	digits := 0
	off := pos + 1
	for ; at(off) != 0 && at(off) != '\n'; off++ {
		c := at(off)
		if c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' {
			continue
		}
		unit := ""
		for _, u := range deltaUnits {
			if off < len(s) && hasPrefixFold(s[off:], u.name) {
				unit = u.name
				break
			}
		}
		if unit != "" {
			off += len(unit)
			break
		}
		if !isDigit(c) {
			return off - 1, true
		}
		digits++
	}
	if digits == 0 {
		return pos, true
	}
	return off - 1, false
}

// diagClock follows "HH:MM[:SS] [AM|PM]".
func diagClock(off int, at func(int) byte) (int, bool) {
	hr := int(at(off) - '0')
	off++
	if at(off) != ':' {
		if !isDigit(at(off)) {
			return off, true
		}
		hr = hr*10 + int(at(off)-'0')
		off++
	}
	if hr > 23 {
		return off - 2, true
	}
	if at(off) != ':' {
		return off, true
	}
	off++
	var n int
	var bad bool
	if off, n, bad = twoDigits(off, at); bad || n > 59 {
		return diagRange(off, bad)
	}
	if at(off) == ':' {
		if off, n, bad = twoDigits(off+1, at); bad || n > 59 {
			return diagRange(off, bad)
		}
	}
	for at(off) == ' ' || at(off) == '\t' {
		off++
	}
	if hasAmPm(at(off), at(off+1), 'p') {
		if hr+12 > 24 {
			return off, true
		}
		off += 2
	} else if hasAmPm(at(off), at(off+1), 'a') {
		if hr > 12 {
			return off, true
		}
		off += 2
	}
	return off - 1, false
}

func hasAmPm(a, b, first byte) bool {
	return (a|0x20) == first && (b|0x20) == 'm'
}

// twoDigits reads exactly two digits at off.
func twoDigits(off int, at func(int) byte) (int, int, bool) {
	if !isDigit(at(off)) {
		return off, 0, true
	}
	if !isDigit(at(off + 1)) {
		return off + 1, 0, true
	}
	return off + 2, int(at(off)-'0')*10 + int(at(off+1)-'0'), false
}

// diagRange is the position of a two-digit value: where reading stopped
// when it was not two digits, else its first digit (out of range).
func diagRange(off int, notDigits bool) (int, bool) {
	if notDigits {
		return off, true
	}
	return off - 2, true
}

// diagDate follows "YYYY-MM-DD" or "MM[./]DD[[./]YY]".
func diagDate(s string, off int, at func(int) byte) (int, bool) {
	if len(s) >= off+7 && at(off+4) == '-' && at(off+7) == '-' {
		for k := 0; k < 4; k++ {
			if !isDigit(at(off)) {
				return off, true
			}
			off++
		}
		off, bad := diagField(off+1, at, 12, false)
		if bad {
			return off, true
		}
		if off, bad = diagField(off+1, at, 31, true); bad {
			return off, true
		}
		return off - 1, false
	}
	off, bad := diagField(off, at, 12, false)
	if bad {
		return off, true
	}
	if at(off) == '.' || at(off) == '/' {
		off++
	}
	if off, bad = diagField(off, at, 31, true); bad {
		return off, true
	}
	if at(off) == '.' || at(off) == '/' {
		off++
	}
	if isDigit(at(off)) {
		if !isDigit(at(off + 1)) {
			return off + 1, true
		}
		off += 2
	}
	return off - 1, false
}

// diagField reads a one- or two-digit month (1-12) or day (1-31); a day
// must start with a digit, a month is taken as it comes.
func diagField(off int, at func(int) byte, most int, checkFirst bool) (int, bool) {
	if checkFirst && !isDigit(at(off)) {
		return off, true
	}
	n := int(at(off)) - '0'
	off++
	if isDigit(at(off)) {
		n = n*10 + int(at(off)-'0')
		off++
	}
	if n < 1 || n > most {
		return off - 2, true
	}
	return off, false
}
