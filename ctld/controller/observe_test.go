package controller

import (
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/history"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// planned decorates the fake engine's cycles with what the real
// scheduler's plan adds: estimates, fragmentation, reservation changes.
type planned struct {
	*FIFO
	frag    float64
	est     time.Duration // pending jobs' planned start, from now
	changes []ResvChange
}

func (p *planned) Cycle(now time.Time) *CycleResult {
	res := p.FIFO.Cycle(now)
	res.Fragmentation, res.ResvChanges = p.frag, p.changes
	p.changes = nil
	for i := range res.Pending {
		if p.est > 0 && res.Pending[i].Reason == job.ReasonResources {
			res.Pending[i].EstStart = now.Add(p.est)
			res.Pending[i].Partition = "normal"
		}
	}
	return res
}

func withPlan(h *harness) *planned {
	p := &planned{FIFO: h.eng}
	h.c.eng = p
	return p
}

// withHistory gives the observer a history database and a writer queue
// the test drains itself.
func withHistory(t *testing.T, h *harness) {
	t.Helper()
	db, err := history.Open(filepath.Join(h.dir, "history.db"), history.Retention{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	h.c.obs.hist, h.c.obs.writes = db, make(chan histBatch, 1000)
}

// flushHistory writes what the ticks queued.
func flushHistory(h *harness) {
	o := h.c.obs
	close(o.writes)
	o.writeLoop()
	o.writes = make(chan histBatch, 1000)
}

func scrape(t *testing.T, h *harness) string {
	t.Helper()
	resp, err := h.hc.Get(h.srv.URL + api.PathMetrics)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("/metrics: %d %s", resp.StatusCode, b)
	}
	return string(b)
}

func gpuJob(n int) job.Request {
	return simpleJob(func(r *job.Request) { r.GRES = []resource.GRES{{Name: "gpu", Count: int64(n)}} })
}

func withMods(r job.Request, mods ...func(*job.Request)) job.Request {
	for _, m := range mods {
		m(&r)
	}
	return r
}

func TestMetricsFollowTheCycles(t *testing.T) {
	h := newHarness(t)
	p := withPlan(h)
	n := h.node("n01")
	h.node("n02")
	p.frag = 0.25
	p.changes = []ResvChange{{JobID: 7, Partition: "normal", Created: true}, {JobID: 6, Partition: "normal", Reason: DropTimeout}}
	h.clock.Advance(time.Minute)
	run := h.mustSubmit(alice, gpuJob(4))
	h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	h.clock.Advance(90 * time.Second)
	h.cycle()
	n.Launch(t, run, 5*time.Second)
	expect(t, scrape(t, h),
		`loam_job_wait_seconds_bucket{partition="normal",le="60"} 0`,
		`loam_job_wait_seconds_bucket{partition="normal",le="300"} 1`,
		`loam_job_wait_seconds_count{partition="normal"} 1`,
		`loam_jobs{partition="normal",state="PENDING"} 1`,
		`loam_jobs{partition="normal",state="RUNNING"} 1`,
		`loam_gpus{state="allocated"} 4`,
		`loam_gpus{state="idle"} 4`,
		`loam_nodes{state="busy"} 1`,
		`loam_tenant_gpus{kind="owned",tenant=""} 4`,
		`loam_fragmentation_ratio 0.25`,
		`loam_reservations_created_total{partition="normal"} 1`,
		`loam_reservations_dropped_total{partition="normal",reason="timeout"} 1`,
		`loam_scheduler_cycles_total 1`,
		`loam_scheduler_cycle_seconds_count 1`,
		`loam_estimate_runtime_ratio 0.5`,
		`go_goroutines`,
		`process_resident_memory_bytes`)
	h.clock.Advance(10 * time.Minute)
	h.eng.Preempt(run, 99, true, 30*time.Second)
	h.cycle()
	expect(t, scrape(t, h),
		`loam_preemptions_total{partition="normal",reason="urgent",tenant=""} 1`,
		`loam_preempted_gpu_seconds_total{tenant=""} 2400`)
}

// expect fails for every line the scrape lacks.
func expect(t *testing.T, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("/metrics lacks %q", w)
		}
	}
	if t.Failed() {
		t.Log(got)
	}
}

