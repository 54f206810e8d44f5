package command

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmdata"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// sacct's field lists.
const (
	acctDefault = "jobid,jobname,partition,account,alloccpus,state,exitcode"
	acctBrief   = "jobid,state,exitcode"
	acctLong    = "jobid,jobidraw,jobname,partition,maxvmsize,maxvmsizenode,maxvmsizetask,avevmsize,maxrss,maxrssnode,maxrsstask,averss,maxpages,maxpagesnode,maxpagestask,avepages,mincpu,mincpunode,mincputask,avecpu,ntasks,alloccpus,elapsed,state,exitcode,avecpufreq,reqcpufreqmin,reqcpufreqmax,reqcpufreqgov,reqmem,consumedenergy,maxdiskread,maxdiskreadnode,maxdiskreadtask,avediskread,maxdiskwrite,maxdiskwritenode,maxdiskwritetask,avediskwrite,reqtres,alloctres,tresusageinave,tresusageinmax,tresusageinmaxn,tresusageinmaxt,tresusageinmin,tresusageinminn,tresusageinmint,tresusageintot,tresusageoutmax,tresusageoutmaxn,tresusageoutmaxt,tresusageoutave,tresusageouttot"
)

// acctPrinter prints sacct lines.
type acctPrinter struct {
	fields    []acctField
	parsable  int // 0, 1 (-p: delimiter after every field), 2 (-P: between)
	delim     string
	tf        timeFormat
	users     Users
	cluster   string
	units     int  // --units: unitKilo..unitPeta; 0 when not given
	noconvert bool // --noconvert
	now       int64
	window    acctWindow // -T (sacct_trunc.go)
}

type acctField struct {
	col   int
	width int
}

// Sacct runs sacct with args and returns its exit status. It reads the
// controller's job history (finished jobs) and its live jobs.
func Sacct(ctx context.Context, env *Env, args []string) int {
	w := newOutput(env, "sacct")
	opts, operands, err := getopt(env.prog("sacct"), args, sacctOpts)
	if err != nil {
		w.lines(err.(*usageError).lines)
		return w.exit(1)
	}
	now := env.Now()
	q := &api.AcctQuery{}
	pr := &acctPrinter{delim: "|", tf: newTimeFormat(env, now), users: env.Users, now: now.Unix()}
	rq := &sacctRequest{header: true}
	for _, o := range opts {
		if code, done := sacctOption(w, env, o, now, q, pr, rq); done {
			return w.exit(code)
		}
	}
	if rq.long && len(rq.formats) > 0 {
		w.raw("sacct: fatal: Options -o(--format) and -l(--long) are mutually exclusive. Please remove one and retry.\n")
		return w.exit(1)
	}
	if code := pr.parseFormat(w, sacctFormat(env, rq)); code != 0 {
		return w.exit(code)
	}
	if len(operands) > 0 {
		w.errf("Unknown arguments:")
		for _, o := range operands {
			w.errf(" %s", o)
		}
		return w.exit(1)
	}
	acctDefaults(env, q, now, rq)
	if q.StartTime > q.EndTime {
		w.errf("Start time (%s) requested is after end time (%s).",
			pr.tf.appendTime(nil, q.StartTime, "Unknown"), pr.tf.appendTime(nil, q.EndTime, "Unknown"))
		return w.exit(1)
	}
	pr.window.start, pr.window.end = q.StartTime, min(q.EndTime, now.Unix())
	c, err := env.Dial(ctx)
	if err != nil {
		w.errf("%s", errText(err))
		return w.exit(1)
	}
	if rq.qosSet {
		var msg string
		if rq.qos, msg = sacctQOS(rq.qosArg); msg != "" {
			w.raw(msg)
			return w.exit(1)
		}
	}
	resp, err := c.Accounting(ctx, q)
	if err != nil {
		w.errf("Problem talking to the database: %s", errText(err))
		return w.exit(1)
	}
	if pr.uses("Cluster") || rq.json {
		if cfg, err := c.Config(ctx); err == nil {
			pr.cluster = cfg.ClusterName
		}
	}
	if rq.json {
		jsonJobOrder(resp.Jobs)
		w.buf = append(w.buf, slurmdata.JSON(toData(pr.jsonDoc(resp.Jobs, q, rq)))...)
		return w.exit(0)
	}
	w.buf = pr.print(w.buf, resp.Jobs, q, rq)
	return w.exit(0)
}

