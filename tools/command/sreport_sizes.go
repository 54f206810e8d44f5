package command

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// sizeBucket is one job-size column: jobs of lo..hi CPUs (or GPUs).
type sizeBucket struct {
	lo, hi int // hi < 0: no upper bound
	label  string
}

// defaultGrouping is Slurm's job size grouping.
const defaultGrouping = "50,250,500,1000"

// sizeBuckets reads Grouping=: the lower bounds of the columns after the
// first, which starts at 0. A list Slurm cannot read (a word, 0) is one
// column for every size; "individual" is a column per size seen.
func sizeBuckets(grouping, unit string, sizes []int) []sizeBucket {
	if strings.EqualFold(grouping, "individual") {
		var out []sizeBucket
		for _, n := range sizes {
			out = append(out, sizeBucket{n, n, strconv.Itoa(n) + " " + unit})
		}
		return out
	}
	var bounds []int
	for _, f := range splitList(grouping) {
		n, _ := strconv.Atoi(f)
		bounds = append(bounds, n)
	}
	if len(bounds) == 0 || bounds[0] <= 0 {
		return []sizeBucket{{0, -1, "0-4294967295 "}} // Slurm's label, unit-less
	}
	out := []sizeBucket{}
	lo := 0
	for _, b := range bounds {
		out = append(out, sizeBucket{lo, b - 1, strconv.Itoa(lo) + "-" + strconv.Itoa(b-1) + " " + unit})
		lo = b
	}
	return append(out, sizeBucket{lo, -1, ">= " + strconv.Itoa(lo) + " " + unit})
}

// in reports whether a job of n CPUs falls in the bucket. Slurm reads the
// bounds as given, so a descending list leaves a column empty.
func (b sizeBucket) in(n int) bool { return n >= b.lo && (b.hi < 0 || n <= b.hi) }

// sizeJob is one job's size and its TRES-seconds inside the window.
type sizeJob struct {
	account string
	size    int
	secs    int64
}

// sizesJobs are the jobs that ran inside the window (running ones up to
// end, which is no later than now), sized by CPUs or, with gres/gpu, GPUs.
func sizesJobs(jobs []api.AcctJob, start, end int64, tres string, users []string) []sizeJob {
	var out []sizeJob
	for i := range jobs {
		j := &jobs[i]
		if len(users) > 0 && !slices.Contains(users, j.UserName) {
			continue
		}
		to := j.EndTime
		if to == 0 || to > end {
			to = end
		}
		secs := to - max(j.StartTime, start)
		if j.StartTime == 0 || secs <= 0 {
			continue
		}
		size := j.CPUs
		if tres == "gres/gpu" {
			size = j.GPUs
		}
		out = append(out, sizeJob{strings.ToLower(j.Account), size, secs * int64(size)})
	}
	return out
}

// jobSizes is sreport job SizesByAccount: the time (or with PrintJobCount
// the number) of jobs per size column, per tenant: all of them as "root"
// by default, each tenant with FlatView, the listed ones with Accounts=.
func jobSizes(ctx context.Context, env *Env, w *output, p *sreportParams) int {
	if len(p.tres) > 1 {
		w.raw(" Job report only supports a single --tres type.\n Generate a separate report for each TRES type.\n")
		return 1
	}
	cols, bad := sizesFormat(p.format)
	if bad != "" {
		w.raw(" Unknown field '" + bad + "'\n")
		return 1
	}
	u, resp, ok := fetchReport(ctx, env, w, p, true) // sreport_util.go
	if !ok {
		return 1
	}
	jobs := sizesJobs(resp.Jobs, p.q.Start, min(p.q.End, max(resp.Now, p.q.Start)), p.tres[0], p.users)
	unit := "CPUs"
	if p.tres[0] != "cpu" {
		unit = "TRES"
	}
	var sizes []int
	var total int64
	for _, j := range jobs {
		total += j.secs
		if !slices.Contains(sizes, j.size) {
			sizes = append(sizes, j.size)
		}
	}
	slices.Sort(sizes)
	buckets := sizeBuckets(orDefault(p.grouping, defaultGrouping), unit, sizes)
	p.rangeSecs = true
	sizesHeader(w, env, p)
	width := 13
	if p.unit == "secper" || p.unit == "minper" || p.unit == "hourper" {
		width = 20
	}
	for _, b := range buckets {
		cols = append(cols, reportColumn{b.label, width})
	}
	cols = append(cols, reportColumn{"% of cluster", 12})
	var rows [][]string
	for _, acct := range sizesAccounts(p, jobs) {
		rows = append(rows, sizesRow(p, u.Cluster, acct, jobs, buckets, total))
	}
	printTable(w, p, cols, rows)
	return 0
}

// sizesHeader is the banner, with the TRES line when -T is given.
func sizesHeader(w *output, env *Env, p *sreportParams) {
	unit := "Time reported in " + strings.TrimPrefix(utilUnitLine(p.unit, false), "Usage reported in CPU ")
	if p.unit == "percent" {
		unit = "Time reported in Percentage of Total"
	}
	if p.jobCount {
		unit = "Units are in number of jobs ran"
	}
	if p.tresGiven {
		unit = "TRES type is " + p.tres[0] + "\n" + unit
	}
	reportHeader(w, env, p, "Job Sizes", p.q.Start, p.q.End, unit)
}

// sizesFormat reads Format=: Cluster and Account, in the order given.
func sizesFormat(format string) ([]reportColumn, string) {
	var out []reportColumn
	for _, f := range splitList(orDefault(format, "Cluster,Account")) {
		name, width, hasWidth := strings.Cut(f, "%")
		c := reportColumn{width: 9}
		switch n := strings.ToLower(name); {
		case n != "" && strings.HasPrefix("cluster", n):
			c.name = "Cluster"
		case n != "" && strings.HasPrefix("account", n):
			c.name = "Account"
		default:
			return nil, f
		}
		if hasWidth {
			c.width, _ = strtol(width)
		}
		out = append(out, c)
	}
	return out, ""
}

// sizesAccounts are the rows' tenants; "root" sums them all.
func sizesAccounts(p *sreportParams, jobs []sizeJob) []string {
	if len(p.q.Accounts) > 0 {
		return p.q.Accounts
	}
	if !p.flatView {
		if len(jobs) == 0 {
			return nil // as Slurm, no root line without jobs
		}
		return []string{"root"}
	}
	var out []string
	for _, j := range jobs {
		if !slices.Contains(out, j.account) {
			out = append(out, j.account)
		}
	}
	slices.Sort(out)
	return out
}

func sizesRow(p *sreportParams, cluster, acct string, jobs []sizeJob, buckets []sizeBucket, total int64) []string {
	secs := make([]int64, len(buckets))
	counts := make([]int64, len(buckets))
	var acctSecs int64
	for _, j := range jobs {
		if acct != "root" && j.account != acct {
			continue
		}
		acctSecs += j.secs
		for i, b := range buckets {
			if b.in(j.size) {
				secs[i] += j.secs
				counts[i]++
				break
			}
		}
	}
	var row []string
	for _, c := range strings.Split(orDefault(p.format, "Cluster,Account"), ",") {
		if strings.HasPrefix("cluster", strings.ToLower(strings.Split(c, "%")[0])) {
			row = append(row, cluster)
		} else {
			row = append(row, acct)
		}
	}
	for i := range buckets {
		if p.jobCount {
			row = append(row, strconv.FormatInt(counts[i], 10))
			continue
		}
		row = append(row, scaled(secs[i], total, p.unit))
	}
	return append(row, scaled(acctSecs, total, "percent"))
}
