package slurmconf

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"unicode/utf8"
)

// Limits that keep hostile or broken input from exhausting memory or time.
const (
	// MaxIncludeDepth bounds nested Include lines (slurm.conf includes a file
	// that includes a file ...).
	MaxIncludeDepth = 16
	// maxIncludes bounds the files one parse opens, so that a fan-out of
	// includes cannot grow exponentially with depth.
	maxIncludes = 1024
	// maxFileSize bounds one file; real configuration files are kilobytes.
	maxFileSize = 16 << 20
)

// field is one Key=Value pair as written.
type field struct {
	Key   string
	Value string
	Pos   Pos
	// rec names the DEFAULT line a value was inherited from, so an error in
	// it is reported against that line once, not against every user of it.
	rec string
}

// record is one logical line: its Key=Value pairs in order.
type record struct {
	Pos    Pos
	Fields []field
}

// reader turns files into records, following Include lines the way Slurm's
// parser does: comments start at an unescaped '#', a line ending in an odd
// number of backslashes continues on the next one, other backslashes escape
// the character after them, and "Include FILE" (case-insensitive, FILE
// relative to the including file) reads FILE in place.
type reader struct {
	fsys        fs.FS
	d           *diag
	records     []record
	files       []string
	opened      int
	stack       []string // files being read, for cycle detection
	clusterName string   // for the %c include modifier
	// unordered skips numbering lines for sorting errors (Lookup, which
	// reports errors only as a reason to fall back to Parse).
	unordered bool
}

func newReader(fsys fs.FS, d *diag) *reader { return &reader{fsys: fsys, d: d} }

// read reads name and everything it includes. A missing top file is
// reported at from.
func (r *reader) read(name string, from Pos) {
	if len(r.stack) > MaxIncludeDepth {
		r.d.errorf(from, "", "Include", ErrInclude, "%s: includes nested deeper than %d", name, MaxIncludeDepth)
		return
	}
	for _, open := range r.stack {
		if open == name {
			r.d.errorf(from, "", "Include", ErrInclude, "%s: include cycle", name)
			return
		}
	}
	if r.opened >= maxIncludes {
		r.d.errorf(from, "", "Include", ErrInclude, "%s: more than %d files included", name, maxIncludes)
		return
	}
	r.opened++
	data, err := readLimited(r.fsys, name)
	switch {
	case err != nil && len(r.stack) == 0:
		r.d.add(from, "", "", err)
		return
	case err != nil:
		r.d.add(from, "", "Include", fmt.Errorf("%w: %w", ErrInclude, err))
		return
	}
	// An editor's UTF-8 byte order mark is not part of the first key.
	data = bytes.TrimPrefix(data, []byte(byteOrderMark))
	r.files = append(r.files, name)
	r.stack = append(r.stack, name)
	defer func() { r.stack = r.stack[:len(r.stack)-1] }()
	order := r.d.lineOrder()
	for _, l := range logicalLines(name, string(data)) {
		if !r.unordered {
			order[l.pos] = len(order)
		}
		r.line(l)
	}
}

func readLimited(fsys fs.FS, name string) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, fmt.Errorf("%s: path outside the configuration file system", name)
	}
	if st, err := fs.Stat(fsys, name); err == nil && st.Size() > maxFileSize {
		return nil, fmt.Errorf("%s: file larger than %d bytes", name, maxFileSize)
	}
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	if len(data) > maxFileSize {
		return nil, fmt.Errorf("%s: file larger than %d bytes", name, maxFileSize)
	}
	return data, nil
}

// logical is one logical line after comments, continuations and escapes.
type logical struct {
	pos  Pos
	text string
}

