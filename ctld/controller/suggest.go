package controller

import (
	"context"
	"sync"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/history"
	"github.com/loamhpc/loam/pkg/suggest"
)

// suggestWindow is the history the suggestions read; suggestTTL how long
// a computed list is reused.
const (
	suggestWindow = 7 * 24 * time.Hour
	suggestTTL    = 5 * time.Minute
)

// suggestCache keeps the latest suggestions.
type suggestCache struct {
	mu    sync.Mutex
	at    time.Time
	items []suggest.Suggestion
}

// suggestions returns the suggestions, computing them when the cached
// list is older than suggestTTL.
func (o *observer) suggestions() ([]suggest.Suggestion, time.Time) {
	now := o.c.now()
	o.sugg.mu.Lock()
	defer o.sugg.mu.Unlock()
	if !o.sugg.at.IsZero() && now.Sub(o.sugg.at) < suggestTTL {
		return o.sugg.items, o.sugg.at
	}
	in, err := o.suggestInput(now)
	if err != nil {
		o.c.log.WithError(err).Warn("suggestions: history unreadable")
		return nil, now
	}
	o.sugg.items, o.sugg.at = suggest.Evaluate(in, suggest.Thresholds{}), now
	return o.sugg.items, now
}

// suggestInput reads the daily roll-ups of the window and the settings in
// force.
func (o *observer) suggestInput(now time.Time) (*suggest.Input, error) {
	in := &suggest.Input{Now: now, Window: suggestWindow, PreemptExemptTime: o.c.confNow().conf.PreemptExemptTime}
	if o.hist == nil {
		return in, nil
	}
	// The window's days, today's included: 7 calendar days.
	from := now.Add(-suggestWindow + 24*time.Hour).Truncate(24 * time.Hour)
	r := &dailyReader{h: o.hist, from: from, to: now.Add(time.Minute)}
	started, waits := r.byLabel(seriesStarted), r.byLabel(seriesWaitSum)
	created, expired := r.totals(seriesResvNew), r.totals(seriesResvExpire)
	for _, p := range o.c.confNow().conf.Partitions {
		q := suggest.Queue{Name: p.Name, AgingRate: p.Queue.AgingRate, AgingCap: p.Queue.AgingCap,
			ReservationTimeout:  p.Queue.ReservationTimeout,
			ReservationsCreated: int(created[p.Name].Sum), ReservationsExpired: int(expired[p.Name].Sum)}
		q.MeanWait = ratioSeries(waits[p.Name], started[p.Name])
		in.Queues = append(in.Queues, q)
	}
	held, borrowed := r.byLabel(seriesHeld), r.byLabel(seriesBorrowed)
	for _, t := range o.c.confNow().conf.Tenants {
		in.Tenants = append(in.Tenants, suggest.Tenant{Name: t.Name, Guarantee: int(max(t.Guarantee["gres/gpu"], 0)),
			Used: meanSeries(held[t.Name]), Borrowed: meanSeries(borrowed[t.Name])})
	}
	in.Fragmentation = meanSeries(r.byLabel(seriesFrag)[""])
	for _, b := range r.totals(seriesPreempted) {
		in.Preemption.Count += int(b.Sum)
	}
	for _, b := range r.totals(seriesYoung) {
		in.Preemption.Young += int(b.Sum)
	}
	for _, b := range r.totals(seriesLost) {
		in.Preemption.LostGPUHours += b.Sum
	}
	in.Preemption.YoungRun = youngRun
	in.WholeNodeWaits = int(r.totals(seriesWholeWaits)[""].Sum)
	return in, r.err
}

// dailyReader reads day roll-ups, keeping the first error.
type dailyReader struct {
	h        *history.DB
	from, to time.Time
	err      error
}

func (r *dailyReader) byLabel(series string) map[string][]history.Bucket {
	list, err := r.h.Range(series, history.Day, r.from, r.to)
	if err != nil && r.err == nil {
		r.err = err
	}
	out := map[string][]history.Bucket{}
	for _, b := range list {
		out[b.Label] = append(out[b.Label], b)
	}
	return out
}

func (r *dailyReader) totals(series string) map[string]history.Bucket {
	out, err := r.h.Totals(series, history.Day, r.from, r.to)
	if err != nil && r.err == nil {
		r.err = err
	}
	return out
}

// meanSeries is each day's mean (a gauge).
func meanSeries(bs []history.Bucket) []suggest.Sample {
	var out []suggest.Sample
	for _, b := range bs {
		out = append(out, suggest.Sample{Day: b.Start, Value: b.Mean()})
	}
	return out
}

// ratioSeries is each day's num.Sum / den.Sum, on days den has events.
func ratioSeries(num, den []history.Bucket) []suggest.Sample {
	sums := map[int64]float64{}
	for _, b := range num {
		sums[b.Start.Unix()] = b.Sum
	}
	var out []suggest.Sample
	for _, b := range den {
		if b.Sum > 0 {
			out = append(out, suggest.Sample{Day: b.Start, Value: sums[b.Start.Unix()] / b.Sum})
		}
	}
	return out
}

// handleSuggestions answers scontrol show suggestions (operators only).
func (c *Controller) handleSuggestions(_ context.Context, id auth.Identity, _ []byte) (any, *api.Error) {
	if err := c.requireOperator(id, "show suggestions"); err != nil {
		return nil, err
	}
	items, at := c.obs.suggestions()
	out := &api.SuggestionsResponse{Generated: at.Unix(), Window: int64(suggestWindow / time.Second), Suggestions: []api.Suggestion{}}
	for _, s := range items {
		out.Suggestions = append(out.Suggestions, api.Suggestion{Rule: s.Rule, Subject: s.Subject, File: s.File, Line: s.Line,
			Key: s.Key, From: s.From, To: s.To, Action: s.Action, Why: s.Why})
	}
	return out, nil
}
