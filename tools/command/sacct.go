package command

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// sacct's field lists.
const (
	acctDefault = "jobid,jobname,partition,account,alloccpus,state,exitcode"
	acctBrief   = "jobid,state,exitcode"
	acctLong    = "jobid,jobidraw,jobname,partition,maxvmsize,maxvmsizenode,maxvmsizetask,avevmsize,maxrss,maxrssnode,maxrsstask,averss,maxpages,maxpagesnode,maxpagestask,avepages,mincpu,mincpunode,mincputask,avecpu,ntasks,alloccpus,elapsed,state,exitcode,avecpufreq,reqcpufreqmin,reqcpufreqmax,reqcpufreqgov,reqmem,consumedenergy,maxdiskread,maxdiskreadnode,maxdiskreadtask,avediskread,maxdiskwrite,maxdiskwritenode,maxdiskwritetask,avediskwrite,reqtres,alloctres,tresusageinave,tresusageinmax,tresusageinmaxn,tresusageinmaxt,tresusageinmin,tresusageinminn,tresusageinmint,tresusageintot,tresusageoutmax,tresusageoutmaxn,tresusageoutmaxt,tresusageoutave,tresusageouttot"
)

var sacctOpts = []optSpec{
	{long: "allusers", short: 'a'},
	{long: "accounts", short: 'A', arg: requiredArg},
	{long: "allocations", short: 'X'},
	{long: "brief", short: 'b'},
	{long: "delimiter", arg: requiredArg},
	{long: "duplicates", short: 'D'},
	{long: "helpformat", short: 'e'},
	{long: "help-fields", short: 'e'},
	{long: "endtime", short: 'E', arg: requiredArg},
	{long: "help", short: 'h'},
	{long: "name", arg: requiredArg},
	{long: "jobs", short: 'j', arg: requiredArg},
	{long: "long", short: 'l'},
	{long: "cluster", short: 'M', arg: requiredArg},
	{long: "clusters", short: 'M', arg: requiredArg},
	{long: "nodelist", short: 'N', arg: requiredArg},
	{long: "noconvert"},
	{long: "noheader", short: 'n'},
	{long: "fields", short: 'o', arg: requiredArg},
	{long: "format", short: 'o', arg: requiredArg},
	{long: "parsable", short: 'p'},
	{long: "parsable2", short: 'P'},
	{long: "qos", short: 'q', arg: requiredArg},
	{long: "partition", short: 'r', arg: requiredArg},
	{long: "state", short: 's', arg: requiredArg},
	{long: "starttime", short: 'S', arg: requiredArg},
	{long: "truncate", short: 'T'},
	{long: "uid", short: 'u', arg: requiredArg},
	{long: "user", short: 'u', arg: requiredArg},
	{long: "usage", short: 'U'},
	{long: "verbose", short: 'v'},
	{long: "version", short: 'V'},
	{long: "json"},
	{long: "yaml"},
}

// acctPrinter prints sacct lines.
type acctPrinter struct {
	fields   []acctField
	parsable int // 0, 1 (-p: delimiter after every field), 2 (-P: between)
	delim    string
	tf       timeFormat
	users    Users
	cluster  string
}

type acctField struct {
	col   int
	width int
}