// logicalLines splits data into logical lines. Comments are cut per physical
// line before continuations are joined, and escapes are removed last, as
// Slurm does; a continued line is joined with no separator added.
func logicalLines(file, data string) []logical {
	var out []logical
	phys := strings.Split(data, "\n")
	for i := 0; i < len(phys); i++ {
		start := i
		text, cont := stripContinuation(stripComment(phys[i]))
		if cont && i+1 < len(phys) {
			var b strings.Builder
			b.WriteString(text)
			for cont && i+1 < len(phys) {
				i++
				var s string
				s, cont = stripContinuation(stripComment(phys[i]))
				b.WriteString(s)
			}
			text = b.String()
		}
		text = unescape(text)
		if strings.TrimSpace(text) != "" {
			out = append(out, logical{pos: Pos{File: file, Line: start + 1}, text: text})
		}
	}
	return out
}

// stripComment cuts s at the first '#' preceded by an even number of
// backslashes.
func stripComment(s string) string {
	bs := 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '#' && bs%2 == 0:
			return s[:i]
		case s[i] == '\\':
			bs++
		default:
			bs = 0
		}
	}
	return s
}

// stripContinuation reports whether s ends (ignoring trailing white space)
// in an odd number of backslashes, and if so returns s without the last one.
func stripContinuation(s string) (string, bool) {
	t := strings.TrimRight(s, " \t\r\v\f")
	bs := len(t) - len(strings.TrimRight(t, "\\"))
	if bs%2 == 1 {
		return t[:len(t)-1], true
	}
	return s, false
}

