package controller

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// waitBuckets are the wait-time histogram's bounds, seconds: a minute to a
// week.
var waitBuckets = []float64{60, 300, 900, 1800, 3600, 7200, 14400, 28800, 43200, 86400, 172800, 259200, 604800}

// metricSet is what the controller updates as things happen; gauges of
// the live state are computed at scrape time by liveCollector.
type metricSet struct {
	wait         *prometheus.HistogramVec
	preempts     *prometheus.CounterVec
	preemptGPUs  *prometheus.CounterVec
	resvCreated  *prometheus.CounterVec
	resvDropped  *prometheus.CounterVec
	cycleSeconds prometheus.Histogram
	cycles       prometheus.Counter
	started      prometheus.Counter
	backfilled   prometheus.Counter
	deadlocks    prometheus.Counter
	considered   prometheus.Gauge
	frag         prometheus.Gauge
	ended        *prometheus.CounterVec

	// What sdiag reads too (sdiag.go).
	submitted   prometheus.Counter
	examined    prometheus.Counter
	apiSeconds  *prometheus.HistogramVec
	userCalls   *prometheus.CounterVec
	userSeconds *prometheus.CounterVec
	apiInFlight prometheus.Gauge
	agentCalls  prometheus.Gauge
}

func newMetricSet(reg *prometheus.Registry) *metricSet {
	m := &metricSet{
		wait: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "loam_job_wait_seconds",
			Help: "Time from submission (or requeue) to start of the jobs that started, per partition.", Buckets: waitBuckets},
			[]string{"partition"}),
		preempts: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "loam_preemptions_total",
			Help: "Jobs preempted, by the victim's tenant and partition and why (urgent, reclaim, deadlock)."},
			[]string{"tenant", "partition", "reason"}),
		preemptGPUs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "loam_preempted_gpu_seconds_total",
			Help: "GPU-seconds of run time preempted jobs had accumulated when preempted, by tenant."}, []string{"tenant"}),
		resvCreated: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "loam_reservations_created_total",
			Help: "Scheduler reservations created for blocked jobs, per partition."}, []string{"partition"}),
		resvDropped: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "loam_reservations_dropped_total",
			Help: "Scheduler reservations dropped, per partition and reason (timeout means expired)."}, []string{"partition", "reason"}),
		cycleSeconds: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "loam_scheduler_cycle_seconds",
			Help: "Wall time of a scheduling cycle, plan applied.", Buckets: prometheus.ExponentialBuckets(0.0005, 2, 16)}),
		cycles:     prometheus.NewCounter(prometheus.CounterOpts{Name: "loam_scheduler_cycles_total", Help: "Scheduling cycles run."}),
		started:    prometheus.NewCounter(prometheus.CounterOpts{Name: "loam_scheduler_jobs_started_total", Help: "Jobs the scheduler started."}),
		backfilled: prometheus.NewCounter(prometheus.CounterOpts{Name: "loam_scheduler_jobs_backfilled_total", Help: "Jobs started ahead of a higher-priority blocked job."}),
		deadlocks:  prometheus.NewCounter(prometheus.CounterOpts{Name: "loam_scheduler_deadlocks_broken_total", Help: "Wait-for cycles between reservations broken."}),
		considered: prometheus.NewGauge(prometheus.GaugeOpts{Name: "loam_scheduler_pending_considered", Help: "Pending jobs the last cycle examined."}),
		frag: prometheus.NewGauge(prometheus.GaugeOpts{Name: "loam_fragmentation_ratio",
			Help: "Share of free GPUs on nodes that are not entirely free, at the last cycle."}),
		ended: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "loam_jobs_ended_total",
			Help: "Jobs that ended, by partition and end state."}, []string{"partition", "state"}),
	}
	m.addDiag()
	reg.MustRegister(m.wait, m.preempts, m.preemptGPUs, m.resvCreated, m.resvDropped, m.cycleSeconds, m.cycles,
		m.started, m.backfilled, m.deadlocks, m.considered, m.frag, m.ended,
		m.submitted, m.examined, m.apiSeconds, m.userCalls, m.userSeconds, m.apiInFlight, m.agentCalls,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// metricsHandler serves the registry.
func (o *observer) metricsHandler() http.Handler {
	return promhttp.HandlerFor(o.reg, promhttp.HandlerOpts{ErrorLog: nil, Timeout: 10 * time.Second})
}

// liveCollector reports gauges of the live state when Prometheus scrapes:
// one pass over jobs and nodes under the read lock, never in a cycle.
type liveCollector struct {
	c *Controller
	m *metricSet
}

var (
	descJobs = prometheus.NewDesc("loam_jobs", "Jobs in the live table by state and partition (pending arrays count each task).",
		[]string{"state", "partition"}, nil)
	descGPUs = prometheus.NewDesc("loam_gpus", "GPUs by state: allocated, idle, unavailable (down or drained nodes).",
		[]string{"state"}, nil)
	descNodes      = prometheus.NewDesc("loam_nodes", "Nodes by state: busy, idle, drain, down.", []string{"state"}, nil)
	descTenantGPUs = prometheus.NewDesc("loam_tenant_gpus", "GPUs a tenant's jobs hold (owned, borrowed) and its idle guarantee others hold (lent).", []string{"tenant", "kind"}, nil)
	descGuarantee  = prometheus.NewDesc("loam_tenant_guarantee_gpus", "A tenant's guaranteed GPUs (tenants.conf Guarantee).", []string{"tenant"}, nil)
	descQuotaUtil  = prometheus.NewDesc("loam_tenant_quota_utilization", "GPUs a tenant holds over its guarantee (above 1 when borrowing).", []string{"tenant"}, nil)
	descResvHeld   = prometheus.NewDesc("loam_reservations", "Scheduler reservations held now, per partition.", []string{"partition"}, nil)
	descEstRatio   = prometheus.NewDesc("loam_estimate_runtime_ratio", "Actual over requested run time of recent jobs, which start estimates use.", nil, nil)
	descEstTrend   = prometheus.NewDesc("loam_estimate_trend_factor", "How much longer than predicted recent waits were, per predicted-wait horizon.", []string{"horizon"}, nil)
)

func (l *liveCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descJobs, descGPUs, descNodes, descTenantGPUs, descGuarantee, descQuotaUtil, descResvHeld, descEstRatio, descEstTrend} {
		ch <- d
	}
}

