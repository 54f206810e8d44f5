package api

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// tableScanner reads the exact layout TableWriter writes. Values without
// escapes are substrings of one string copy of the input, so decoding a
// large table allocates little beyond the row slices.
type tableScanner struct {
	s   string
	pos int
	bad bool
}

func fastDecodeTable(data []byte) (*JobTable, bool) {
	sc := &tableScanner{s: string(data)}
	if !utf8.ValidString(sc.s) {
		return nil, false // encoding/json replaces bad bytes; let it
	}
	t := &JobTable{}
	sc.lit(`{"now":`)
	t.Now = sc.int()
	sc.lit(`,"fields":`)
	t.Fields = sc.strings(nil)
	sc.lit(`,"rows":[`)
	width := len(t.Fields)
	for !sc.bad && sc.peek() != ']' {
		if len(t.Rows) > 0 {
			sc.lit(",")
		}
		t.Rows = append(t.Rows, sc.strings(make([]string, 0, width)))
	}
	sc.lit("]")
	if sc.peek() == ',' {
		sc.lit(`,"missing":`)
		t.Missing = sc.strings(nil)
	}
	sc.lit("}")
	rest := strings.TrimSpace(sc.s[min(sc.pos, len(sc.s)):])
	return t, !sc.bad && rest == ""
}

func (sc *tableScanner) peek() byte {
	if sc.pos >= len(sc.s) {
		sc.bad = true
		return 0
	}
	return sc.s[sc.pos]
}

func (sc *tableScanner) lit(l string) {
	if sc.bad || !strings.HasPrefix(sc.s[sc.pos:], l) {
		sc.bad = true
		return
	}
	sc.pos += len(l)
}

func (sc *tableScanner) int() int64 {
	start := sc.pos
	for sc.pos < len(sc.s) && (sc.s[sc.pos] == '-' || sc.s[sc.pos] >= '0' && sc.s[sc.pos] <= '9') {
		sc.pos++
	}
	v, err := strconv.ParseInt(sc.s[start:sc.pos], 10, 64)
	if err != nil {
		sc.bad = true
	}
	return v
}

// strings reads ["a","b",...] into out.
func (sc *tableScanner) strings(out []string) []string {
	sc.lit("[")
	for !sc.bad && sc.peek() != ']' {
		if len(out) > 0 {
			sc.lit(",")
		}
		out = append(out, sc.str())
	}
	sc.lit("]")
	return out
}

func (sc *tableScanner) str() string {
	sc.lit(`"`)
	if sc.bad {
		return ""
	}
	start := sc.pos
	for sc.pos < len(sc.s) {
		switch c := sc.s[sc.pos]; {
		case c == '"':
			v := sc.s[start:sc.pos]
			sc.pos++
			return v
		case c == '\\':
			return sc.escaped(start)
		case c < 0x20:
			sc.bad = true
			return ""
		}
		sc.pos++
	}
	sc.bad = true
	return ""
}

// escaped finishes a string that holds escapes, starting at start.
func (sc *tableScanner) escaped(start int) string {
	var b strings.Builder
	b.WriteString(sc.s[start:sc.pos])
	for sc.pos < len(sc.s) {
		c := sc.s[sc.pos]
		switch {
		case c == '"':
			sc.pos++
			return b.String()
		case c != '\\':
			b.WriteByte(c)
			sc.pos++
			continue
		}
		if sc.pos+1 >= len(sc.s) {
			break
		}
		e := sc.s[sc.pos+1]
		sc.pos += 2
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			b.WriteRune(sc.unicode())
		default:
			sc.bad = true
			return ""
		}
	}
	sc.bad = true
	return ""
}

func (sc *tableScanner) hex4() rune {
	if sc.pos+4 > len(sc.s) {
		sc.bad = true
		return utf8.RuneError
	}
	v, err := strconv.ParseUint(sc.s[sc.pos:sc.pos+4], 16, 16)
	if err != nil {
		sc.bad = true
	}
	sc.pos += 4
	return rune(v)
}

func (sc *tableScanner) unicode() rune {
	r := sc.hex4()
	if utf16.IsSurrogate(r) && strings.HasPrefix(sc.s[sc.pos:], `\u`) {
		sc.pos += 2
		return utf16.DecodeRune(r, sc.hex4())
	}
	if utf16.IsSurrogate(r) {
		return utf8.RuneError
	}
	return r
}