// unescape drops every backslash and keeps the character after it, so "\\"
// is one backslash and "\#" is '#'.
func unescape(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			i++
			if i >= len(s) {
				break
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

const byteOrderMark = "\ufeff"

// line handles one logical line: an Include or a list of pairs. A line that
// is not text is refused whole rather than guessed at.
func (r *reader) line(l logical) {
	if err := checkText(l.text); err != nil {
		r.d.add(l.pos, "", "", fmt.Errorf("%w: %w", ErrSyntax, err))
		return
	}
	text := strings.TrimLeft(l.text, " \t\r\v\f")
	if target, rest, ok := includeTarget(text); ok {
		if strings.TrimSpace(rest) != "" {
			r.d.errorf(l.pos, "", "Include", ErrSyntax, "unexpected text after file name: %q", strings.TrimSpace(rest))
		}
		r.include(target, l.pos)
		return
	}
	fields, rest, err := splitPairs(text, l.pos)
	if err != nil {
		r.d.errs = append(r.d.errs, err)
	} else if rest = strings.TrimSpace(rest); rest != "" {
		word, _, _ := strings.Cut(strings.Fields(rest)[0], "=")
		r.d.errorf(l.pos, "", word, ErrSyntax, "cannot parse %q: expected Key=Value", abbrev(rest))
	}
	if len(fields) == 0 {
		return
	}
	if strings.EqualFold(fields[0].Key, "ClusterName") {
		r.clusterName = strings.ToLower(fields[0].Value)
	}
	r.records = append(r.records, record{Pos: l.pos, Fields: fields})
}

// checkText refuses bytes no configuration line holds: NUL and other
// control characters (white space aside), and bytes that are not UTF-8,
// which are usually a binary or wrongly encoded file. Slurm reads such
// bytes into names and values; Loam says where they are instead.
func checkText(s string) error {
	for i := 0; i < len(s); {
		c, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case c == utf8.RuneError && size <= 1:
			return fmt.Errorf("byte 0x%02x at column %d is not UTF-8 text", s[i], i+1)
		case c == 0:
			return fmt.Errorf("NUL byte at column %d", i+1)
		case c < 0x20 && !isSpace(byte(c)), c == 0x7f:
			return fmt.Errorf("control character 0x%02x at column %d", c, i+1)
		}
		i += size
	}
	return nil
}

// includeTarget recognises "Include FILE": the word, case-insensitive, then
// white space, then the file name up to the next white space.
func includeTarget(text string) (target, rest string, ok bool) {
	const word = "include"
	if len(text) <= len(word) || !strings.EqualFold(text[:len(word)], word) || !isSpace(text[len(word)]) {
		return "", "", false
	}
	s := strings.TrimLeft(text[len(word):], " \t\r\v\f")
	end := strings.IndexAny(s, " \t\r\v\f")
	if end < 0 {
		return s, "", s != ""
	}
	return s[:end], s[end:], true
}

// include resolves target relative to the including file and reads it. The
// %c modifier becomes the cluster name seen so far; an absolute path is
// looked up from the root of the file system; a name with glob characters
// includes every match in lexical order (a Loam extension: Slurm takes the
// name literally).
func (r *reader) include(target string, from Pos) {
	if strings.Contains(target, "%c") {
		if r.clusterName == "" {
			r.d.errorf(from, "", "Include", ErrInclude, "%s: %%c used before ClusterName is set", target)
			return
		}
		target = strings.ReplaceAll(target, "%c", r.clusterName)
	}
	var p string
	if strings.HasPrefix(target, "/") {
		p = path.Clean(strings.TrimLeft(target, "/"))
	} else {
		p = path.Join(path.Dir(from.File), target)
	}
	if !strings.ContainsAny(p, "*?[") {
		r.read(p, from)
		return
	}
	matches, err := fs.Glob(r.fsys, p)
	if err != nil || len(matches) == 0 {
		if err == nil {
			err = errors.New("no file matches")
		}
		r.d.errorf(from, "", "Include", ErrInclude, "%s: %v", target, err)
		return
	}
	for _, m := range matches {
		r.read(m, from)
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' || c == '\n'
}

func isKeyChar(c byte) bool {
	return c == '_' || c == '.' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// splitPairs reads Key=Value pairs from s until something else starts, and
// returns that rest. It follows Slurm's pattern: white space may surround
// '=', a value is either "quoted" (no quote inside, followed by white space
// or the end) or a run of non-space characters. Slurm's operator forms
// (Key+=Value) are refused.
func splitPairs(s string, pos Pos) ([]field, string, error) {
	var out []field
	for {
		i := skipSpace(s, 0)
		k := i
		for k < len(s) && isKeyChar(s[k]) {
			k++
		}
		if k == i {
			return out, s[i:], nil
		}
		key := s[i:k]
		j := skipSpace(s, k)
		if j < len(s) && strings.IndexByte("-*+/", s[j]) >= 0 && j+1 < len(s) && s[j+1] == '=' {
			return out, s[i:], &Error{Pos: pos, Key: key, Err: fmt.Errorf("%w: operator %c= is not supported in configuration files", ErrSyntax, s[j])}
		}
		if j >= len(s) || s[j] != '=' {
			return out, s[i:], nil
		}
		v := skipSpace(s, j+1)
		if v < len(s) && s[v] == '"' && strings.IndexByte(s[v+1:], '"') < 0 {
			return out, s[i:], &Error{Pos: pos, Key: key, Err: fmt.Errorf("%w: value %s has no closing quote", ErrSyntax, abbrev(s[v:]))}
		}
		value, end, ok := scanValue(s, v)
		if !ok {
			return out, s[i:], nil
		}
		out = append(out, field{Key: key, Value: value, Pos: pos})
		s = s[end:]
	}
}

func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

// scanValue reads the value starting at i and returns it and the index
// after it.
func scanValue(s string, i int) (string, int, bool) {
	if i >= len(s) {
		return "", i, false
	}
	if s[i] == '"' {
		if q := strings.IndexByte(s[i+1:], '"'); q >= 0 {
			end := i + 1 + q + 1
			if end == len(s) || isSpace(s[end]) {
				return s[i+1 : end-1], end, true
			}
		}
	}
	end := i
	for end < len(s) && !isSpace(s[end]) {
		end++
	}
	return s[i:end], end, true
}

// abbrev shortens s for error messages.
func abbrev(s string) string {
	const max = 60
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}
