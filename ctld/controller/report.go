package controller

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/slurmconf"
	"github.com/loamhpc/loam/pkg/store"
)

// Reports for sreport (R12, R14): preemptions per tenant per day or month
// (count, requeued, checkpointed, run time and GPU-hours lost), and the
// cluster's CPU and GPU utilization over a window. Periods are calendar
// days and months of the controller's local time zone.

// reportWindow resolves a query's window: the last day when no start is
// given, now when no end is.
func reportWindow(q *api.ReportQuery, now time.Time) (int64, int64, *api.Error) {
	end := q.End
	if end == 0 {
		end = now.Unix()
	}
	start := q.Start
	if start == 0 {
		start = end - 86400
	}
	if start >= end {
		return 0, 0, api.Errorf(api.CodeInvalidTimeValue, "report start %s is not before its end %s",
			time.Unix(start, 0).Format(time.DateTime), time.Unix(end, 0).Format(time.DateTime))
	}
	return start, end, nil
}

// handlePreemptReport is sreport loam preemption.
func (c *Controller) handlePreemptReport(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var q api.ReportQuery
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	if q.Period != "" && q.Period != "day" && q.Period != "month" {
		return nil, api.Errorf(api.CodeBadRequest, "period %q: want day or month", q.Period)
	}
	start, end, aerr := reportWindow(&q, c.now())
	if aerr != nil {
		return nil, aerr
	}
	rows, err := c.store.Preemptions(start, end)
	if err != nil {
		return nil, api.Errorf(api.CodeInternal, "%v", err)
	}
	return &api.PreemptReport{Start: start, End: end, Rows: groupPreemptions(rows, q.Period, q.Accounts, time.Local)}, nil
}

// groupPreemptions sums preemption rows per account and period, sorted
// by period, then account.
func groupPreemptions(rows []store.PreemptionRow, period string, accounts []string, loc *time.Location) []api.PreemptRow {
	type key struct{ account, period string }
	sums := map[key]*api.PreemptRow{}
	var keys []key
	for _, r := range rows {
		if len(accounts) > 0 && !slices.Contains(accounts, r.Account) {
			continue
		}
		k := key{r.Account, periodOf(r.Time, period, loc)}
		s := sums[k]
		if s == nil {
			s = &api.PreemptRow{Account: k.account, Period: k.period}
			sums[k] = s
			keys = append(keys, k)
		}
		s.Count++
		if r.Requeued {
			s.Requeued++
		}
		if r.Checkpointed {
			s.Checkpointed++
		}
		s.LostSeconds += r.LostSeconds
		s.LostGPUHours += float64(r.GPUs) * float64(r.LostSeconds) / 3600
	}
	slices.SortFunc(keys, func(a, b key) int {
		if c := strings.Compare(a.period, b.period); c != 0 {
			return c
		}
		return strings.Compare(a.account, b.account)
	})
	out := make([]api.PreemptRow, 0, len(keys))
	for _, k := range keys {
		out = append(out, *sums[k])
	}
	return out
}

func periodOf(unix int64, period string, loc *time.Location) string {
	t := time.Unix(unix, 0).In(loc)
	switch period {
	case "day":
		return t.Format("2006-01-02")
	case "month":
		return t.Format("2006-01")
	}
	return ""
}

// handleUtilReport is sreport cluster utilization: allocated CPU and GPU
// seconds of the jobs that ran in the window (ended ones from accounting,
// running ones from memory) against the capacity of the configured
// nodes.
func (c *Controller) handleUtilReport(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var q api.ReportQuery
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	if aerr := c.refuseHidden(id, slurmconf.PrivateUsage); aerr != nil { // privatedata.go: every user's usage
		return nil, aerr
	}
	start, end, aerr := reportWindow(&q, c.now())
	if aerr != nil {
		return nil, aerr
	}
	rows, err := c.store.QueryAcct(store.AcctFilter{Start: start, End: end})
	if err != nil {
		return nil, api.Errorf(api.CodeInternal, "%v", err)
	}
	out := &api.UtilReport{Cluster: c.confNow().conf.ClusterName, Start: start, End: end}
	// A window reaching past now (sreport rounds its end up to the hour)
	// has neither capacity nor use there yet.
	upTo := max(min(end, c.now().Unix()), start)
	seen := map[uint32]bool{}
	for _, r := range rows {
		var a api.AcctJob
		if json.Unmarshal(r.Record, &a) != nil || a.StartTime == 0 {
			continue
		}
		seen[a.JobID] = true
		addUtil(out, a.StartTime, a.EndTime, a.AllocTRES, a.GPUs)
	}
	c.mu.RLock()
	conf := c.confNow().conf
	for _, r := range c.runningSet {
		if seen[r.ID] {
			continue
		}
		var j api.Job
		c.fillJob(&j, r, need{tres: true})
		addUtil(out, r.St.Start, upTo, j.TRESAllocStr, j.GPUs)
	}
	c.mu.RUnlock()
	for i := range conf.Nodes {
		n := &conf.Nodes[i]
		if n.State == "FUTURE" {
			continue
		}
		out.CPUCapacity += int64(n.CPUs) * (upTo - start)
		out.GPUCapacity += int64(capOfNode(n).gpus) * (upTo - start)
	}
	return out, nil
}

// addUtil adds one job's allocation over its run's overlap with the
// window. GPUs come from the job's count: AllocTRES names them only when
// AccountingStorageTRES tracks gres/gpu (records written before the count
// was kept have it only there).
func addUtil(out *api.UtilReport, from, to int64, tres string, gpus int) {
	if to == 0 || to > out.End {
		to = out.End
	}
	from = max(from, out.Start)
	if to <= from {
		return
	}
	t, err := resource.ParseTRES(tres)
	if err != nil {
		return
	}
	out.CPUAlloc += t.Get(resource.TRESCPU) * (to - from)
	if gpus == 0 {
		gpus = int(t.Get(resource.TRESGPU))
	}
	out.GPUAlloc += int64(gpus) * (to - from)
}
