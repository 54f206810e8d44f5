package command

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

var sreportOpts = []optSpec{
	{long: "noheader", short: 'n'},
	{long: "parsable", short: 'p'},
	{long: "parsable2", short: 'P'},
	{long: "time", short: 't', arg: requiredArg},
	{long: "tres", short: 'T', arg: requiredArg},
	{long: "cluster", short: 'M', arg: requiredArg},
	{long: "verbose", short: 'v'},
	{long: "quiet", short: 'Q'},
	{long: "version", short: 'V'},
	{long: "help", short: 'h'},
	{long: "usage"},
}

// sreportParams are sreport's options and the report's Key=Value
// arguments.
type sreportParams struct {
	noHeader  bool
	delim     string
	trailing  bool
	unit      string   // -t: minutes (default), hours, seconds, percent, secper, minper, hourper
	tres      []string // -T: cpu (default), gres/gpu
	tresGiven bool     // -T named the TRES: a TRES Name column
	q         api.ReportQuery
	format    string
	topCount  int    // TopCount= of user TopUsage (10)
	rangeSecs bool   // the banner gives the window's length in seconds
	grouping  string // Grouping= of job SizesByAccount
	jobCount  bool   // PrintJobCount: jobs instead of time
	flatView  bool   // FlatView: a line per tenant instead of root's
	group     bool   // Group: TopUsage sums a user's tenants into one line
	users     []string
	clusters  []string // Clusters=: other names leave the report empty
	badCond   bool     // an unknown Key=Value: reported, the report still runs
}

// Sreport runs the subset of Slurm's sreport Loam offers: "cluster
// utilization", "cluster AccountUtilizationByUser",
// "cluster UserUtilizationByAccount", "user TopUsage", and Loam's
// "loam preemption", which counts preemptions,
// checkpoints and GPU-hours lost per tenant per day or month (R12).
func Sreport(ctx context.Context, env *Env, args []string) int {
	w := newOutput(env, "sreport")
	opts, operands, err := getopt(env.prog("sreport"), args, sreportOpts)
	if err != nil {
		w.lines(err.(*usageError).lines)
		return w.exit(1)
	}
	p := &sreportParams{unit: "minutes", tres: []string{"cpu"}, topCount: 10}
	for _, o := range opts {
		switch o.id {
		case "n":
			p.noHeader = true
		case "p":
			p.delim, p.trailing = "|", true
		case "P":
			p.delim = "|"
		case "t":
			if u, ok := reportTimeUnit(o.val); ok {
				p.unit = u
			} else {
				w.raw("unknown time format " + o.val)
			}
		case "T":
			if p.tres = knownTRES(splitLower(o.val)); len(p.tres) == 0 {
				w.raw("sreport: fatal: No valid TRES given\n")
				return w.exit(1)
			}
			p.tresGiven = true
		case "V":
			w.printf("%s\n", versionLine)
			return w.exit(0)
		case "h", "usage":
			w.printf("%s", sreportHelp)
			return w.exit(0)
		}
	}
	if len(operands) == 0 {
		return w.exit(sreportInteractive(ctx, env, w, p))
	}
	return w.exit(runReport(ctx, env, w, p, operands))
}

// runReport runs one command: a keyword, a report and its conditions.
func runReport(ctx context.Context, env *Env, w *output, p *sreportParams, operands []string) int {
	run, code := sreportCommand(w, operands)
	if run == nil {
		return code
	}
	if err := p.parseArgs(w, operands[2:], env.Now()); err != "" {
		w.errf("%s", err)
		return 1
	}
	if code := run(ctx, env, w, p); code != 0 || p.badCond {
		return 1
	}
	return 0
}

type sreportRun func(ctx context.Context, env *Env, w *output, p *sreportParams) int

// clusterOK reports whether Clusters= (if given) names the cluster.
func (p *sreportParams) clusterOK(name string) bool {
	return len(p.clusters) == 0 || slices.Contains(p.clusters, strings.ToLower(name))
}

