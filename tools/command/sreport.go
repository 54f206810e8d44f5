package command

import (
	"context"
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
	noHeader bool
	delim    string
	trailing bool
	unit     string   // -t: minutes (default), hours, seconds, percent
	tres     []string // -T: cpu (default), gres/gpu
	q        api.ReportQuery
	format   string
}

// Sreport runs the subset of Slurm's sreport Loam offers: "cluster
// utilization", and Loam's "loam preemption", which counts preemptions,
// checkpoints and GPU-hours lost per tenant per day or month (R12).
func Sreport(ctx context.Context, env *Env, args []string) int {
	w := newOutput(env, "sreport")
	opts, operands, err := getopt(env.prog("sreport"), args, sreportOpts)
	if err != nil {
		w.lines(err.(*usageError).lines)
		return w.exit(1)
	}
	p := &sreportParams{unit: "minutes", tres: []string{"cpu"}}
	for _, o := range opts {
		switch o.id {
		case "n":
			p.noHeader = true
		case "p":
			p.delim, p.trailing = "|", true
		case "P":
			p.delim = "|"
		case "t":
			p.unit = strings.ToLower(o.val)
		case "T":
			p.tres = splitLower(o.val)
		case "V":
			w.printf("%s\n", versionLine)
			return w.exit(0)
		case "h", "usage":
			w.printf("%s", sreportHelp)
			return w.exit(0)
		}
	}
	if len(operands) < 2 {
		w.printf("%s", sreportHelp)
		return w.exit(1)
	}
	if err := p.parseArgs(operands[2:], env.Now()); err != "" {
		w.errf("%s", err)
		return w.exit(1)
	}
	report, what := strings.ToLower(operands[0]), strings.ToLower(operands[1])
	switch {
	case abbrev(report, "cluster", 2) && abbrev(what, "utilization", 2):
		return w.exit(clusterUtilization(ctx, env, w, p))
	case abbrev(report, "loam", 2) && abbrev(what, "preemption", 2):
		return w.exit(preemptionReport(ctx, env, w, p))
	}
	w.errf("Not valid report %s %s: Loam offers \"cluster utilization\" and \"loam preemption\"", operands[0], operands[1])
	return w.exit(1)
}

// parseArgs reads Start=, End=, Accounts=, Period= and Format=.
func (p *sreportParams) parseArgs(args []string, now time.Time) string {
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			return "Unknown condition: " + a
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
		case "period":
			p.q.Period = strings.ToLower(v)
			if p.q.Period == "total" {
				p.q.Period = ""
			}
		case "format":
			p.format = v
		default:
			return "Unknown condition: " + a
		}
	}
	return ""
}

// reportHeader prints sreport's banner: the report, its window and unit.
func reportHeader(w *output, env *Env, p *sreportParams, title string, start, end int64, unit string) {
	if p.noHeader || p.delim != "" {
		return
	}
	tf := newTimeFormat(env, env.Now())
	line := strings.Repeat("-", 80)
	w.printf("%s\n%s %s - %s\n", line, title, tf.appendTime(nil, start, "Unknown"), tf.appendTime(nil, end-1, "Unknown"))
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

// printTable prints a report's columns and rows: padded with dashes
// under the header, or '|'-separated with -p/-P.
func printTable(w *output, p *sreportParams, cols []reportColumn, rows [][]string) {
	line := func(vals []string) {
		for i, c := range cols {
			if p.delim != "" {
				w.buf = append(w.buf, vals[i]...)
				if i < len(cols)-1 || p.trailing {
					w.buf = append(w.buf, '|')
				}
				continue
			}
			w.buf = pad(w.buf, vals[i], c.width, true, false)
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
		line(names)
		if p.delim == "" {
			line(dashes)
		}
	}
	for _, r := range rows {
		line(r)
	}
}

// clusterUtilization is sreport cluster utilization: allocated, idle and
// reported time per TRES (cpu and gres/gpu).
func clusterUtilization(ctx context.Context, env *Env, w *output, p *sreportParams) int {
	lc, ok := dialLive(ctx, env, w)
	if !ok {
		return 1
	}
	u, err := lc.UtilReport(ctx, &p.q)
	if err != nil {
		w.errf("%s", errDetail(err))
		return 1
	}
	unitLine := "Usage reported in " + map[bool]string{true: "Percentage of Total", false: "TRES " + unitName(p.unit)}[p.unit == "percent"]
	reportHeader(w, env, p, "Cluster Utilization", u.Start, u.End, unitLine)
	cols := []reportColumn{{"Cluster", 9}, {"TRES Name", 14}, {"Allocated", 13}, {"Idle", 13}, {"Reported", 13}}
	var rows [][]string
	for _, t := range p.tres {
		alloc, capacity := u.CPUAlloc, u.CPUCapacity
		if t == "gres/gpu" {
			alloc, capacity = u.GPUAlloc, u.GPUCapacity
		} else if t != "cpu" {
			w.errf("Unknown TRES %s: Loam reports cpu and gres/gpu", t)
			return 1
		}
		rows = append(rows, []string{u.Cluster, t, scaled(alloc, capacity, p.unit), scaled(max(capacity-alloc, 0), capacity, p.unit),
			scaled(capacity, capacity, p.unit)})
	}
	printTable(w, p, cols, rows)
	return 0
}

func unitName(unit string) string {
	switch unit {
	case "hours":
		return "Hours"
	case "seconds":
		return "Seconds"
	}
	return "Minutes"
}

// scaled prints a resource-seconds value in the report's unit.
func scaled(v, total int64, unit string) string {
	switch unit {
	case "percent":
		if total == 0 {
			return "0.00%"
		}
		return strconv.FormatFloat(100*float64(v)/float64(total), 'f', 2, 64) + "%"
	case "hours":
		return strconv.FormatInt(v/3600, 10)
	case "seconds":
		return strconv.FormatInt(v, 10)
	}
	return strconv.FormatInt(v/60, 10)
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
     -t <time_format>: Second, Minute, Hour, Percent (Minute by default)
     -T or --tres: comma separated list of TRES: cpu (default), gres/gpu
     -V or --version: equivalent to "version" command

  Valid <COMMAND> values are (Loam offers these reports):
     cluster Utilization [Start=<time>] [End=<time>]
     loam Preemption [Start=<time>] [End=<time>] [Accounts=<list>]
                     [Period=day|month|total] [Format=<fields>]
         fields: Period,Account,Preempted,Requeued,Checkpointed,
                 LostTime,LostGPUHours
`
