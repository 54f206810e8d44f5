package command

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

// utilColumn is one column of sreport cluster utilization: its header,
// default width and whether it holds a usage value.
type utilColumn struct {
	key, name string
	width     int
	usage     bool
}

// utilColumns are the report's fields in the order a Format= prefix is
// matched against them.
var utilColumns = []utilColumn{
	{"allocated", "Allocated", 8, true}, {"cluster", "Cluster", 9, false},
	{"down", "Down", 8, true}, {"idle", "Idle", 8, true},
	{"overcommitted", "Over Comm", 8, true}, {"planneddown", "PLND Down", 8, true},
	{"planned", "Planned", 8, true}, {"reserved", "Planned", 8, true},
	{"reported", "Reported", 8, true},
}

var tresNameColumn = utilColumn{"tresname", "TRES Name", 14, false}

const utilDefault = "Cluster,Allocated,Down,PlannedDown,Idle,Planned,Reported"

// utilFormat reads a Format= list into columns. Slurm adds the TRES
// Name column after Cluster only to its default list, when -T is given.
func utilFormat(format string, tres bool) ([]utilColumn, string) {
	if format == "" {
		format = utilDefault
	} else {
		tres = false
	}
	var out []utilColumn
	for _, name := range splitList(format) {
		c, ok := utilColumnNamed(name)
		if !ok {
			return nil, name
		}
		out = append(out, c)
		if tres && c.key == "cluster" {
			out = append(out, tresNameColumn)
		}
	}
	return out, ""
}

func utilColumnNamed(name string) (utilColumn, bool) {
	name, width, hasWidth := strings.Cut(strings.ToLower(name), "%")
	// A whole name wins over a longer one it begins (Planned,
	// PlannedDown).
	for _, exact := range []bool{true, false} {
		for _, c := range utilColumns {
			if name != "" && (c.key == name || !exact && strings.HasPrefix(c.key, name)) {
				// Slurm sizes usage columns itself: their %width is
				// ignored.
				if hasWidth && !c.usage {
					c.width, _ = strtol(width)
				}
				return c, true
			}
		}
	}
	return utilColumn{}, false
}

// reportWindow is Slurm's report window: the times rounded to the
// nearest hour; without End today's midnight, without Start the midnight
// before; never less than an hour.
func reportWindow(start, end int64, now time.Time) (int64, int64) {
	if end == 0 {
		y, m, d := now.Date()
		end = time.Date(y, m, d, 0, 0, 0, 0, now.Location()).Unix()
	}
	if start == 0 {
		y, m, d := now.Date()
		start = time.Date(y, m, d-1, 0, 0, 0, 0, now.Location()).Unix()
	}
	start, end = roundHour(start, now.Location()), roundHour(end, now.Location())
	if end-start < 3600 {
		end = start + 3600
	}
	return start, end
}

// roundHour rounds to the nearest hour: 30 seconds round the minute up,
// 30 minutes the hour.
func roundHour(unix int64, loc *time.Location) int64 {
	t := time.Unix(unix, 0).In(loc)
	if t.Second() >= 30 {
		t = t.Add(time.Minute)
	}
	if t.Minute() >= 30 {
		t = t.Add(time.Hour)
	}
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), 0, 0, 0, loc).Unix()
}

// utilUnitLine is the banner's unit line.
func utilUnitLine(unit string, tres bool) string {
	what := "CPU "
	if tres {
		what = "TRES "
	}
	switch unit {
	case "percent":
		return "Usage reported in Percentage of Total"
	case "secper", "minper", "hourper":
		return "Usage reported in " + what + unitName(unit) + "/Percentage of Total"
	}
	return "Usage reported in " + what + unitName(unit)
}

// fetchReport sets the report's window and fetches the cluster's
// utilization in it and, with jobs, the accounting records of the jobs
// that ran in it (none when Clusters= leaves this cluster out). false:
// an error was printed.
func fetchReport(ctx context.Context, env *Env, w *output, p *sreportParams, jobs bool) (*api.UtilReport, *api.AcctResponse, bool) {
	p.q.Start, p.q.End = reportWindow(p.q.Start, p.q.End, env.Now())
	lc, ok := dialLive(ctx, env, w)
	if !ok {
		return nil, nil, false
	}
	u, err := lc.UtilReport(ctx, &p.q)
	if err != nil {
		w.errf("%s", errDetail(err))
		return nil, nil, false
	}
	if !jobs {
		return u, nil, true
	}
	resp, err := lc.(Controller).Accounting(ctx, &api.AcctQuery{StartTime: p.q.Start, EndTime: p.q.End, AllocationsOnly: true})
	if err != nil {
		w.errf("%s", errDetail(err))
		return nil, nil, false
	}
	if !p.clusterOK(u.Cluster) {
		resp.Jobs = nil
	}
	return u, resp, true
}

// clusterUtilization is sreport cluster utilization: allocated, idle and
// reported time per TRES (cpu and gres/gpu). Loam has no down, planned
// down, planned (reserved) or overcommitted time to report: they are 0.
func clusterUtilization(ctx context.Context, env *Env, w *output, p *sreportParams) int {
	cols, bad := utilFormat(p.format, p.tresGiven)
	if bad != "" {
		w.raw(" Unknown field '" + bad + "'\n")
		return 1
	}
	u, _, ok := fetchReport(ctx, env, w, p, false)
	if !ok {
		return 1
	}
	reportHeader(w, env, p, "Cluster Utilization", u.Start, u.End, utilUnitLine(p.unit, p.tresGiven))
	var rows [][]string
	most := make([]int64, len(cols)) // each column's largest value
	for _, t := range p.tres {
		if !p.clusterOK(u.Cluster) {
			break
		}
		alloc, capacity := u.CPUAlloc, u.CPUCapacity
		if t == "gres/gpu" {
			alloc, capacity = u.GPUAlloc, u.GPUCapacity
		}
		vals := map[string]int64{"allocated": alloc, "idle": max(capacity-alloc, 0), "reported": capacity}
		row := make([]string, len(cols))
		for i, c := range cols {
			switch {
			case c.key == "cluster":
				row[i] = u.Cluster
			case c.key == "tresname":
				row[i] = t
			default:
				row[i] = scaled(vals[c.key], capacity, p.unit)
				most[i] = max(most[i], vals[c.key])
			}
		}
		rows = append(rows, row)
	}
	for i := range cols {
		if cols[i].usage {
			cols[i].width = usageWidth(cols[i].width, most[i], p.unit)
		}
	}
	printTable(w, p, toReportColumns(cols), rows)
	return 0
}

// usageWidth widens a usage column as Slurm does once a value reaches
// 10^8 seconds: to at least 10, one more per further digit; the
// value(percent) units add 9 for the percentage.
func usageWidth(width int, seconds int64, unit string) int {
	if seconds >= 1e8 {
		width = max(width, 10, len(strconv.FormatInt(seconds, 10)))
	}
	if unit == "secper" || unit == "minper" || unit == "hourper" {
		width += 9
	}
	return width
}

func toReportColumns(cols []utilColumn) []reportColumn {
	out := make([]reportColumn, len(cols))
	for i, c := range cols {
		out[i] = reportColumn{c.name, c.width}
	}
	return out
}
