package api

import (
	"strconv"
	"strings"
)

// NoArrayTask is what %a prints for a job that is not an array task
// (Slurm's NO_VAL - 1).
const NoArrayTask = 4294967294

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
// name as slurmd does: %% %A %a %J %j %N %n %s %t %u %x, each optionally
// with a zero-padding width ("%5j" gives 00017). An unknown pattern is kept
// as written.
func ExpandStdio(pattern string, v StdioVars) string {
	if !strings.Contains(pattern, "%") {
		return pattern
	}
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		if c != '%' || i+1 >= len(pattern) {
			b.WriteByte(c)
			continue
		}
		j := i + 1
		for j < len(pattern) && pattern[j] >= '0' && pattern[j] <= '9' {
			j++
		}
		if j >= len(pattern) {
			b.WriteString(pattern[i:])
			break
		}
		width, _ := strconv.Atoi(pattern[i+1 : j])
		s, ok := v.expand(pattern[j])
		switch {
		case !ok:
			b.WriteString(pattern[i : j+1])
		case pattern[j] == '%':
			b.WriteByte('%')
		default:
			b.WriteString(zeroPad(s, width))
		}
		i = j
	}
	return b.String()
}

func (v StdioVars) expand(c byte) (string, bool) {
	u := func(n uint32) string { return strconv.FormatUint(uint64(n), 10) }
	switch c {
	case '%':
		return "%", true
	case 'A':
		if v.ArrayJobID == 0 {
			return u(v.JobID), true
		}
		return u(v.ArrayJobID), true
	case 'a':
		if v.ArrayTaskID == nil {
			return strconv.Itoa(NoArrayTask), true
		}
		return strconv.Itoa(*v.ArrayTaskID), true
	case 'j':
		return u(v.JobID), true
	case 'J':
		if v.Step == "" {
			return u(v.JobID), true
		}
		return u(v.JobID) + "." + v.Step, true
	case 'N':
		return v.Host, true
	case 'n':
		return strconv.Itoa(v.NodeID), true
	case 't':
		return strconv.Itoa(v.TaskID), true
	case 's':
		return v.Step, true
	case 'u':
		return v.User, true
	case 'x':
		return v.JobName, true
	}
	return "", false
}

// zeroPad pads numeric values to width with zeros; Slurm pads only numbers.
func zeroPad(s string, width int) string {
	if width <= len(s) || s == "" {
		return s
	}
	if _, err := strconv.ParseUint(s, 10, 64); err != nil {
		return s
	}
	return strings.Repeat("0", width-len(s)) + s
}
