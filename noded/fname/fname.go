package fname

import (
	"path/filepath"
	"strconv"
	"strings"
)

// NoArrayTask is what %a prints for a job that is not an array task
// (Slurm's NO_VAL - 1).
const NoArrayTask = 4294967294

// maxWidth caps the zero padding, as slurmd does.
const maxWidth = 10

// Default file names of a batch job's output.
const (
	DefaultOutput      = "slurm-%j.out"
	DefaultArrayOutput = "slurm-%A_%a.out"
)

// Vars are the values patterns expand to.
type Vars struct {
	JobID uint32
	// ArrayJobID is 0 for a job that is not an array task; ArrayTaskID is
	// then nil.
	ArrayJobID  uint32
	ArrayTaskID *int
	User        string
	JobName     string
	// Host is the batch host's host name (not the node name: emulated
	// nodes share one host), NodeID and TaskID the node's and task's
	// indices in the job, Step the step ("batch" for a batch script).
	Host   string
	NodeID int
	TaskID int
	Step   string
}

// Expand expands pattern with v.
func Expand(pattern string, v Vars) string {
	if strings.Contains(pattern, `\`) {
		return unescape(pattern)
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

// field writes the expansion of the field whose text starts at pattern[j]
// (just after a '%') and returns the index of its last byte.
func (v Vars) field(b *strings.Builder, pattern string, j int) int {
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
		b.WriteString(zeroPad(val, min(width, maxWidth)))
	default:
		b.WriteString(val)
	}
	return k
}

// value returns the expansion of letter c and whether it is a number.
func (v Vars) value(c byte) (val string, numeric, ok bool) {
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

// unescape removes escaping backslashes: "\\" becomes "\", "\x" becomes
// "x".
func unescape(s string) string {
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

// Path expands pattern (DefaultOutput or DefaultArrayOutput when empty)
// and makes it absolute against workDir, as slurmd resolves relative
// output names in the job's working directory.
func Path(pattern, workDir string, v Vars) string {
	if pattern == "" {
		pattern = DefaultOutput
		if v.ArrayTaskID != nil {
			pattern = DefaultArrayOutput
		}
	}
	p := Expand(pattern, v)
	if !filepath.IsAbs(p) {
		p = filepath.Join(workDir, p)
	}
	return p
}
