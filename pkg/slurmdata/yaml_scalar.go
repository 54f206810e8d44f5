package slurmdata

import (
	"strings"
	"unicode/utf8"
)

// scalarStyle is how libyaml writes a string.
type scalarStyle int

const (
	stylePlain scalarStyle = iota
	styleSingle
	styleDouble
)

// scalar writes s in the style libyaml picks for it. ind is the indent
// of continuation lines; breaks says long lines may break at a space
// (not in keys).
func (e *yamlEmitter) scalar(s string, ind int, breaks bool) {
	switch chooseStyle(s) {
	case stylePlain:
		e.plain(s, ind, breaks)
	case styleSingle:
		e.single(s, ind, breaks)
	default:
		e.double(s, ind, breaks)
	}
}

// chooseStyle analyses s as libyaml's emitter does for a block context
// without Unicode output: plain when no indicator, edge space, line break
// or special character forbids it, then single-quoted, then
// double-quoted.
func chooseStyle(s string) scalarStyle {
	if s == "" {
		return styleSingle
	}
	a := analyse(s)
	switch {
	case a.special || a.spaceBreak:
		return styleDouble
	case a.blockIndicator || a.edgeSpace || a.breaks:
		return styleSingle
	}
	return stylePlain
}

type analysis struct {
	blockIndicator bool // plain would read differently
	edgeSpace      bool // leading or trailing space
	special        bool // non-printable or non-ASCII
	breaks         bool
	spaceBreak     bool // a space next to a line break
}

func analyse(s string) analysis {
	var a analysis
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		a.blockIndicator = true
	}
	runes := []rune(s)
	for i, r := range runes {
		followedBySpace := i+1 >= len(runes) || isBlank(runes[i+1])
		if i == 0 {
			switch {
			case strings.ContainsRune("#,[]{}&*!|>'\"%@`", r):
				a.blockIndicator = true
			case (r == '?' || r == ':' || r == '-') && followedBySpace:
				a.blockIndicator = true
			}
		} else {
			switch {
			case r == ':' && followedBySpace:
				a.blockIndicator = true
			case r == '#' && isBlank(runes[i-1]):
				a.blockIndicator = true
			}
		}
		if !printable(r) || r > 0x7e {
			a.special = true
		}
		if isBreak(r) {
			a.breaks = true
		}
		if r == ' ' && (i == 0 || i == len(runes)-1) {
			a.edgeSpace = true
		}
		if i > 0 && (r == ' ' && isBreak(runes[i-1]) || isBreak(r) && runes[i-1] == ' ') {
			a.spaceBreak = true
		}
	}
	return a
}

func isBreak(r rune) bool {
	return r == '\n' || r == '\r' || r == 0x85 || r == 0x2028 || r == 0x2029
}

func isBlank(r rune) bool { return r == ' ' || r == '\t' || isBreak(r) }

// printable is libyaml's IS_PRINTABLE: a tab is not.
func printable(r rune) bool {
	switch {
	case r == '\n' || (r >= 0x20 && r <= 0x7e) || r == 0x85:
		return true
	case r >= 0xa0 && r <= 0xd7ff, r >= 0xe000 && r <= 0xfffd && r != 0xfeff:
		return true
	case r >= 0x10000 && r <= 0x10ffff:
		return true
	}
	return false
}

// breakHere is libyaml's test for folding a long line at a space: the
// line is past bestWidth and this is the first space of a run.
func (e *yamlEmitter) breakHere(breaks, prevSpace bool) bool {
	return breaks && !prevSpace && e.col > bestWidth
}

func (e *yamlEmitter) plain(s string, ind int, breaks bool) {
	prevSpace := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' {
			nextSpace := i+1 < len(s) && s[i+1] == ' '
			if e.breakHere(breaks, prevSpace) && !nextSpace {
				e.newline(ind)
			} else {
				e.putByte(c)
			}
			prevSpace = true
			continue
		}
		e.putByte(c)
		prevSpace = false
	}
}

// single writes s single-quoted; a run of line breaks is written with
// one more newline than it holds, and the text after it indented.
func (e *yamlEmitter) single(s string, ind int, breaks bool) {
	e.putByte('\'')
	prevSpace, inBreaks := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\n' {
			if !inBreaks {
				e.putByte('\n')
			}
			e.putByte('\n')
			inBreaks = true
			continue
		}
		if inBreaks {
			e.put(strings.Repeat(" ", ind))
			inBreaks = false
		}
		if c == ' ' {
			inside := i != 0 && i != len(s)-1 && s[i+1] != ' '
			if e.breakHere(breaks, prevSpace) && inside {
				e.newline(ind)
			} else {
				e.putByte(c)
			}
			prevSpace = true
			continue
		}
		if c == '\'' {
			e.putByte('\'')
		}
		e.putByte(c)
		prevSpace = false
	}
	if inBreaks {
		e.put(strings.Repeat(" ", ind))
	}
	e.putByte('\'')
}

// double writes s double-quoted with libyaml's escapes; a break at a long
// line's space escapes a following space with a backslash.
func (e *yamlEmitter) double(s string, ind int, breaks bool) {
	e.putByte('"')
	prevSpace := false
	for i, w := 0, 0; i < len(s); i += w {
		r, size := utf8.DecodeRuneInString(s[i:])
		w = size
		if r == ' ' {
			if e.breakHere(breaks, prevSpace) && i != 0 && i != len(s)-1 {
				e.newline(ind)
				if s[i+1] == ' ' {
					e.putByte('\\')
				}
			} else {
				e.putByte(' ')
			}
			prevSpace = true
			continue
		}
		prevSpace = false
		if r == utf8.RuneError && size == 1 {
			e.put(`\x` + hex2(int(s[i])))
			continue
		}
		e.put(escapeDouble(r))
	}
	e.putByte('"')
}

var shortEscapes = map[rune]string{
	0: `\0`, '\a': `\a`, '\b': `\b`, '\t': `\t`, '\n': `\n`, '\v': `\v`,
	'\f': `\f`, '\r': `\r`, 0x1b: `\e`, '"': `\"`, '\\': `\\`,
	0x85: `\N`, 0xa0: `\_`, 0x2028: `\L`, 0x2029: `\P`,
}

func escapeDouble(r rune) string {
	if esc, ok := shortEscapes[r]; ok {
		return esc
	}
	switch {
	case r >= 0x20 && r <= 0x7e:
		return string(r)
	case r <= 0xff:
		return `\x` + hex2(int(r))
	case r <= 0xffff:
		return `\u` + hex2(int(r>>8)) + hex2(int(r&0xff))
	}
	return `\U` + hex2(int(r>>24)) + hex2(int(r>>16&0xff)) + hex2(int(r>>8&0xff)) + hex2(int(r&0xff))
}

const upperHex = "0123456789ABCDEF"

func hex2(c int) string { return string([]byte{upperHex[c>>4&0xf], upperHex[c&0xf]}) }
