package command

import (
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// shownStdio expands a job's --output, --error or --input pattern as
// Slurm 22.05's scontrol prints it in StdOut=, StdErr= and StdIn=. The
// controller keeps the pattern as written (squeue -O StdOut prints it so);
// scontrol fills in only what it knows from the job record: %A, %a, %j, %u
// and %x. Every other '%' stays as written, widths are not applied ("%5j"
// stays "%5j"), "%%" is not folded and a backslash does not stop the
// expansion: the node names the file with the full rules (api.ExpandStdio).
func shownStdio(pattern string, j *api.Job) string {
	if !strings.Contains(pattern, "%") {
		return pattern
	}
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		if pattern[i] == '%' && i+1 < len(pattern) {
			if v, ok := shownField(pattern[i+1], j); ok {
				b.WriteString(v)
				i++
				continue
			}
		}
		b.WriteByte(pattern[i])
	}
	return b.String()
}

// shownField is the value scontrol prints for the letter after a '%'.
func shownField(c byte, j *api.Job) (string, bool) {
	u := func(n uint32) string { return strconv.FormatUint(uint64(n), 10) }
	switch c {
	case 'A':
		if j.ArrayJobID != 0 {
			return u(j.ArrayJobID), true
		}
		return u(j.JobID), true
	case 'a':
		if j.ArrayTaskID != nil && j.ArrayTaskString == "" {
			return strconv.Itoa(*j.ArrayTaskID), true
		}
		return strconv.Itoa(api.NoArrayTask), true
	case 'j':
		return u(j.JobID), true
	case 'u':
		return j.UserName, true
	case 'x':
		return j.Name, true
	}
	return "", false
}