// print writes the header and every selected job with its steps.
func (pr *acctPrinter) print(b []byte, jobs []api.AcctJob, q *api.AcctQuery, rq *sacctRequest) []byte {
	if rq.header {
		b = pr.header(b)
	}
	for i := range jobs {
		j := pr.window.cut(&jobs[i])
		if !rq.selects(j) {
			continue
		}
		jobLine, steps := stepsShown(rq.sels, j) // sacct_steps.go
		if jobLine || q.AllocationsOnly {
			b = pr.row(b, acctRow{j: j})
		}
		if q.AllocationsOnly {
			continue
		}
		for k := range j.Steps {
			if steps == nil || steps[j.Steps[k].StepID] {
				b = pr.row(b, acctRow{j: j, step: &j.Steps[k]})
			}
		}
	}
	return b
}

// selects applies the filters sacct applies itself: -q, -k/-K and -C.
func (rq *sacctRequest) selects(j *api.AcctJob) bool {
	return rq.qosMatches(j.QOS) && rq.timeLimitMatches(j) && constraintsMatch(rq.constraints, j) &&
		(rq.gids == nil || slices.Contains(rq.gids, j.GroupID))
}

// qosMatches is -q: Slurm's accounting looks the names up without case
// and compares ids; "" (from an empty -q) selects the jobs without one.
func (rq *sacctRequest) qosMatches(qos string) bool {
	return rq.qos == nil || slices.ContainsFunc(rq.qos, func(q string) bool { return strings.EqualFold(q, qos) })
}

// timeLimitMatches is -k/-K: with both, a limit between them; with -k
// alone, exactly that limit (as Slurm's accounting query compares).
func (rq *sacctRequest) timeLimitMatches(j *api.AcctJob) bool {
	if rq.tlMin == 0 {
		return true
	}
	mins := j.TimeLimit / 60
	if rq.tlMax == 0 {
		return mins == rq.tlMin
	}
	return mins >= rq.tlMin && mins <= rq.tlMax
}

// sacctFormat is the field list: every -o list in order, then -b's and
// -l's fields; without any, SACCT_FORMAT or the default.
func sacctFormat(env *Env, rq *sacctRequest) string {
	list := slices.Clone(rq.formats)
	if rq.brief {
		list = append(list, acctBrief)
	}
	if rq.long {
		list = append(list, acctLong)
	}
	if len(list) > 0 {
		return strings.Join(list, ",")
	}
	if f, ok := env.Getenv("SACCT_FORMAT"); ok {
		return f
	}
	return acctDefault
}

// acctTime parses -S/-E as sacct does (Slurm's time forms).
// timeSpecError is the line Slurm's time parser prints for a value it
// cannot read, where it gave up ("Invalid time specification (pos=3):
// now+x"); sacct prints nothing else before it exits.
func timeSpecError(s string) string {
	pos, ok := slurmtime.DiagnosticPos(s)
	if !ok {
		return "Invalid time specification: " + s + "\n"
	}
	return "Invalid time specification (pos=" + strconv.Itoa(pos) + "): " + s + "\n"
}

func acctTime(s string, now time.Time) (int64, error) {
	t, err := slurmtime.ParseTime(s, now)
	if err != nil {
		return 0, err
	}
	return t.Unix(), nil
}

// parseFormat reads a --format list as sacct does: fields by
// unambiguous-prefix name ("a", "al" and "all" are every field), each
// optionally "%width". A width is the field's own, not the entry's: a
// field listed twice prints at the last width given for it.
func (pr *acctPrinter) parseFormat(w *output, format string) int {
	widths := map[int]int{}
	for _, tok := range strtok(format, ",") {
		tok = strings.TrimLeft(tok, " \t\n\v\f\r")
		name, width, hasWidth := strings.Cut(tok, "%")
		if name == "" && !hasWidth {
			continue
		}
		n, _ := strtol(width)
		if len(name) <= 3 && strings.EqualFold(name, "ALL"[:len(name)]) {
			for k := range acctCols {
				pr.fields = append(pr.fields, acctField{col: k})
				if hasWidth {
					widths[k] = n
				}
			}
			continue
		}
		k, ok := findAcctCol(name)
		if !ok {
			w.errf("Invalid field requested: \"%s\"", name)
			return 1
		}
		pr.fields = append(pr.fields, acctField{col: k})
		if hasWidth {
			widths[k] = n
		}
	}
	for i := range pr.fields {
		f := &pr.fields[i]
		f.width = acctCols[f.col].width
		if n, ok := widths[f.col]; ok {
			f.width = n
		}
	}
	return 0
}

