package command

import (
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// jobColumns indexes jobCols and longOnlyCols for format parsing.
type jobColumns struct {
	all     []*jobCol
	letters [256]int
	names   map[string]int
}

var squeueColumns = func() *jobColumns {
	c := &jobColumns{names: map[string]int{}}
	for i := range c.letters {
		c.letters[i] = -1
	}
	add := func(col *jobCol) {
		k := len(c.all)
		c.all = append(c.all, col)
		if col.letter != 0 {
			c.letters[col.letter] = k
		}
		for _, n := range col.names {
			c.names[n] = k
		}
	}
	for i := range jobCols {
		add(&jobCols[i])
	}
	for i := range longOnlyCols {
		add(&longOnlyCols[i])
	}
	return c
}()

func (c *jobColumns) letter(ch byte) (int, bool) {
	k := c.letters[ch]
	return k, k >= 0
}

// long matches -O names; like Slurm, any name starting "numtask" is
// numtasks.
func (c *jobColumns) long(name string) (int, bool) {
	if strings.HasPrefix(name, "numtask") {
		name = "numtasks"
	}
	k, ok := c.names[name]
	return k, ok
}

// jobPrinter prints job lines for one parsed format.
type jobPrinter struct {
	items   []item
	now     int64
	tf      timeFormat
	tasks   taskListFormat // SLURM_BITSTR_LEN
	cluster string
	scratch []byte
	// noconvert (--noconvert) prints sizes in their own unit (MB), as
	// Slurm's CONVERT_NUM_UNIT_NO.
	noconvert bool
	// bad are the format's invalid specifications, reported once the
	// jobs have loaded, as Slurm's squeue parses its format only then.
	bad []string
}

// fields returns the job table fields the format reads.
func (p *jobPrinter) fields(extra ...string) []string {
	seen := map[string]bool{}
	var out []string
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	for _, it := range p.items {
		if it.field >= 0 {
			for _, f := range squeueColumns.all[it.field].need {
				add(f)
			}
		}
	}
	for _, f := range extra {
		add(f)
	}
	return out
}

func (p *jobPrinter) usesColumn(name string) bool {
	k := squeueColumns.names[name]
	for _, it := range p.items {
		if it.field == k {
			return true
		}
	}
	return false
}

// header appends the header line.
func (p *jobPrinter) header(b []byte) []byte {
	for _, it := range p.items {
		if it.field >= 0 {
			col := squeueColumns.all[it.field]
			b = pad(b, col.header, it.width, it.right, !col.hdrNoCut)
		}
		b = append(b, it.suffix...)
	}
	return append(b, '\n')
}

// row appends one job's line.
func (p *jobPrinter) row(b []byte, j *api.Job) []byte {
	for _, it := range p.items {
		if it.field >= 0 {
			col := squeueColumns.all[it.field]
			p.scratch = col.val(p.scratch[:0], j, p)
			if isNullCut(p.scratch, it) {
				b = spaces(b, it.width)
			} else {
				b = padBytes(b, p.scratch, it.width, it.right, col.cuts(j))
			}
		}
		b = append(b, it.suffix...)
	}
	return append(b, '\n')
}

// cuts reports whether a right-justified value is cut to its width: not
// for times and node lists, nor for %R when it shows nodes (a reason is
// cut).
func (col *jobCol) cuts(j *api.Job) bool {
	if col.reasonOrNodes {
		return showsReason(j.JobState)
	}
	return !col.nocut
}

// isNullCut reports whether a value is a NULL string (printed "(null)")
// in a left-justified field narrower than "(null)": glibc's printf
// prints nothing for a NULL "%-3.3s", so Slurm's field is all blanks.
func isNullCut(v []byte, it item) bool {
	return !it.right && it.width > 0 && it.width < len("(null)") && string(v) == "(null)"
}

// timeUsed is Slurm's job_time_used: nothing while pending, up to now
// while running, up to the end once ended.
func (p *jobPrinter) timeUsed(j *api.Job) int64 {
	switch {
	case j.StartTime == 0 || j.JobState == job.Pending:
		return 0
	case j.JobState == job.Suspended:
		return j.SecsPreSuspend // the clock stands still while suspended
	}
	end := j.EndTime
	if j.JobState == job.Running || j.JobState == job.Configuring || end == 0 {
		end = p.now
	}
	return max(end-j.StartTime-j.SuspendedSecs, 0)
}

func endTimeCol(b []byte, j *api.Job, p *jobPrinter) []byte {
	if j.TimeLimit == api.UnlimitedSeconds && j.EndTime > p.now {
		return append(b, "NONE"...)
	}
	return p.tf.appendTime(b, j.EndTime, "N/A")
}

func timeLimitCol(b []byte, j *api.Job, _ *jobPrinter) []byte {
	switch j.TimeLimit {
	case api.UnlimitedSeconds:
		return append(b, "UNLIMITED"...)
	case 0:
		return append(b, "NOT_SET"...)
	}
	return appendSecs(b, j.TimeLimit)
}

func timeLeftCol(b []byte, j *api.Job, p *jobPrinter) []byte {
	switch j.TimeLimit {
	case api.UnlimitedSeconds:
		return append(b, "UNLIMITED"...)
	case 0:
		return append(b, "NOT_SET"...)
	}
	return appendSecs(b, j.TimeLimit-p.timeUsed(j))
}

func priorityCol(b []byte, j *api.Job, _ *jobPrinter) []byte {
	v := float64(uint32(j.Priority)) / float64(uint32(0xffffffff))
	s := strconv.FormatFloat(v, 'f', 14, 64)
	return append(spaces(b, 16-len(s)), s...)
}

// maxIDLen is what Slurm's 32-byte buffer keeps of a formatted job id.
const maxIDLen = 31

func capID(b []byte, start int) []byte {
	if len(b)-start > maxIDLen {
		return b[:start+maxIDLen]
	}
	return b
}

// taskString is the task list with its throttle, "2-5%2".
func taskString(j *api.Job) string {
	if j.ArrayMaxTasks > 0 && !strings.Contains(j.ArrayTaskString, "%") {
		return j.ArrayTaskString + "%" + strconv.Itoa(j.ArrayMaxTasks)
	}
	return j.ArrayTaskString
}

func arrayJobID(j *api.Job) uint32 {
	if j.ArrayJobID != 0 {
		return j.ArrayJobID
	}
	return j.JobID
}

func jobIDCol(b []byte, j *api.Job, p *jobPrinter) []byte {
	start := len(b)
	var tasks taskListFormat
	if p != nil {
		tasks = p.tasks
	}
	switch {
	case j.ArrayTaskString != "":
		b = strconv.AppendUint(b, uint64(arrayJobID(j)), 10)
		b = append(b, "_["...)
		b = append(b, tasks.cut(taskString(j))...)
		b = append(b, ']')
		if !tasks.capsIDs() {
			return b
		}
	case j.ArrayTaskID != nil:
		b = strconv.AppendUint(b, uint64(arrayJobID(j)), 10)
		b = append(b, '_')
		b = strconv.AppendInt(b, int64(*j.ArrayTaskID), 10)
	default:
		b = strconv.AppendUint(b, uint64(j.JobID), 10)
	}
	return capID(b, start)
}

func arrayJobIDCol(b []byte, j *api.Job, _ *jobPrinter) []byte {
	if j.ArrayTaskString != "" || j.ArrayTaskID != nil {
		return strconv.AppendUint(b, uint64(arrayJobID(j)), 10)
	}
	return strconv.AppendUint(b, uint64(j.JobID), 10)
}

func arrayTaskIDCol(b []byte, j *api.Job, p *jobPrinter) []byte {
	switch {
	case j.ArrayTaskString != "":
		return append(b, p.tasks.cut(taskString(j))...)
	case j.ArrayTaskID != nil:
		return strconv.AppendInt(b, int64(*j.ArrayTaskID), 10)
	}
	return append(b, "N/A"...)
}

// showsReason reports whether %R shows a reason rather than nodes.
func showsReason(s job.State) bool {
	switch s {
	case job.Pending, job.StageOut, job.Timeout, job.OutOfMemory, job.Deadline, job.Failed, job.ResvDelHold:
		return true
	}
	return false
}

func reasonListCol(b []byte, j *api.Job, _ *jobPrinter) []byte {
	if showsReason(j.JobState) {
		b = append(b, '(')
		b = append(b, reasonText(j)...)
		return append(b, ')')
	}
	return append(b, j.Nodes...)
}
