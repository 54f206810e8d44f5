package command

import (
	"bytes"
	"strconv"
	"time"
)

// strftime formats t as glibc's strftime(3) does for the C locale, the
// function Slurm hands SLURM_TIME_FORMAT to. It knows the flags "-" (no
// padding), "_" (spaces), "0" (zeros), "^" (upper case) and "#" (swapped
// case), a field width, the E and O modifiers (ignored, as in the C
// locale), and glibc's conversions; an unknown conversion prints as
// written, as glibc does.
func strftime(b []byte, layout string, t time.Time) []byte {
	for i := 0; i < len(layout); i++ {
		if layout[i] != '%' {
			b = append(b, layout[i])
			continue
		}
		spec, n := parseConv(layout[i+1:])
		start := len(b)
		var ok bool
		b, ok = spec.appendConv(b, t)
		if !ok {
			b = append(b[:start], layout[i:i+1+n]...)
		}
		i += n
	}
	return b
}

// conv is one parsed "%..." conversion.
type conv struct {
	flag  byte // '-', '_', '0' or 0
	upper bool // "^"
	swap  bool // "#"
	width int  // -1: the conversion's own
	c     byte // the conversion letter, 0 at the end of the layout
}

// parseConv reads the conversion after a '%' and how many bytes it took.
func parseConv(s string) (conv, int) {
	cv := conv{width: -1}
	i := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case '-', '_', '0':
			cv.flag = s[i]
			continue
		case '^':
			cv.upper = true
			continue
		case '#':
			cv.swap = true
			continue
		}
		break
	}
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		if cv.width < 0 {
			cv.width = 0
		}
		if cv.width < 1000 {
			cv.width = cv.width*10 + int(s[i]-'0')
		}
	}
	if i < len(s) && (s[i] == 'E' || s[i] == 'O') {
		i++
	}
	if i < len(s) {
		cv.c = s[i]
		i++
	}
	return cv, i
}

// numConv are the numeric conversions: the value, its default width and
// its default padding.
func numConv(c byte, t time.Time) (v int64, width int, pad byte, ok bool) {
	h12 := int64(t.Hour() % 12)
	if h12 == 0 {
		h12 = 12
	}
	isoYear, isoWeek := t.ISOWeek()
	yday := int64(t.YearDay() - 1)
	wday := int64(t.Weekday())
	switch c {
	case 'C':
		return int64(t.Year() / 100), 2, '0', true
	case 'd':
		return int64(t.Day()), 2, '0', true
	case 'e':
		return int64(t.Day()), 2, ' ', true
	case 'g':
		return int64(isoYear % 100), 2, '0', true
	case 'G':
		return int64(isoYear), 1, '0', true
	case 'H':
		return int64(t.Hour()), 2, '0', true
	case 'I':
		return h12, 2, '0', true
	case 'j':
		return yday + 1, 3, '0', true
	case 'k':
		return int64(t.Hour()), 2, ' ', true
	case 'l':
		return h12, 2, ' ', true
	case 'm':
		return int64(t.Month()), 2, '0', true
	case 'M':
		return int64(t.Minute()), 2, '0', true
	case 's':
		return t.Unix(), 1, '0', true
	case 'S':
		return int64(t.Second()), 2, '0', true
	case 'u':
		return (wday+6)%7 + 1, 1, '0', true
	case 'U':
		return (yday + 7 - wday) / 7, 2, '0', true
	case 'V':
		return int64(isoWeek), 2, '0', true
	case 'w':
		return wday, 1, '0', true
	case 'W':
		return (yday + 7 - (wday+6)%7) / 7, 2, '0', true
	case 'y':
		return int64(t.Year() % 100), 2, '0', true
	case 'Y':
		return int64(t.Year()), 1, '0', true
	}
	return 0, 0, 0, false
}

// compositeConv are the conversions that stand for a layout of others.
var compositeConv = map[byte]string{
	'c': "%a %b %e %H:%M:%S %Y",
	'D': "%m/%d/%y",
	'F': "%Y-%m-%d",
	'r': "%I:%M:%S %p",
	'R': "%H:%M",
	'T': "%H:%M:%S",
	'x': "%m/%d/%y",
	'X': "%H:%M:%S",
}

// textConv prints the conversions that are text; swapLower tells
// whether "#" makes them lower case (upper otherwise).
func textConv(c byte, t time.Time) (s string, swapLower bool, ok bool) {
	switch c {
	case 'a':
		return t.Format("Mon"), false, true
	case 'A':
		return t.Format("Monday"), false, true
	case 'b', 'h':
		return t.Format("Jan"), false, true
	case 'B':
		return t.Format("January"), false, true
	case 'p':
		return t.Format("PM"), true, true
	case 'P':
		return t.Format("pm"), false, true
	case 'Z':
		return t.Format("MST"), true, true
	case 'z':
		return t.Format("-0700"), false, true
	case 'n':
		return "\n", false, true
	case 't':
		return "\t", false, true
	case '%':
		return "%", false, true
	}
	if l, ok := compositeConv[c]; ok {
		return string(strftime(nil, l, t)), false, true
	}
	return "", false, false
}

// appendConv appends the conversion, false when glibc does not know it.
func (cv conv) appendConv(b []byte, t time.Time) ([]byte, bool) {
	if v, width, pad, ok := numConv(cv.c, t); ok {
		switch cv.flag {
		case '-':
			width = 1
		case '_':
			pad = ' '
		case '0':
			pad = '0'
		}
		if cv.width >= 0 {
			width = cv.width
		}
		return padTo(b, strconv.FormatInt(v, 10), width, pad), true
	}
	s, swapLower, ok := textConv(cv.c, t)
	if !ok {
		return b, false
	}
	switch {
	case cv.upper || (cv.swap && !swapLower):
		s = string(bytes.ToUpper([]byte(s)))
	case cv.swap:
		s = string(bytes.ToLower([]byte(s)))
	}
	pad := byte(' ')
	if cv.flag == '0' {
		pad = '0'
	}
	return padTo(b, s, cv.width, pad), true
}

// padTo appends s padded on the left to width with pad.
func padTo(b []byte, s string, width int, pad byte) []byte {
	for n := len(s); n < width; n++ {
		b = append(b, pad)
	}
	return append(b, s...)
}