func pick(has bool, v, def int) int {
	if has {
		return v
	}
	return def
}

func (pr *acctPrinter) uses(name string) bool {
	return slices.ContainsFunc(pr.fields, func(f acctField) bool { return acctCols[f.col].name == name })
}

// How a cell too wide for its field prints: strings are cut with a "+"
// marking the cut (print_fields_str); names and dates are cut short
// (printf's precision, a time buffer of the field's size); numbers and
// durations overflow the field (print_fields_uint and _time_from_secs).
const (
	cutPlus = iota
	cutPlain
	noCut
)

// header prints field names and, unless parsable, the dash line.
func (pr *acctPrinter) header(b []byte) []byte {
	for i, f := range pr.fields {
		name := acctCols[f.col].name
		b = pr.cellCut(b, name, f.width, i == len(pr.fields)-1, true, cutPlain)
	}
	b = append(b, '\n')
	if pr.parsable > 0 {
		return b
	}
	for _, f := range pr.fields {
		b = append(b, strings.Repeat("-", abs(f.width))...)
		b = append(b, ' ')
	}
	return append(b, '\n')
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// row prints one job or step.
func (pr *acctPrinter) row(b []byte, r acctRow) []byte {
	for i, f := range pr.fields {
		c := &acctCols[f.col]
		v, set := "", false
		if c.val != nil {
			v = c.val(r, pr)
			set = v != ""
		}
		cut := acctCut(c.name)
		if cut == cutPlain && len(v) > abs(f.width) {
			// Slurm formats a date into a buffer of the field's size,
			// parsable output included.
			v = v[:abs(f.width)]
		}
		b = pr.cellCut(b, v, f.width, i == len(pr.fields)-1, set, cut)
	}
	return append(b, '\n')
}

// acctCut is how field name's values are cut (Slurm's print routine for
// it).
func acctCut(name string) int {
	switch name {
	case "Eligible", "End", "Start", "Submit":
		return cutPlain
	case "AllocCPUS", "AssocID", "ConsumedEnergyRaw", "CPUTime", "CPUTimeRAW", "DBIndex", "Elapsed",
		"ElapsedRaw", "GID", "MaxDiskReadTask", "MaxDiskWriteTask", "MaxPagesTask", "MaxRSSTask",
		"MaxVMSizeTask", "MinCPUTask", "NCPUS", "NNodes", "NTasks", "Priority", "QOSRAW", "ReqCPUS",
		"ReservationId", "Reserved", "ResvCPU", "ResvCPURAW", "Suspended", "UID", "WCKeyID":
		return noCut
	}
	return cutPlus
}

// cell prints one value as Slurm's print_fields does: parsable with its
// delimiter; otherwise cut to the width as cut says, right-justified for
// a positive width, left for a negative one, then a blank.
func (pr *acctPrinter) cellCut(b []byte, v string, width int, last, set bool, cut int) []byte {
	switch {
	case pr.parsable == 2 && last:
		return append(b, v...)
	case pr.parsable > 0:
		return append(append(b, v...), pr.delim...)
	}
	w := abs(width)
	if !set {
		v = " "
		cut = cutPlain
	}
	if len(v) > w {
		switch cut {
		case cutPlus:
			v = v[:max(w-1, 0)] + "+"
			v = v[:w]
		case cutPlain:
			v = v[:w]
		}
	}
	if width < 0 {
		b = append(b, v...)
		b = spaces(b, w-len(v))
	} else {
		b = spaces(b, w-len(v))
		b = append(b, v...)
	}
	return append(b, ' ')
}

// cell prints a string cell as sstat prints it: a "+" marks a cut, and a
// field of width 0 is not cut.
func (pr *acctPrinter) cell(b []byte, v string, width int, last, set bool) []byte {
	if width == 0 && pr.parsable == 0 {
		if !set {
			v = " "
		}
		return pr.cellCut(b, v, width, last, true, noCut)
	}
	return pr.cellCut(b, v, width, last, set, cutPlus)
}

// acctFieldHelp lists the field names as sacct -e does, four per line.
func acctFieldHelp() string {
	var b strings.Builder
	for i, c := range acctCols {
		// Every name is padded to 19, the line's last one too.
		b.WriteString(c.name)
		b.WriteString(strings.Repeat(" ", max(0, 19-len(c.name))))
		if (i+1)%4 == 0 || i == len(acctCols)-1 {
			b.WriteByte('\n')
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}