func TestHistorySamplesEveryMinute(t *testing.T) {
	h := newHarness(t)
	withHistory(t, h)
	withPlan(h)
	n := h.node("n01")
	n2 := h.node("n02")
	// tick advances the clock in steps the nodes' timeout allows.
	tick := func(d time.Duration) {
		for ; d > 0; d -= 30 * time.Second {
			n.Register()
			n2.Register()
			h.tick(min(d, 30*time.Second))
		}
	}
	start := h.clock.Now()
	h.clock.Advance(start.Truncate(time.Minute).Add(time.Minute + 10*time.Second).Sub(start))
	tick(time.Minute) // the first tick only marks the minute
	id := h.mustSubmit(alice, gpuJob(4))
	tick(20 * time.Minute)
	h.cycle() // started after a 20 min wait
	n.Launch(t, id, 5*time.Second)
	tick(3 * time.Minute)
	flushHistory(h)
	db := h.c.obs.hist
	from, to := start.Add(-time.Hour), start.Add(time.Hour)
	tot, err := db.Totals(seriesStarted, history.Minute, from, to)
	if err != nil || tot["normal"].Sum != 1 {
		t.Errorf("started: %+v (%v)", tot, err)
	}
	buckets, _ := db.Totals(seriesWaitBucket, history.Minute, from, to)
	if b := buckets[bucketLabel("normal", waitBucket(20*60))]; b.Sum != 1 {
		t.Errorf("wait buckets %+v", buckets)
	}
	whole, _ := db.Totals(seriesWholeWaits, history.Minute, from, to)
	if whole[""].Sum != 1 {
		t.Errorf("a whole-node job that waited 20 min: %+v", whole)
	}
	gpus, _ := db.Range(seriesGPUsAlloc, history.Minute, from, to)
	if len(gpus) != 24 || gpus[len(gpus)-1].Max != 4 || gpus[len(gpus)-4].Max != 0 {
		t.Errorf("allocated GPU samples %+v", gpus)
	}
	hours, _ := db.Range(seriesGPUsTotal, history.Hour, from, to)
	var n64 int64
	for _, b := range hours {
		n64 += b.N
	}
	if n64 != 24 {
		t.Errorf("hour roll-ups cover %d minutes, want 24", n64)
	}
}

func TestEstimatesLearnFromEndedJobs(t *testing.T) {
	h := newHarness(t)
	p := withPlan(h)
	p.est = 10 * time.Hour
	n := h.node("n01")
	n2 := h.node("n02")
	limit := func(r *job.Request) { d := 10 * time.Hour; r.TimeLimit = &d }
	// Three jobs of alice's ran a tenth of their 10 h limit.
	for range 3 {
		id := h.mustSubmit(alice, withMods(gpuJob(4), limit))
		h.cycle()
		n.Launch(t, id, 5*time.Second)
		h.clock.Advance(time.Hour)
		if err := n.End(id, job.ExitCode{}); err != nil {
			t.Fatal(err)
		}
		h.waitState(fmt.Sprint(id), job.Completed)
	}
	// Two jobs fill both nodes; a third waits behind them.
	a := h.mustSubmit(alice, withMods(gpuJob(4), limit))
	b := h.mustSubmit(alice, withMods(gpuJob(4), limit))
	h.cycle()
	n.Launch(t, a, 5*time.Second)
	n2.Launch(t, b, 5*time.Second)
	w := h.mustSubmit(alice, withMods(gpuJob(4), limit))
	h.cycle()
	if got := h.job(fmt.Sprint(w)).StartTime; got != h.clock.Now().Add(10*time.Hour).Unix() {
		t.Fatalf("before the estimator ran, the plan's start: %d", got)
	}
	h.c.obs.est.run()
	got := time.Unix(h.job(fmt.Sprint(w)).EstimatedStart, 0).Sub(h.clock.Now())
	// The running jobs are expected to free after about a tenth (shrunk
	// towards the prior) of their limit, not after 10 h.
	if got <= 0 || got > 3*time.Hour {
		t.Errorf("corrected estimate %v from now, want well under the 10 h limit", got)
	}
	if r := h.c.obs.est.stats().Ratio; r > 0.35 {
		t.Errorf("learned ratio %.2f", r)
	}
}

func TestSuggestionsFromHistory(t *testing.T) {
	h := newHarness(t)
	withHistory(t, h)
	db := h.c.obs.hist
	now := h.clock.Now()
	// Seven days in which the mean wait of "normal" rose 1 h -> 7 h.
	for d := 6; d >= 0; d-- {
		at := now.Add(-time.Duration(d) * 24 * time.Hour)
		wait := float64(7-d) * 3600
		if err := db.Record(at, []history.Point{{Series: seriesStarted, Label: "normal", Value: 10},
			{Series: seriesWaitSum, Label: "normal", Value: 10 * wait}}); err != nil {
			t.Fatal(err)
		}
	}
	var out api.SuggestionsResponse
	if err := h.raw(0, http.MethodGet, api.PathSuggestions, nil, &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Suggestions) != 1 || out.Suggestions[0].Key != "AgingRate" || !strings.Contains(out.Suggestions[0].Why, "mean wait rose 1.5 h -> 6.5 h over 7 days") {
		t.Errorf("suggestions %+v", out.Suggestions)
	}
	if err := h.raw(alice, http.MethodGet, api.PathSuggestions, nil, nil); err == nil || err.Code != api.CodeAccessDenied {
		t.Errorf("a user asking: %v", err)
	}
}