// sreportCommand picks the report, or prints Slurm's error for a
// keyword or report it does not know (Loam's for Slurm's reports it does
// not offer).
func sreportCommand(w *output, operands []string) (sreportRun, int) {
	report := strings.ToLower(operands[0])
	// Slurm's shortest forms: cl, j, re, u (Loam's own: lo).
	keyword := ""
	for k, least := range map[string]int{"cluster": 2, "job": 1, "reservation": 2, "user": 1, "loam": 2} {
		if abbrev(report, k, least) {
			keyword = k
		}
	}
	if keyword == "" {
		w.raw("invalid keyword: " + operands[0] + "\n")
		return nil, 1
	}
	if len(operands) < 2 {
		w.raw("too few arguments for keyword:" + operands[0] + "\n")
		return nil, 1
	}
	what := strings.ToLower(operands[1])
	switch {
	case keyword == "cluster" && abbrev(what, "utilization", 2):
		return clusterUtilization, 0
	case keyword == "loam" && abbrev(what, "preemption", 2):
		return preemptionReport, 0
	case keyword == "cluster" && (abbrev(what, "accountutilizationbyuser", 1) || what == "au"):
		return usersReport("abu"), 0
	case keyword == "cluster" && (abbrev(what, "userutilizationbyaccount", 18) || what == "ua"):
		return usersReport("uba"), 0
	case keyword == "user" && abbrev(what, "topusage", 1):
		return usersReport("top"), 0
	case keyword == "job" && abbrev(what, "sizesbyaccount", 1) && !strings.Contains(what, "wc"):
		return jobSizes, 0
	}
	if valid, ok := slurmReports[keyword]; ok && !slurmReportNamed(what, slurmReportNames[keyword]) {
		w.raw("Not valid report " + operands[1] + "\n" + valid + "\n")
		return nil, 1
	}
	w.errf("%s %s: Loam does not offer this report (it offers cluster Utilization, AccountUtilizationByUser, UserUtilizationByAccount, user TopUsage, job SizesByAccount and loam Preemption)", operands[0], operands[1])
	return nil, 1
}

// slurmReports are Slurm's lists of valid reports per keyword, printed
// after "Not valid report".
var slurmReports = map[string]string{
	"cluster":     `Valid cluster reports are, "AccountUtilizationByUser", "UserUtilizationByAccount", "UserUtilizationByWckey", "Utilization", and "WCKeyUtilizationByUser"`,
	"job":         `Valid job reports are, "SizesByAccount, SizesByAccountAndWcKey, and  SizesByWckey"`,
	"reservation": `Valid reservation reports are, "Utilization"`,
	"user":        `Valid user reports are, "Top"`,
}

// slurmReportNames are the reports of each keyword Slurm knows.
var slurmReportNames = map[string][]string{
	"cluster":     {"accountutilizationbyuser", "userutilizationbyaccount", "userutilizationbywckey", "utilization", "wckeyutilizationbyuser"},
	"job":         {"sizesbyaccount", "sizesbyaccountandwckey", "sizesbywckey"},
	"reservation": {"utilization"},
	"user":        {"topusage"},
}

// slurmReportNamed: what abbreviates one of the reports (a single
// letter is too short for Slurm).
func slurmReportNamed(what string, names []string) bool {
	for _, n := range names {
		if len(what) >= 2 && strings.HasPrefix(n, what) {
			return true
		}
	}
	return false
}

// reportTimeUnit reads -t as Slurm does: SecPer, MinPer, HourPer, or the
// first letter of Seconds, Minutes, Hours, Percent.
func reportTimeUnit(v string) (string, bool) {
	v = strings.ToLower(v)
	for _, per := range []string{"secper", "minper", "hourper"} {
		if strings.HasPrefix(v, per) {
			return per, true
		}
	}
	if v == "" {
		return "", false
	}
	u, ok := map[byte]string{'s': "seconds", 'm': "minutes", 'h': "hours", 'p': "percent"}[v[0]]
	return u, ok
}

// knownTRES keeps the TRES Loam accounts for (cpu, gres/gpu); "all"
// names both, in Slurm's order.
func knownTRES(names []string) []string {
	var out []string
	for _, n := range names {
		switch {
		case n == "all":
			return []string{"cpu", "gres/gpu"}
		case n == "cpu" || n == "gres/gpu":
			out = append(out, n)
		}
	}
	return out
}

