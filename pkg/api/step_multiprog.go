package api

import (
	"fmt"
	"strconv"
	"strings"
)

// srun --multi-prog runs a different program per task. Its configuration
// file, which srun sends whole with the step (StepCreateRequest.MultiProg),
// has one program line per task range:
//
//	# a comment (whole lines only)
//	0-3,7   ./server --rank=%t     %t: the task id
//	4,6     ./worker %o            %o: the task's offset within its ranges
//	*       ./idle                 every task not named before (last line)
//
// The rules are Slurm 22.05's, recorded from the peer cluster:
//   - A line ending in a backslash continues on the next one, which is
//     never a program line itself (even after a comment).
//   - Arguments split at white space. Single quotes keep everything up to
//     the closing quote; a backslash keeps the character after it. Double
//     quotes are ordinary characters.
//   - '%' takes the next character with it: "%t" and "%o" are replaced,
//     anything else is dropped ("50% x" is "50x").
//   - srun's own arguments after the file name follow each task's.
//   - srun refuses a file that misses a task, names one twice, or names one
//     past the task count; without -n the highest task named sets it.

// MultiProgMaxSize is the largest configuration srun sends, as Slurm.
const MultiProgMaxSize = 60000

// multiProgMaxLine is the longest line srun reads (Slurm's BUF_SIZE - 1,
// newline included).
const multiProgMaxLine = 16*1024 - 1

// multiProgMaxArgs bounds a task's argument count, as Slurm's MAX_ARGC - 1.
const multiProgMaxArgs = 127

// multiProgMaxTasks bounds the task count a configuration may set, so that
// "0-999999999" is refused rather than allocated.
const multiProgMaxTasks = 1 << 20

// MultiProgError is a configuration srun refuses: the lines it prints,
// each after "srun: error: ".
type MultiProgError struct {
	Lines []string
}

func (e *MultiProgError) Error() string { return strings.Join(e.Lines, "; ") }

// multiProgLines splits data into lines and reports, for each, whether it
// is a program line candidate (not the continuation of the line before).
func multiProgLines(lines []string) []bool {
	cand := make([]bool, len(lines))
	for i := range lines {
		cand[i] = i == 0 || !strings.HasSuffix(lines[i-1], `\`)
	}
	return cand
}

// VerifyMultiProg checks a configuration as srun does before it creates the
// step. file is the name given on the command line (for the messages);
// ntasks is -n, 0 when not given (srun then starts from one task and the
// highest task named sets the count). It returns the task count.
func VerifyMultiProg(data, file string, ntasks int) (int, error) {
	v := &mpVerify{file: file, ntasks: max(ntasks, 1), set: ntasks > 0}
	v.covered = make([]bool, v.ntasks)
	lines := strings.SplitAfter(data, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	cand := multiProgLines(trimNewlines(lines))
	for i, line := range lines {
		if len(line) >= multiProgMaxLine {
			return 0, v.fail(fmt.Sprintf("Line %d of configuration file %s too long", i+1, file))
		}
		if !cand[i] {
			continue
		}
		if err := v.line(i+1, line); err != nil {
			return 0, err
		}
	}
	for t := 0; t < v.ntasks; t++ {
		if !v.covered[t] {
			return 0, v.fail(fmt.Sprintf("Configuration file %s invalid, no record for task id %d", file, t))
		}
	}
	return v.ntasks, nil
}

func trimNewlines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimSuffix(l, "\n")
	}
	return out
}

// mpVerify is srun's check of one configuration.
type mpVerify struct {
	file    string
	ntasks  int
	set     bool // the task count is fixed (-n, or a "*" line)
	grown   bool // the configuration set the count
	star    bool // a "*" line was seen
	covered []bool
	errs    []string
}

func (v *mpVerify) fail(line string) error {
	v.errs = append(v.errs, line)
	return &MultiProgError{Lines: v.errs}
}

// line checks one program line: its task ranges and that it names a
// program.
func (v *mpVerify) line(num int, line string) error {
	p := strings.TrimLeft(line, " \t\n\v\f\r")
	if p == "" || p[0] == '#' {
		return nil
	}
	fields := strings.FieldsFunc(p, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' })
	invalid := fmt.Sprintf("Line %d of configuration file %s invalid", num, v.file)
	if len(fields) < 2 {
		return v.fail(invalid)
	}
	if msg := v.ranks(fields[0]); msg != "" {
		v.errs = append(v.errs, msg)
		return v.fail(invalid)
	}
	return nil
}

// ranks marks the tasks of a range list ("0-3,7" or "*"); it returns
// Slurm's message for a bad one.
func (v *mpVerify) ranks(spec string) string {
	if spec == "*" {
		v.set, v.star = true, true
		return v.mark(0, v.ntasks-1, true)
	}
	for _, tok := range strings.Split(spec, ",") {
		if tok == "" {
			continue
		}
		d := digits(tok)
		var low, high int
		switch {
		case v.star:
			return "Task range specification with asterisk must be last"
		case d == len(tok):
			low, high = atoi(tok), atoi(tok)
		case tok[d] == '-':
			upper := tok[d+1:]
			if digits(upper) != len(upper) {
				return "Invalid task range specification"
			}
			low, high = atoi(tok), atoi(upper)
		default:
			return "Invalid task range specification (" + tok + ")"
		}
		if msg := v.mark(low, high, false); msg != "" {
			return msg
		}
	}
	return ""
}

// mark records tasks low to high, growing the task count when no -n fixed
// it.
func (v *mpVerify) mark(low, high int, dupOK bool) string {
	switch {
	case low > high:
		return fmt.Sprintf("Invalid task range, %d-%d", low, high)
	case low < 0:
		return fmt.Sprintf("Invalid task id, %d < 0", low)
	case high >= v.ntasks && ((v.set && !v.grown) || high >= multiProgMaxTasks):
		return fmt.Sprintf("Invalid task id, %d >= ntasks", high)
	case high >= v.ntasks:
		v.ntasks, v.set, v.grown = high+1, true, true
		v.covered = append(v.covered, make([]bool, v.ntasks-len(v.covered))...)
	}
	for t := low; t <= high; t++ {
		if v.covered[t] && !dupOK {
			return fmt.Sprintf("Duplicate record for task %d", t)
		}
		v.covered[t] = true
	}
	return ""
}

// digits is the length of s's leading run of decimal digits.
func digits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// atoi reads a leading optional sign and digits as C's atoi does;
// values past the int range saturate.
func atoi(s string) int {
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg, s = s[0] == '-', s[1:]
	}
	n, err := strconv.Atoi(s[:digits(s)])
	if err != nil && s[:digits(s)] != "" {
		n = multiProgMaxTasks * 2 // out of range either way
	}
	if neg {
		return -n
	}
	return n
}
