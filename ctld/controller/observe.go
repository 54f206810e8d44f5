package controller

import (
	"context"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/loamhpc/loam/ctld/web"
	"github.com/loamhpc/loam/pkg/estimate"
	"github.com/loamhpc/loam/pkg/history"
)

// Observability (R13-R15) hangs off the controller as one observer:
//
//	cycle, job end, housekeeping (under c.mu) --> metrics (counters, histograms)
//	                                          --> minute accumulator --tick--> history writer goroutine --> history.db
//	                                          --> estimator events   --------> estimator goroutine --> corrected estimates
//	/metrics scrape  --> gauges computed from live state under c.mu.RLock
//	/ui/ pages, /v1/suggestions --> live state (RLock) + history queries
//
// Nothing here runs inside a scheduling cycle but O(plan) bookkeeping: the
// estimator and the history writer work on their own goroutines, and the
// gauges are computed when Prometheus scrapes.
type observer struct {
	c   *Controller
	reg *prometheus.Registry
	m   *metricSet
	// diag is sdiag's period and what Prometheus does not keep (sdiag.go).
	diag *diagStats

	// acc is this minute's events; guarded by c.mu.
	acc        minuteAcc
	lastSample time.Time
	lastFrag   float64
	gpusFor    *confState     // the configuration gpusOf was built for
	gpusOf     map[string]int // GPUs per node

	hist   *history.DB // nil until started, or when it could not open
	writes chan histBatch
	est    *estimator
	sugg   suggestCache
	web    atomic.Pointer[web.Server]
	tok    atomic.Pointer[web.Tokens]
	wg     sync.WaitGroup
	ready  atomic.Bool
}

func newObserver(c *Controller) *observer {
	o := &observer{c: c, reg: prometheus.NewRegistry(), acc: newMinuteAcc()}
	o.m = newMetricSet(o.reg)
	o.diag = newDiagStats(c.now())
	o.reg.MustRegister(&liveCollector{c: c, m: o.m})
	o.est = newEstimator(c, estimate.Config{})
	o.web.Store(web.New(webSource{o}, nil))
	return o
}

// open opens the history database and the dashboard's token secret,
// before the controller serves requests. A history that cannot be opened
// is logged and left out: scheduling does not depend on it.
func (o *observer) open() {
	dir := o.c.confNow().conf.StateSaveLocation
	h, err := history.Open(filepath.Join(dir, history.FileName), history.Retention{})
	if err != nil {
		o.c.log.WithError(err).Warn("history unavailable: dashboard history and suggestions are off")
	} else {
		o.hist = h
	}
	tokens, err := web.LoadTokens(dir)
	if err != nil {
		o.c.log.WithError(err).Warn("dashboard tokens unavailable: the dashboard serves the Unix socket only")
	}
	if tokens != nil {
		o.tok.Store(tokens)
		o.web.Store(web.New(webSource{o}, tokens))
	}
	o.writes = make(chan histBatch, 64)
	o.est.seed()
}

// close closes what open opened, when the controller stops before start.
func (o *observer) close() {
	if o.hist != nil {
		o.hist.Close()
	}
}

// start runs the history writer and the estimator until ctx ends.
func (o *observer) start(ctx context.Context) {
	o.wg.Add(2)
	go func() { defer o.wg.Done(); o.writeLoop() }()
	go func() { defer o.wg.Done(); o.est.loop(ctx) }()
	o.ready.Store(true)
}

// stop waits for the goroutines (ctx is already cancelled) and closes
// the history.
func (o *observer) stop() {
	if !o.ready.Load() {
		return
	}
	close(o.writes)
	o.wg.Wait()
	if o.hist != nil {
		if err := o.hist.Close(); err != nil {
			o.c.log.WithError(err).Warn("close history")
		}
	}
}

// tokens returns the dashboard's token keeper, nil before start or when
// its secret could not be read.
func (o *observer) tokens() *web.Tokens { return o.tok.Load() }
