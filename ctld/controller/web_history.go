package controller

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/loamhpc/loam/ctld/web"
	"github.com/loamhpc/loam/pkg/history"
)

// The history pages read pkg/history at the finest resolution that keeps
// a chart to a few hundred points.
const maxChartPoints = 400

// window is the span's start, the resolution to read it at, and the end
// of the range to query (the current minute included).
func (s webSource) window(span time.Duration) (from, to time.Time, res history.Resolution) {
	now := s.Now()
	res = s.o.hist.Pick(now.Add(-span), now, maxChartPoints)
	return now.Add(-span).Truncate(res.Width()), now.Add(time.Minute), res
}

func (s webSource) Quotas(v web.Viewer, span time.Duration) web.QuotaView {
	out := web.QuotaView{Span: span}
	if s.o.hist == nil {
		return out
	}
	from, to, res := s.window(span)
	out.Resolution = res.String()
	list, err := s.o.hist.Range(seriesUtil, res, from, to)
	if err != nil {
		s.o.c.log.WithError(err).Warn("dashboard: quota history")
		return out
	}
	col := map[int64]int{}
	for t := from; t.Before(to); t = t.Add(res.Width()) {
		col[t.Unix()] = len(out.Cols)
		out.Cols = append(out.Cols, t)
	}
	row := map[string]int{}
	for _, b := range list {
		i, ok := row[b.Label]
		if !ok {
			i = len(out.Tenants)
			row[b.Label] = i
			out.Tenants = append(out.Tenants, b.Label)
			out.Util = append(out.Util, nanRow(len(out.Cols)))
		}
		if j, ok := col[b.Start.Unix()]; ok {
			out.Util[i][j] = b.Mean()
		}
	}
	return out
}

func nanRow(n int) []float64 {
	r := make([]float64, n)
	for i := range r {
		r[i] = math.NaN()
	}
	return r
}

func (s webSource) Waits(v web.Viewer, span time.Duration) web.WaitView {
	out := web.WaitView{Span: span}
	h := s.o.hist
	if h == nil {
		return out
	}
	from, to, res := s.window(span)
	started, err1 := h.Totals(seriesStarted, res, from, to)
	sums, err2 := h.Totals(seriesWaitSum, res, from, to)
	buckets, err3 := h.Totals(seriesWaitBucket, res, from, to)
	daily := res
	if span > 2*24*time.Hour {
		daily = history.Day
	}
	perDay, err4 := h.Range(seriesStarted, daily, from.Truncate(daily.Width()), to)
	sumDay, err5 := h.Range(seriesWaitSum, daily, from.Truncate(daily.Width()), to)
	if err := histErr(err1, err2, err3, err4, err5); err != nil {
		s.o.c.log.WithError(err).Warn("dashboard: wait history")
		return out
	}
	for _, p := range s.o.c.confNow().conf.Partitions {
		n := started[p.Name].Sum
		if n == 0 {
			continue
		}
		q := web.WaitQueue{Name: p.Name, Started: int(n), Mean: time.Duration(sums[p.Name].Sum / n * float64(time.Second))}
		for i, l := range waitLabels {
			q.Buckets = append(q.Buckets, web.Count{Label: l, N: int(buckets[bucketLabel(p.Name, i)].Sum)})
		}
		q.Daily = meanWaitPoints(p.Name, perDay, sumDay)
		out.Queues = append(out.Queues, q)
	}
	return out
}

// meanWaitPoints is the mean wait per bucket of one partition.
func meanWaitPoints(part string, started, sums []history.Bucket) []web.Point {
	sum := map[int64]float64{}
	for _, b := range sums {
		if b.Label == part {
			sum[b.Start.Unix()] = b.Sum
		}
	}
	var out []web.Point
	for _, b := range started {
		if b.Label == part && b.Sum > 0 {
			out = append(out, web.Point{At: b.Start, Value: sum[b.Start.Unix()] / b.Sum})
		}
	}
	return out
}

func histErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func (s webSource) Preemptions(v web.Viewer, span time.Duration) web.PreemptView {
	out := web.PreemptView{Span: span}
	h := s.o.hist
	if h == nil {
		return out
	}
	from, to, res := s.window(span)
	count, err1 := h.Totals(seriesPreempted, res, from, to)
	young, err2 := h.Totals(seriesYoung, res, from, to)
	lost, err3 := h.Totals(seriesLost, res, from, to)
	if err := histErr(err1, err2, err3); err != nil {
		s.o.c.log.WithError(err).Warn("dashboard: preemption history")
		return out
	}
	for name, b := range count {
		out.Tenants = append(out.Tenants, web.TenantPreempt{Name: name, Count: int(b.Sum), Young: int(young[name].Sum), LostGPUh: lost[name].Sum})
	}
	slices.SortFunc(out.Tenants, func(a, b web.TenantPreempt) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

func (s webSource) Fragmentation(v web.Viewer, span time.Duration) web.FragView {
	c := s.o.c
	c.mu.RLock()
	out := web.FragView{Span: span, Now: s.o.lastFrag}
	c.mu.RUnlock()
	if s.o.hist == nil {
		return out
	}
	from, to, res := s.window(span)
	out.Resolution = res.String()
	list, err := s.o.hist.Range(seriesFrag, res, from, to)
	if err != nil {
		c.log.WithError(err).Warn("dashboard: fragmentation history")
		return out
	}
	var sum float64
	var n int64
	for _, b := range list {
		out.Points = append(out.Points, web.Point{At: b.Start, Value: b.Mean()})
		sum += b.Sum
		n += b.N
	}
	if n > 0 {
		out.Mean = sum / float64(n)
	}
	return out
}
