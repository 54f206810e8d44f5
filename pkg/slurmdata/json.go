package slurmdata

import (
	"io"
	"math"
	"strconv"
	"strings"
)

// WriteJSON writes v as json-c's pretty printer does in Slurm 22.05:
// two-space indent, "key": value, every list and dictionary opened on its
// own line (an empty one too: "[" newline indent "]"), "/" escaped as
// "\/", and no newline after the document.
func WriteJSON(w io.Writer, v Value) error {
	b := appendJSON(nil, v, 0)
	_, err := w.Write(b)
	return err
}

// JSON returns v as WriteJSON writes it.
func JSON(v Value) []byte { return appendJSON(nil, v, 0) }

func appendJSON(b []byte, v Value, level int) []byte {
	switch v.kind {
	case KindBool:
		return strconv.AppendBool(b, v.b)
	case KindInt:
		return strconv.AppendInt(b, v.i, 10)
	case KindFloat:
		return appendJSONFloat(b, v.f)
	case KindString:
		return appendJSONString(b, v.s)
	case KindList:
		return appendJSONList(b, v.items, level)
	case KindDict:
		return appendJSONDict(b, v.dict, level)
	}
	return append(b, "null"...)
}

func appendJSONList(b []byte, items []Value, level int) []byte {
	b = append(b, "[\n"...)
	for i, it := range items {
		if i > 0 {
			b = append(b, ",\n"...)
		}
		b = indent(b, level+1)
		b = appendJSON(b, it, level+1)
	}
	if len(items) > 0 {
		b = append(b, '\n')
	}
	return append(indent(b, level), ']')
}

func appendJSONDict(b []byte, d *Dict, level int) []byte {
	b = append(b, "{\n"...)
	for i, k := range d.keys {
		if i > 0 {
			b = append(b, ",\n"...)
		}
		b = indent(b, level+1)
		b = appendJSONString(b, k)
		b = append(b, ": "...)
		b = appendJSON(b, d.vals[i], level+1)
	}
	if len(d.keys) > 0 {
		b = append(b, '\n')
	}
	return append(indent(b, level), '}')
}

func indent(b []byte, level int) []byte {
	for range level {
		b = append(b, "  "...)
	}
	return b
}

// appendJSONFloat prints as json-c does: "%.17g", with ".0" added to a
// whole number so that it reads back as a double.
func appendJSONFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "NaN"...)
	case math.IsInf(f, 1):
		return append(b, "Infinity"...)
	case math.IsInf(f, -1):
		return append(b, "-Infinity"...)
	}
	s := strconv.FormatFloat(f, 'g', 17, 64)
	b = append(b, s...)
	if !strings.ContainsAny(s, ".e") {
		b = append(b, ".0"...)
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendJSONString quotes s as json-c does: the short escapes, "\/", and
// \u00XX for the other control characters; other bytes go out as they are.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\b':
			b = append(b, `\b`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		case '\f':
			b = append(b, `\f`...)
		case '"':
			b = append(b, `\"`...)
		case '\\':
			b = append(b, `\\`...)
		case '/':
			b = append(b, `\/`...)
		default:
			if c < ' ' {
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
				continue
			}
			b = append(b, c)
		}
	}
	return append(b, '"')
}
