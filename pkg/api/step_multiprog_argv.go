package api

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrNoMultiProg is the error of a task a configuration gives no program
// (slurmstepd then says "No executable program specified for this task").
var ErrNoMultiProg = errors.New("no executable program specified for this task")

// MultiProgArgv returns task rank's command from a --multi-prog
// configuration, as slurmstepd reads it: the first line whose ranges hold
// the task, split into arguments, then extra (srun's arguments after the
// file name). Errors wrap ErrNoMultiProg.
func MultiProgArgv(data string, rank int, extra []string) ([]string, error) {
	var lines []string
	for _, l := range strings.Split(data, "\n") {
		if l != "" { // slurmstepd splits with strtok: empty lines vanish
			lines = append(lines, l)
		}
	}
	cand := multiProgLines(lines)
	for i, line := range lines {
		if !cand[i] {
			continue
		}
		p := strings.TrimLeft(line, " \t\n\v\f\r")
		if p == "" || p[0] == '#' {
			continue
		}
		end := strings.IndexAny(p, " \t\n\v\f\r")
		if end < 0 {
			return nil, fmt.Errorf("invalid MPMD configuration line %d: %w", i+1, ErrNoMultiProg)
		}
		offset, ok := inRanks(rank, p[:end])
		if !ok {
			continue
		}
		a := &mpArgs{lines: lines, li: i, rank: rank, offset: offset}
		argv, err := a.parse(strings.TrimLeft(p[end:], " \t\n\v\f\r"))
		if err != nil {
			return nil, err
		}
		for _, x := range extra {
			if len(argv) >= multiProgMaxArgs {
				break
			}
			argv = append(argv, x)
		}
		if len(argv) == 0 {
			return nil, ErrNoMultiProg
		}
		return argv, nil
	}
	return nil, fmt.Errorf("program for task rank %d not specified: %w", rank, ErrNoMultiProg)
}

// inRanks reports whether rank is in spec and its offset there: its
// position counting the tasks of the ranges before it. Bad ranges are
// skipped, as slurmstepd does.
func inRanks(rank int, spec string) (int, bool) {
	if spec == "*" {
		return rank, true
	}
	passed := 0
	for _, tok := range strings.Split(spec, ",") {
		if tok == "" {
			continue
		}
		d := digits(tok)
		switch {
		case d == len(tok):
			if rank == atoi(tok) {
				return passed, true
			}
			passed++
		case tok[d] == '-' && digits(tok[d+1:]) == len(tok)-d-1:
			low, high := atoi(tok), atoi(tok[d+1:])
			if rank >= low && rank <= high {
				return passed + rank - low, true
			}
			passed += 1 + high - low
		}
	}
	return 0, false
}

// mpArgs splits one program line into arguments; a backslash at the end
// of a line continues it on the next.
type mpArgs struct {
	lines        []string
	li           int // the line being read
	rank, offset int
	argv         []string
	cur          strings.Builder
}

func (a *mpArgs) parse(s string) ([]string, error) {
	for s != "" {
		if len(a.argv) >= multiProgMaxArgs {
			break
		}
		var err error
		s, err = a.arg(s)
		if err != nil {
			return nil, err
		}
		a.argv = append(a.argv, a.cur.String())
		a.cur.Reset()
		s = strings.TrimLeft(s, " \t\n\v\f\r")
	}
	return a.argv, nil
}

// arg reads one argument into cur and returns what follows it.
func (a *mpArgs) arg(s string) (string, error) {
	for s != "" {
		switch c := s[0]; {
		case c == '%':
			s = a.percent(s)
		case c == '\\':
			if len(s) > 1 {
				a.cur.WriteByte(s[1])
				s = s[2:]
			} else if s = a.nextLine(); s == "" && a.li >= len(a.lines) {
				return "", nil
			}
		case c == '\'':
			var err error
			if s, err = a.quoted(s[1:]); err != nil {
				return "", err
			}
		case isSpace(c):
			return s, nil
		default:
			a.cur.WriteByte(c)
			s = s[1:]
		}
	}
	return "", nil
}

// percent replaces %t and %o; any other '%' drops the character after it.
func (a *mpArgs) percent(s string) string {
	if len(s) < 2 {
		return ""
	}
	switch s[1] {
	case 't':
		a.cur.WriteString(strconv.Itoa(a.rank))
	case 'o':
		a.cur.WriteString(strconv.Itoa(a.offset))
	}
	return s[2:]
}

// quoted reads a single-quoted part (s follows the opening quote). One
// left open at a line ending in a backslash keeps the rest of that line
// and resumes after the closing quote on a later line, as slurmstepd's
// reading of such a line comes out.
func (a *mpArgs) quoted(s string) (string, error) {
	if i := strings.IndexByte(s, '\''); i >= 0 {
		a.cur.WriteString(s[:i])
		return s[i+1:], nil
	}
	a.cur.WriteString(s)
	last := s
	for strings.HasSuffix(last, `\`) {
		if last = a.nextLine(); last == "" {
			break
		}
		if i := strings.IndexByte(last, '\''); i >= 0 {
			return last[i+1:], nil
		}
	}
	return "", fmt.Errorf("program arguments specification format invalid: %w", ErrNoMultiProg)
}

// nextLine moves to the next line; "" when there is none (the lines are
// never empty).
func (a *mpArgs) nextLine() string {
	a.li++
	if a.li >= len(a.lines) {
		return ""
	}
	return a.lines[a.li]
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}
