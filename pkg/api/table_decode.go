package api

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// tableScanner reads the exact layout TableWriter writes. Values without
// escapes are substrings of one string copy of the input, so decoding a
// large table allocates little beyond the records themselves.
type tableScanner struct {
	s   string
	pos int
	bad bool
}

// fastDecodeTable decodes what TableWriter wrote straight into Job
// records, without the intermediate rows of strings. It reports false for
// anything else (other layouts, unknown fields, bad values), which the
// caller decodes the slow way for a precise error.
func fastDecodeTable(data []byte) (*JobTable, bool) {
	// The records' strings share data's memory, not a copy of it: a
	// table is megabytes (see DecodeJobTable).
	sc := &tableScanner{s: unsafe.String(unsafe.SliceData(data), len(data))}
	if !utf8.ValidString(sc.s) {
		return nil, false // encoding/json replaces bad bytes; let it
	}
	t := &JobTable{}
	sc.lit(`{"now":`)
	t.Now = sc.int()
	sc.lit(`,"fields":`)
	t.Fields = sc.strings(nil)
	idx, ok := fieldIndexes(t.Fields)
	if !ok {
		return nil, false
	}
	sc.lit(`,"rows":[`)
	// Every row but the last ends "],[" (a value holding it only makes
	// the estimate larger): the records are allocated once, and memory
	// never touched costs nothing.
	t.jobs = make([]Job, 0, strings.Count(sc.s[min(sc.pos, len(sc.s)):], "],[")+1)
	adviseHuge(t.jobs)
	for !sc.bad && sc.peek() != ']' {
		if len(t.jobs) > 0 {
			sc.lit(",")
		}
		t.jobs = append(t.jobs, Job{})
		sc.row(&t.jobs[len(t.jobs)-1], idx)
	}
	sc.lit("]")
	if sc.peek() == ',' {
		sc.lit(`,"missing":`)
		t.Missing = sc.strings(nil)
	}
	sc.lit("}")
	rest := strings.TrimSpace(sc.s[min(sc.pos, len(sc.s)):])
	if sc.bad || rest != "" {
		return nil, false
	}
	if t.jobs == nil {
		t.jobs = []Job{}
	}
	return t, true
}

// fieldIndexes maps a table's field names to jobFieldList.
func fieldIndexes(fields []string) ([]int, bool) {
	idx := make([]int, len(fields))
	for i, f := range fields {
		k, ok := jobFieldIndex[f]
		if !ok {
			return nil, false
		}
		idx[i] = k
	}
	return idx, true
}

// row reads ["v1","v2",...] into j, one value per field of idx.
func (sc *tableScanner) row(j *Job, idx []int) {
	sc.lit("[")
	for i, k := range idx {
		if i > 0 {
			sc.lit(",")
		}
		v := sc.str()
		if sc.bad || jobFieldList[k].set(j, v) != nil {
			sc.bad = true
			return
		}
	}
	sc.lit("]")
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
