package command

import (
	"strings"
)

// item is one element of a parsed -o/-O format: a field printed at width
// (right-justified or not) followed by suffix. A field < 0 prints only its
// suffix: the line prefix, and invalid specifications, which Slurm prints
// literally.
type item struct {
	field  int
	width  int
	right  bool
	suffix string
}

// fieldNamer resolves format letters and -O names to a command's fields.
type fieldNamer interface {
	letter(c byte) (int, bool)
	long(name string) (int, bool)
}

// parseShortFormat parses a -o format as Slurm's parse_format does: the text
// before the first "%" prefixes every line; each "%[.][width]X" selects
// field X, and the text up to the next "%" follows it. Empty "%%" tokens
// vanish (Slurm splits with strtok). "%all" selects every letter in order
// a-z, A-Z separated by "|". Unknown letters are reported in bad and print
// as written.
func parseShortFormat(format string, f fieldNamer) (items []item, bad []string) {
	var all bool
	if strings.EqualFold(format, "%all") {
		var b strings.Builder
		b.WriteString("%a")
		for c := 'b'; c <= 'z'; c++ {
			b.WriteString("|%" + string(c))
		}
		for c := 'A'; c <= 'Z'; c++ {
			b.WriteString("|%" + string(c))
		}
		format, all = b.String(), true
	}
	tokens := strtok(format, "%")
	if i := strings.IndexByte(format, '%'); i != 0 {
		if i < 0 {
			i = len(format)
		}
		items = append(items, item{field: -1, suffix: format[:i]})
		if len(tokens) > 0 {
			tokens = tokens[1:]
		}
	}
	for _, tok := range tokens {
		right, width, rest := widthPrefix(tok)
		var c byte
		if rest != "" {
			c, rest = rest[0], rest[1:]
		}
		if k, ok := f.letter(c); ok && c != 0 {
			items = append(items, item{field: k, width: width, right: right, suffix: rest})
			continue
		}
		if all {
			continue
		}
		bad = append(bad, string(c))
		items = append(items, item{field: -1, suffix: "%" + tok})
	}
	return items, bad
}

// widthPrefix splits "[.][digits]rest".
func widthPrefix(tok string) (right bool, width int, rest string) {
	i := 0
	if i < len(tok) && tok[i] == '.' {
		right = true
		i++
	}
	for ; i < len(tok) && tok[i] >= '0' && tok[i] <= '9'; i++ {
		width = width*10 + int(tok[i]-'0')
		if width > 1<<20 {
			width = 1 << 20
		}
	}
	return right, width, tok[i:]
}

// parseLongFormat parses a -O format as Slurm's parse_long_format does:
// comma-separated "name[:[.]width[suffix]]"; a name without ":" is 20 wide
// and left-justified; an explicit width has no separator after it unless
// a suffix follows the number. Names are matched case-insensitively.
func parseLongFormat(format string, f fieldNamer) (items []item, bad []string) {
	for _, tok := range strtok(format, ",") {
		name, spec, hasSpec := strings.Cut(tok, ":")
		it := item{width: 20}
		if hasSpec {
			it.right = strings.HasPrefix(spec, ".")
			if it.right {
				spec = spec[1:]
			}
			it.width, it.suffix = strtol(spec)
			it.width = min(it.width, 1<<20)
		}
		k, ok := f.long(strings.ToLower(name))
		if !ok {
			// Slurm adds an invalid field that prints only its suffix.
			bad = append(bad, name)
			it.field = -1
		} else {
			it.field = k
		}
		items = append(items, it)
	}
	return items, bad
}

// strtok splits s at any byte of sep, dropping empty pieces, as C's strtok.
func strtok(s, sep string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(sep, r) })
}

// strtol reads a leading decimal integer as C's strtol (blanks and a sign
// allowed) and returns it with the rest of s.
func strtol(s string) (int, string) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start, n := i, 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		if n < 1<<31 {
			n = n*10 + int(s[i]-'0')
		}
	}
	if i == start {
		return 0, s
	}
	if neg {
		n = -n
	}
	return n, s[i:]
}

// pad appends s as Slurm's _print_str prints a field: at width 0 as is;
// right-justified in width columns, cut to width only when cut is set;
// left-justified always cut to width (printf's "%.Ns") and padded. A
// negative width prints s and one blank.
func pad(b []byte, s string, width int, right, cut bool) []byte {
	switch {
	case width == 0:
		return append(b, s...)
	case width < 0:
		return append(append(b, s...), ' ')
	case right:
		if len(s) >= width {
			if cut {
				s = s[:width]
			}
			return append(b, s...)
		}
		b = spaces(b, width-len(s))
		return append(b, s...)
	}
	if len(s) > width {
		s = s[:width]
	}
	b = append(b, s...)
	return spaces(b, width-len(s))
}

// padBytes is pad for a value already in a byte slice.
func padBytes(b, s []byte, width int, right, cut bool) []byte {
	switch {
	case width == 0:
		return append(b, s...)
	case width < 0:
		return append(append(b, s...), ' ')
	case right:
		if len(s) >= width {
			if cut {
				s = s[:width]
			}
			return append(b, s...)
		}
		return append(spaces(b, width-len(s)), s...)
	}
	if len(s) > width {
		s = s[:width]
	}
	return spaces(append(b, s...), width-len(s))
}

func spaces(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, ' ')
	}
	return b
}

// orNull prints an unset string as glibc's printf prints a NULL "%s".
func orNull(s string) string {
	if s == "" {
		return "(null)"
	}
	return s
}

// orNA prints an unset string as "N/A".
func orNA(s string) string {
	if s == "" {
		return "N/A"
	}
	return s
}
