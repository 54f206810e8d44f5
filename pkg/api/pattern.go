package api

import (
	"strconv"
	"strings"
)

// NoArrayTask is what %a prints for a job that is not an array task
// (Slurm's NO_VAL - 1).
const NoArrayTask = 4294967294

// Default output file names of a batch job submitted without -o, as
// Slurm's: the controller stores them, the node daemon expands them.
const (
	DefaultOutput      = "slurm-%j.out"
	DefaultArrayOutput = "slurm-%A_%a.out"
)

// StdioVars are the values Slurm's output file name patterns expand to.
type StdioVars struct {
	JobID       uint32
	ArrayJobID  uint32 // 0: not an array task (%A prints JobID)
	ArrayTaskID *int   // nil: %a prints NoArrayTask
	User        string
	JobName     string
	// Host is the batch host's host name (%N), NodeID the node's index in
	// the job (%n), TaskID the task (%t), Step the step name (%s).
	Host   string
	NodeID int
	TaskID int
	Step   string
}

// ExpandStdio expands the patterns of an --output/--error/--input file
// name as Slurm 22.05's slurmd does (its rules were recorded from the
// peer cluster; noded/fname's golden test keeps them):
//
//	%%  a percent sign          %j  job id          %J  job id[.step]
//	%A  array job id (%j when   %a  array task id (NoArrayTask when
//	    not an array)               not an array)
//	%N  batch host's host name  %n  node index      %t  task index
//	%s  step ("batch")          %u  user name       %x  job name
//
// A width between '%' and the letter zero-pads numbers ("%5j" is 00017),
// capped at 10 digits; names are never padded. An unknown letter keeps its
// '%' ("%q" stays "%q"), but after a width the '%' is dropped ("%3q" is
// "3q", "%4%" is "4%", a final "%2" is "2"). A pattern with a backslash
// anywhere is not expanded at all; its escaping backslashes are removed
// ("\%j" is "%j", "\\" is "\"). The node daemon (which names the
// files) and scontrol's StdOut= both use it.
func ExpandStdio(pattern string, v StdioVars) string {
	if strings.Contains(pattern, `\`) {
		return unescapePattern(pattern)
	}
	if !strings.Contains(pattern, "%") {
		return pattern
	}
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		if pattern[i] != '%' || i+1 == len(pattern) {
			b.WriteByte(pattern[i])
			continue
		}
		i = v.field(&b, pattern, i+1)
	}
	return b.String()
}

// maxPatternWidth caps the zero padding, as slurmd does.
const maxPatternWidth = 10

// field writes the expansion of the field whose text starts at pattern[j]
// (just after a '%') and returns the index of its last byte.
func (v StdioVars) field(b *strings.Builder, pattern string, j int) int {
	k := j
	for k < len(pattern) && pattern[k] >= '0' && pattern[k] <= '9' {
		k++
	}
	digits := pattern[j:k]
	if k == len(pattern) { // "%2" at the end: the digits alone
		b.WriteString(digits)
		return k - 1
	}
	c := pattern[k]
	if c == '%' && digits == "" {
		b.WriteByte('%')
		return k
	}
	val, numeric, ok := v.value(c)
	switch {
	case !ok && digits == "":
		b.WriteByte('%')
		b.WriteByte(c)
	case !ok:
		b.WriteString(digits)
		b.WriteByte(c)
	case numeric && digits != "":
		width, _ := strconv.Atoi(digits)
		b.WriteString(zeroPad(val, min(width, maxPatternWidth)))
	default:
		b.WriteString(val)
	}
	return k
}

// value returns the expansion of letter c and whether it is a number.
func (v StdioVars) value(c byte) (val string, numeric, ok bool) {
	u := func(n uint32) string { return strconv.FormatUint(uint64(n), 10) }
	switch c {
	case 'j':
		return u(v.JobID), true, true
	case 'J':
		if v.Step == "" || v.Step == "batch" {
			return u(v.JobID), true, true
		}
		return u(v.JobID) + "." + v.Step, false, true
	case 'A':
		if v.ArrayTaskID == nil {
			return u(v.JobID), true, true
		}
		return u(v.ArrayJobID), true, true
	case 'a':
		if v.ArrayTaskID == nil {
			return strconv.Itoa(NoArrayTask), true, true
		}
		return strconv.Itoa(*v.ArrayTaskID), true, true
	case 'n':
		return strconv.Itoa(v.NodeID), true, true
	case 't':
		return strconv.Itoa(v.TaskID), true, true
	case 'N':
		return v.Host, false, true
	case 's':
		return v.Step, false, true
	case 'u':
		return v.User, false, true
	case 'x':
		return v.JobName, false, true
	}
	return "", false, false
}

func zeroPad(s string, width int) string {
	if len(s) >= width {
		return s
	}
	return strings.Repeat("0", width-len(s)) + s
}

// unescapePattern removes escaping backslashes: "\\" becomes "\", "\x"
// becomes "x".
func unescapePattern(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' {
			if i+1 < len(s) && s[i+1] == '\\' {
				b.WriteByte('\\')
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