// parseArgs reads Start=, End=, Accounts=, Period= and Format=. As
// Slurm's, words without '=' are ignored and an unknown condition is
// reported while the report still runs (exiting 1).
func (p *sreportParams) parseArgs(w *output, args []string, now time.Time) string {
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			switch strings.ToLower(a) {
			case "printjobcount":
				p.jobCount = true
			case "flatview":
				p.flatView = true
			case "group":
				p.group = true
			}
			continue
		}
		switch strings.ToLower(k) {
		case "start", "end":
			t, err := slurmtime.ParseTime(v, now)
			if err != nil {
				return "Invalid time: " + v
			}
			if strings.EqualFold(k, "start") {
				p.q.Start = t.Unix()
			} else {
				p.q.End = t.Unix()
			}
		case "accounts", "account", "acct":
			p.q.Accounts = splitLower(v)
		case "clusters", "cluster":
			p.clusters = splitLower(v)
		case "period":
			p.q.Period = strings.ToLower(v)
			if p.q.Period == "total" {
				p.q.Period = ""
			}
		case "format":
			p.format = v
		case "grouping":
			p.grouping = v
		case "users", "user":
			p.users = splitList(v)
		case "topcount":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return "Invalid TopCount: " + v
			}
			p.topCount = n
		default:
			w.raw(" Unknown condition: " + a + "\nUse keyword set to modify value\n")
			p.badCond = true
		}
	}
	return ""
}

// reportHeader prints sreport's banner: the report, its window and unit.
func reportHeader(w *output, env *Env, p *sreportParams, title string, start, end int64, unit string) {
	if p.noHeader {
		return
	}
	tf := newTimeFormat(env, env.Now())
	line := strings.Repeat("-", 80)
	w.printf("%s\n%s %s - %s", line, title, tf.appendTime(nil, start, "Unknown"), tf.appendTime(nil, end-1, "Unknown"))
	if p.rangeSecs {
		w.printf(" (%d secs)", end-start)
	}
	w.printf("\n")
	if unit != "" {
		w.printf("%s\n", unit)
	}
	w.printf("%s\n", line)
}

// reportColumn is one column of a report table.
type reportColumn struct {
	name  string
	width int
}

// textColumns are the report columns whose values Slurm prints as
// strings, cut with a '+' when too wide.
var textColumns = map[string]bool{"Cluster": true, "Account": true, "Login": true, "Proper Name": true, "TRES Name": true}

// printTable prints a report's columns and rows: padded with dashes
// under the header, or '|'-separated with -p/-P.
func printTable(w *output, p *sreportParams, cols []reportColumn, rows [][]string) {
	line := func(vals []string, cut bool) {
		for i, c := range cols {
			if p.delim != "" {
				w.buf = append(w.buf, vals[i]...)
				if i < len(cols)-1 || p.trailing {
					w.buf = append(w.buf, '|')
				}
				continue
			}
			v := vals[i]
			if !cut && len(v) > c.width && textColumns[c.name] {
				v = v[:max(c.width-1, 0)] + "+" // Slurm's mark of a cut string
			}
			w.buf = pad(w.buf, v, c.width, true, cut)
			w.buf = append(w.buf, ' ')
		}
		w.buf = append(w.buf, '\n')
	}
	if !p.noHeader {
		names := make([]string, len(cols))
		dashes := make([]string, len(cols))
		for i, c := range cols {
			names[i], dashes[i] = c.name, strings.Repeat("-", c.width)
		}
		line(names, true)
		if p.delim == "" {
			line(dashes, false)
		}
	}
	for _, r := range rows {
		line(r, false)
	}
}

func unitName(unit string) string {
	switch unit {
	case "hours", "hourper":
		return "Hours"
	case "seconds", "secper":
		return "Seconds"
	}
	return "Minutes"
}