// Sacct runs sacct with args and returns its exit status. It reads the
// controller's job history (finished jobs) and its live jobs.
func Sacct(ctx context.Context, env *Env, args []string) int {
	w := newOutput(env, "sacct")
	opts, operands, err := getopt("sacct", args, sacctOpts)
	if err != nil {
		w.lines(err.(*usageError).lines)
		return w.exit(1)
	}
	if len(operands) > 0 {
		w.errf("Unknown arguments:")
		for _, o := range operands {
			w.errf(" %s", o)
		}
		return w.exit(1)
	}
	now := env.Now()
	q := &api.AcctQuery{}
	pr := &acctPrinter{delim: "|", tf: newTimeFormat(env, now), users: env.Users}
	format, header, allUsers, qos := acctDefault, true, false, []string(nil)
	var startSet, endSet bool
	for _, o := range opts {
		switch o.id {
		case "a":
			allUsers = true
		case "A":
			q.Accounts = strtok(o.val, ",")
		case "X":
			q.AllocationsOnly = true
		case "b":
			format = acctBrief
		case "l":
			format = acctLong
		case "o":
			format = o.val
		case "delimiter":
			pr.delim = o.val
		case "e":
			w.printf("%s", acctFieldHelp())
			return w.exit(0)
		case "h", "U":
			w.printf("%s", sacctHelp)
			return w.exit(0)
		case "V":
			w.printf("%s\n", versionLine)
			return w.exit(0)
		case "name":
			q.Names = strtok(o.val, ",")
		case "j":
			q.JobIDs = strtok(o.val, ",")
		case "N":
			q.Nodes = []string{o.val}
		case "n":
			header = false
		case "p":
			pr.parsable = 1
		case "P":
			pr.parsable = 2
		case "q":
			qos = strtok(o.val, ",")
		case "r":
			q.Partitions = strtok(o.val, ",")
		case "s":
			q.States = strtok(o.val, ",")
		case "S", "E":
			t, err := acctTime(o.val, now)
			if err != nil {
				w.raw(timeSpecError(o.val))
				return w.exit(1)
			}
			if o.id == "S" {
				q.StartTime, startSet = t, true
			} else {
				q.EndTime, endSet = t, true
			}
		case "u":
			for _, u := range strtok(o.val, ",") {
				uid, ok := env.Users.UID(u)
				if !ok {
					w.errf("Invalid user id: %s", u)
					return w.exit(1)
				}
				q.Users = append(q.Users, strconv.FormatUint(uint64(uid), 10))
			}
		case "json", "yaml":
			w.errf("--%s is not supported", o.id)
			return w.exit(1)
		}
	}
	if code := pr.parseFormat(w, format); code != 0 {
		return w.exit(code)
	}
	acctDefaults(env, q, now, allUsers, startSet, endSet)
	c, err := env.Dial(ctx)
	if err != nil {
		w.errf("%s", errText(err))
		return w.exit(1)
	}
	resp, err := c.Accounting(ctx, q)
	if err != nil {
		w.errf("Problem talking to the database: %s", errText(err))
		return w.exit(1)
	}
	if pr.uses("Cluster") {
		if cfg, err := c.Config(ctx); err == nil {
			pr.cluster = cfg.ClusterName
		}
	}
	b := w.buf
	if header {
		b = pr.header(b)
	}
	for i := range resp.Jobs {
		j := &resp.Jobs[i]
		if qos != nil && !containsFold(qos, j.QOS) {
			continue
		}
		b = pr.row(b, acctRow{j: j})
		if q.AllocationsOnly {
			continue
		}
		for k := range j.Steps {
			b = pr.row(b, acctRow{j: j, step: &j.Steps[k]})
		}
	}
	w.buf = b
	return w.exit(0)
}

// acctDefaults applies sacct's defaults: only the caller's jobs unless -a,
// -u or -j; from midnight today unless -S, -j or -s; up to now.
func acctDefaults(env *Env, q *api.AcctQuery, now time.Time, all, startSet, endSet bool) {
	if !all && q.Users == nil && q.JobIDs == nil {
		q.Users = []string{strconv.FormatUint(uint64(env.UID), 10)}
	}
	if !startSet && q.JobIDs == nil && q.States == nil {
		y, m, d := now.Date()
		q.StartTime = time.Date(y, m, d, 0, 0, 0, 0, now.Location()).Unix()
	}
	if !endSet {
		q.EndTime = now.Unix()
	}
	if q.Nodes != nil {
		if names, err := hostlist.Expand(q.Nodes[0]); err == nil {
			q.Nodes = names
		}
	}
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

// parseFormat reads a --format list: fields by unambiguous-prefix name,
// each optionally "%width".
func (pr *acctPrinter) parseFormat(w *output, format string) int {
	for _, tok := range strtok(format, ",") {
		tok = strings.TrimSpace(tok)
		name, width, hasWidth := strings.Cut(tok, "%")
		if name == "" {
			continue
		}
		n, _ := strtol(width)
		if strings.EqualFold(name, "ALL") {
			for k, c := range acctCols {
				pr.fields = append(pr.fields, acctField{col: k, width: pick(hasWidth, n, c.width)})
			}
			continue
		}
		k, ok := findAcctCol(name)
		if !ok {
			w.errf("Invalid field requested: \"%s\"", name)
			return 1
		}
		pr.fields = append(pr.fields, acctField{col: k, width: pick(hasWidth, n, acctCols[k].width)})
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

// header prints field names and, unless parsable, the dash line.
func (pr *acctPrinter) header(b []byte) []byte {
	for i, f := range pr.fields {
		name := acctCols[f.col].name
		b = pr.cell(b, name, f.width, i == len(pr.fields)-1, true)
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
		b = pr.cell(b, v, f.width, i == len(pr.fields)-1, set)
	}
	return append(b, '\n')
}

// cell prints one value as print_fields_str does: parsable with its
// delimiter; otherwise cut to the width with a "+" marking the cut, right-
// justified for a positive width, left for a negative one, then a blank.
func (pr *acctPrinter) cell(b []byte, v string, width int, last, set bool) []byte {
	switch {
	case pr.parsable == 2 && last:
		return append(b, v...)
	case pr.parsable > 0:
		return append(append(b, v...), pr.delim...)
	}
	w := abs(width)
	if !set {
		v = " "
	}
	if len(v) > w && w > 0 {
		v = v[:w-1] + "+"
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

// acctFieldHelp lists the field names as sacct -e does, four per line.
func acctFieldHelp() string {
	var b strings.Builder
	for i, c := range acctCols {
		b.WriteString(c.name)
		if (i+1)%4 == 0 || i == len(acctCols)-1 {
			b.WriteByte('\n')
		} else {
			b.WriteString(strings.Repeat(" ", max(1, 20-len(c.name))))
		}
	}
	return b.String()
}
