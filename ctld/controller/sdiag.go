package controller

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/job"
)

// sdiag's statistics come from the Prometheus metrics (metrics.go): a
// counter only grows, so a reset records the counters' values as a
// baseline and sdiag reports what they gained since. What Prometheus does
// not keep (the longest cycle since the reset, the reservation table's
// sizes) is kept here.
type diagStats struct {
	mu       sync.Mutex
	since    time.Time
	base     diagCounters
	maxCycle time.Duration
	lastAt   time.Time // when the last cycle ran
	resvLast int
	resvSum  int64
}

// diagCounters are the counters' values at one moment.
type diagCounters struct {
	submitted, started, backfilled, cycles, examined float64
	cycleSecs                                        float64
	ended                                            map[string]float64 // by end state
	paths                                            map[string]callStat
	users                                            map[string]callStat // by uid
}

// callStat is the requests of one path or user: how many, how long.
type callStat struct{ count, secs float64 }

func newDiagStats(now time.Time) *diagStats { return &diagStats{since: now} }

// cycle records a cycle's reservation table (c.mu held).
func (d *diagStats) cycle(now time.Time, resv int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.lastAt, d.resvLast = now, resv
	d.resvSum += int64(resv)
}

// took records a cycle's wall time.
func (d *diagStats) took(t time.Duration) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.maxCycle = max(d.maxCycle, t)
}

// called records an API request: its path, its caller, how long it took.
func (m *metricSet) called(path string, uid uint32, took time.Duration) {
	s := took.Seconds()
	m.apiSeconds.WithLabelValues(path).Observe(s)
	u := strconv.FormatUint(uint64(uid), 10)
	m.userCalls.WithLabelValues(u).Inc()
	m.userSeconds.WithLabelValues(u).Add(s)
}

// addDiag makes the metrics sdiag reads besides the scheduler's.
func (m *metricSet) addDiag() {
	m.submitted = prometheus.NewCounter(prometheus.CounterOpts{Name: "loam_jobs_submitted_total",
		Help: "Jobs submitted (sbatch, salloc, srun)."})
	m.examined = prometheus.NewCounter(prometheus.CounterOpts{Name: "loam_scheduler_jobs_examined_total",
		Help: "Pending jobs the scheduling cycles examined, summed over the cycles."})
	m.apiSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "loam_api_request_seconds",
		Help: "Time to serve an API request, per path.", Buckets: prometheus.ExponentialBuckets(0.0001, 4, 10)},
		[]string{"path"})
	m.userCalls = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "loam_api_user_requests_total",
		Help: "API requests served, per caller's uid."}, []string{"uid"})
	m.userSeconds = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "loam_api_user_request_seconds_total",
		Help: "Time spent serving API requests, per caller's uid."}, []string{"uid"})
	m.apiInFlight = prometheus.NewGauge(prometheus.GaugeOpts{Name: "loam_api_requests_in_flight",
		Help: "API requests being served."})
	m.agentCalls = prometheus.NewGauge(prometheus.GaugeOpts{Name: "loam_noded_calls_in_flight",
		Help: "Calls to node daemons in flight."})
}

// handleStats answers sdiag; a reset is for operators, as in Slurm.
func (c *Controller) handleStats(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.StatsRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if in.Reset {
		if aerr := c.requireOperator(id, "resetting the statistics"); aerr != nil {
			return nil, aerr
		}
	}
	now := c.now()
	out := c.obs.stats(now, in.Reset)
	out.JobStatesTime = now.Unix()
	c.mu.RLock()
	for _, r := range c.jobs {
		switch {
		case r.pending():
			out.JobsPending++
		case r.St.State == job.Running:
			out.JobsRunning++
		}
	}
	c.mu.RUnlock()
	out.CycleLast = time.Duration(c.lastCyc.Load()).Microseconds()
	out.TimeLatency = clockLatency()
	return out, nil
}

// clockLatency is how long 1000 reads of the clock take, microseconds.
func clockLatency() int64 {
	start := time.Now()
	for range 1000 {
		_ = time.Now()
	}
	return time.Since(start).Microseconds()
}

// stats reads the counters' gains since the last reset, and with reset
// starts a new period first.
func (o *observer) stats(now time.Time, reset bool) *api.StatsResponse {
	d := o.diag
	cur := o.m.diagCounters()
	d.mu.Lock()
	if reset {
		d.since, d.base, d.maxCycle, d.resvSum = now, cur, 0, 0
	}
	base, since, maxCycle := d.base, d.since, d.maxCycle
	out := &api.StatsResponse{ReqTime: now.Unix(), ReqTimeStart: since.Unix(), ResvLast: d.resvLast, ResvSum: d.resvSum}
	if !d.lastAt.IsZero() {
		out.LastCycleAt = d.lastAt.Unix()
	}
	d.mu.Unlock()
	out.ServerThreads = int(gaugeValue(o.m.apiInFlight))
	out.AgentCalls = int(gaugeValue(o.m.agentCalls))
	out.JobsSubmitted = gain(cur.submitted, base.submitted)
	out.JobsStarted = gain(cur.started, base.started)
	for state, n := range cur.ended {
		n := gain(n, base.ended[state])
		switch job.State(state) {
		case job.Cancelled:
			out.JobsCanceled += n
		case job.NodeFail, job.BootFail:
			out.JobsFailed += n
		default:
			out.JobsCompleted += n
		}
	}
	out.Cycles = gain(cur.cycles, base.cycles)
	out.CycleMax = maxCycle.Microseconds()
	out.CycleSum = gain(cur.cycleSecs*1e6, base.cycleSecs*1e6)
	out.DepthSum = gain(cur.examined, base.examined)
	out.QueueLen = int(gaugeValue(o.m.considered))
	out.Backfilled = gain(cur.backfilled, base.backfilled)
	out.RPCTypes, out.RPCUsers = callGains(cur, base)
	return out
}

// callGains are the requests per path and per user since base.
func callGains(cur, base diagCounters) ([]api.RPCTypeStat, []api.RPCUserStat) {
	var types []api.RPCTypeStat
	for path, s := range cur.paths {
		b := base.paths[path]
		if n := gain(s.count, b.count); n > 0 {
			types = append(types, api.RPCTypeStat{Path: path, ID: api.PathID(path), Count: n, Time: gain(s.secs*1e6, b.secs*1e6)})
		}
	}
	var users []api.RPCUserStat
	for uid, s := range cur.users {
		b := base.users[uid]
		n := gain(s.count, b.count)
		id, err := strconv.ParseUint(uid, 10, 32)
		if n > 0 && err == nil {
			users = append(users, api.RPCUserStat{UID: uint32(id), Count: n, Time: gain(s.secs*1e6, b.secs*1e6)})
		}
	}
	return types, users
}

// gain is what a counter gained since base, rounded down.
func gain(cur, base float64) int64 { return int64(max(cur-base, 0)) }

// served records an authenticated request that started at start, once
// its answer is written (sdiag's RPC statistics).
func (c *Controller) served(path string, id auth.Identity, start time.Time) {
	c.obs.m.called(path, id.UID, time.Since(start))
}