// scaled prints a resource-seconds value in the report's unit: a
// count, a percentage of total, or both as "count(percent)".
func scaled(v, total int64, unit string) string {
	pct := "0.00%"
	if total != 0 {
		pct = strconv.FormatFloat(100*float64(v)/float64(total), 'f', 2, 64) + "%"
	}
	// Slurm rounds minutes and hours to the nearest whole one.
	n := float64(v) / 60
	switch unit {
	case "percent":
		return pct
	case "hours", "hourper":
		n = float64(v) / 3600
	case "seconds", "secper":
		n = float64(v)
	}
	if strings.HasSuffix(unit, "per") {
		return strconv.FormatFloat(n, 'f', 0, 64) + "(" + pct + ")"
	}
	return strconv.FormatFloat(n, 'f', 0, 64)
}

// preemptionColumns are Loam's preemption report fields.
var preemptionColumns = map[string]reportColumn{
	"period": {"Period", 10}, "account": {"Account", 10}, "preempted": {"Preempted", 10},
	"requeued": {"Requeued", 10}, "checkpointed": {"Checkpointed", 12}, "losttime": {"LostTime", 12},
	"lostgpuhours": {"LostGPUHours", 12},
}

const preemptionDefault = "Period,Account,Preempted,Requeued,Checkpointed,LostTime,LostGPUHours"

// preemptionReport is sreport loam preemption.
func preemptionReport(ctx context.Context, env *Env, w *output, p *sreportParams) int {
	if p.q.Period == "" && p.q.Start == 0 {
		p.q.Period = "day"
	}
	format := p.format
	if format == "" {
		format = preemptionDefault
	}
	var cols []reportColumn
	var keys []string
	for _, name := range splitList(format) {
		c, ok := preemptionColumns[strings.ToLower(name)]
		if !ok {
			w.errf("Invalid field requested: \"%s\"", name)
			return 1
		}
		cols, keys = append(cols, c), append(keys, strings.ToLower(name))
	}
	lc, ok := dialLive(ctx, env, w)
	if !ok {
		return 1
	}
	rep, err := lc.PreemptReport(ctx, &p.q)
	if err != nil {
		w.errf("%s", errDetail(err))
		return 1
	}
	per := map[string]string{"day": " per day", "month": " per month", "": ""}[p.q.Period]
	reportHeader(w, env, p, "Preemptions"+per, rep.Start, rep.End, "")
	var rows [][]string
	for _, r := range rep.Rows {
		vals := map[string]string{"period": orDefault(r.Period, "total"), "account": r.Account,
			"preempted": strconv.FormatInt(r.Count, 10), "requeued": strconv.FormatInt(r.Requeued, 10),
			"checkpointed": strconv.FormatInt(r.Checkpointed, 10), "losttime": string(appendHMS(nil, r.LostSeconds)),
			"lostgpuhours": strconv.FormatFloat(r.LostGPUHours, 'f', 2, 64)}
		row := make([]string, len(keys))
		for i, k := range keys {
			row[i] = vals[k]
		}
		rows = append(rows, row)
	}
	printTable(w, p, cols, rows)
	return 0
}

const sreportHelp = `sreport [<OPTION>] [<COMMAND>]
    Valid <OPTION> values are:
     -h or --help: equivalent to "help" command
     -n or --noheader: equivalent to "noheader" command
     -p or --parsable: output will be '|' delimited with a '|' at the end
     -P or --parsable2: output will be '|' delimited without a '|' at the end
     -t <time_format>: Second, Minute, Hour, Percent, SecPer, MinPer, HourPer
                       (Minute by default)
     -T or --tres: comma separated list of TRES: cpu (default), gres/gpu
     -V or --version: equivalent to "version" command

  Valid <COMMAND> values are (Loam offers these reports):
     cluster Utilization [Start=<time>] [End=<time>] [Format=<fields>]
     cluster AccountUtilizationByUser|UserUtilizationByAccount
                     [Start=<time>] [End=<time>] [Accounts=<list>]
     user TopUsage [Start=<time>] [End=<time>] [TopCount=<n>] [Group]
                     [Users=<list>]
     job SizesByAccount [Start=<time>] [End=<time>] [Accounts=<list>]
                     [Grouping=<n,n...>|individual] [PrintJobCount] [FlatView]
     loam Preemption [Start=<time>] [End=<time>] [Accounts=<list>]
                     [Period=day|month|total] [Format=<fields>]
         fields: Period,Account,Preempted,Requeued,Checkpointed,
                 LostTime,LostGPUHours
`