func (l *liveCollector) Collect(ch chan<- prometheus.Metric) {
	c := l.c
	c.mu.RLock()
	u := c.usageLocked()
	c.mu.RUnlock()
	g := prometheus.GaugeValue
	for k, n := range u.jobs {
		ch <- prometheus.MustNewConstMetric(descJobs, g, float64(n), k.state, k.partition)
	}
	ch <- prometheus.MustNewConstMetric(descGPUs, g, float64(u.gpus.Alloc), "allocated")
	ch <- prometheus.MustNewConstMetric(descGPUs, g, float64(u.gpus.Idle), "idle")
	ch <- prometheus.MustNewConstMetric(descGPUs, g, float64(u.gpus.Down), "unavailable")
	for state, n := range map[string]int{"busy": u.nodes.Busy, "idle": u.nodes.Idle, "drain": u.nodes.Drain, "down": u.nodes.Down} {
		ch <- prometheus.MustNewConstMetric(descNodes, g, float64(n), state)
	}
	for _, t := range u.tenants {
		ch <- prometheus.MustNewConstMetric(descTenantGPUs, g, float64(t.Owned), t.Name, "owned")
		ch <- prometheus.MustNewConstMetric(descTenantGPUs, g, float64(t.Borrowed), t.Name, "borrowed")
		ch <- prometheus.MustNewConstMetric(descTenantGPUs, g, float64(t.Lent), t.Name, "lent")
		if t.Guarantee > 0 {
			ch <- prometheus.MustNewConstMetric(descGuarantee, g, float64(t.Guarantee), t.Name)
			ch <- prometheus.MustNewConstMetric(descQuotaUtil, g, float64(t.Held)/float64(t.Guarantee), t.Name)
		}
	}
	for p, n := range u.resvHeld {
		ch <- prometheus.MustNewConstMetric(descResvHeld, g, float64(n), p)
	}
	st := c.obs.est.stats()
	ch <- prometheus.MustNewConstMetric(descEstRatio, g, st.Ratio)
	for h, f := range st.Trend {
		ch <- prometheus.MustNewConstMetric(descEstTrend, g, f, horizonNames[h])
	}
}

// horizonNames label the estimate's trend horizons.
var horizonNames = []string{"under_10m", "10m_1h", "1h_4h", "4h_12h", "12h_48h", "over_48h"}
