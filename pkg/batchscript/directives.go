package batchscript

import (
	"bytes"
	"fmt"
	"strings"
)

// Directives is what a script's #SBATCH lines say.
type Directives struct {
	// Args are the arguments in order, ready for the option parser.
	Args []string
	// Warnings are messages sbatch prints after "sbatch: error: " without
	// failing (a "#SLURM" line).
	Warnings []string
	// HetJob is set when a "hetjob" (or "packjob") separator line ended
	// the first job component; Args hold only that first component.
	HetJob bool
}

const (
	magic      = "#SBATCH"
	magicOld   = "#SLURM"
	warnSLURM  = "Change from #SLURM to #SBATCH in your script and verify the options are valid in sbatch"
	hetJobWord = "hetjob"
	packJobWrd = "packjob"
)

// Extract returns the directives of script body. name is the script's
// base name ("stdin" for a script read from standard input); sbatch puts
// it in its messages. Extract fails, as sbatch does, on an unmatched quote
// or a ":" where an argument starts.
func Extract(name string, body []byte) (*Directives, error) {
	d := &Directives{}
	for i, line := range bytes.Split(body, []byte("\n")) {
		if nul := bytes.IndexByte(line, 0); nul >= 0 {
			line = line[:nul] // sbatch reads each line as a C string
		}
		rest, ok := d.directive(string(line))
		if !ok {
			if isCommand(line) {
				break
			}
			continue
		}
		rest = strings.TrimLeft(rest, " \t\n\v\f\r")
		if isHetJobWord(rest) {
			d.HetJob = true
			break
		}
		if err := d.arguments(name, i+1, rest); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// directive returns what follows the magic word when line is a directive.
func (d *Directives) directive(line string) (string, bool) {
	if strings.HasPrefix(line, magic) {
		return line[len(magic):], true
	}
	if strings.HasPrefix(line, magicOld) {
		if len(d.Warnings) == 0 {
			d.Warnings = append(d.Warnings, warnSLURM)
		}
		return line[len(magicOld):], true
	}
	return "", false
}

// isCommand reports whether line is neither blank nor a comment.
func isCommand(line []byte) bool {
	for _, c := range line {
		if isSpace(c) {
			continue
		}
		return c != '#'
	}
	return false
}

// isHetJobWord reports whether s starts with the het job separator word.
func isHetJobWord(s string) bool {
	for _, w := range []string{hetJobWord, packJobWrd} {
		if len(s) >= len(w) && strings.EqualFold(s[:len(w)], w) && (len(s) == len(w) || isSpace(s[len(w)])) {
			return true
		}
	}
	return false
}

// arguments appends the arguments of one directive line. Like sbatch it
// stops at the first position that yields no characters: a "#" comment, the
// end of the line, a separator word, or an empty quoted string "" (which
// drops the rest of that line).
func (d *Directives) arguments(name string, lineno int, rest string) error {
	for {
		arg, n, err := nextArgument(name, lineno, rest)
		if err != nil || n < 0 {
			return err
		}
		d.Args = append(d.Args, arg)
		rest = rest[n:]
	}
}

// nextArgument reads one argument from the front of s as sbatch's
// get_argument does. n is how much of s it used, -1 when there is no
// argument.
func nextArgument(name string, lineno int, s string) (arg string, n int, err error) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	if isHetJobWord(s[i:]) {
		return "", -1, nil
	}
	if i < len(s) && s[i] == ':' {
		return "", -1, &Error{Fatal: true, Lines: []string{fmt.Sprintf("%s: line %d: Unexpected `:` in [%s]", name, lineno, s)}}
	}
	var b strings.Builder
	var quote byte
	escaped := false
	for ; i < len(s) && (quote != 0 || !isSpace(s[i])); i++ {
		c := s[i]
		switch {
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
			continue
		case quote != 0:
			if c == quote {
				quote = 0
				continue
			}
		case c == '"' || c == '\'':
			quote = c
			continue
		case c == '#':
			return finish(&b, i)
		}
		b.WriteByte(c)
	}
	if quote != 0 {
		return "", -1, &Error{Fatal: true, Lines: []string{fmt.Sprintf("%s: line %d: Unmatched `%c` in [%s]", name, lineno, quote, s)}}
	}
	return finish(&b, i)
}

// finish returns the argument built so far; none when it is empty, as
// sbatch allocates an argument only when it copies a character.
func finish(b *strings.Builder, n int) (string, int, error) {
	if b.Len() == 0 {
		return "", -1, nil
	}
	return b.String(), n, nil
}
