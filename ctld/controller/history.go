package controller

import (
	"strconv"
	"time"

	"github.com/loamhpc/loam/pkg/history"
)

// History series (pkg/history), one sample per minute. Counters hold the
// minute's events (their hour and day roll-ups sum them); gauges hold the
// state at the end of the minute (roll-ups average them).
const (
	seriesPending    = "pending"          // gauge, label partition: pending jobs (array tasks count)
	seriesRunning    = "running"          // gauge, label partition
	seriesStarted    = "started"          // counter, label partition: jobs started
	seriesWaitSum    = "wait_sum"         // counter, label partition: seconds waited by the jobs started
	seriesWaitBucket = "wait_bucket"      // counter, label "partition|le": jobs started by wait bucket
	seriesResvHeld   = "resv_held"        // gauge, label partition
	seriesResvNew    = "resv_created"     // counter, label partition
	seriesResvExpire = "resv_expired"     // counter, label partition: dropped by ReservationTimeout
	seriesHeld       = "tenant_gpus"      // gauge, label tenant: GPUs held
	seriesBorrowed   = "tenant_borrowed"  // gauge, label tenant
	seriesLent       = "tenant_lent"      // gauge, label tenant
	seriesUtil       = "tenant_util"      // gauge, label tenant: held / guarantee (tenants with one)
	seriesPreempted  = "preempted"        // counter, label tenant: victims
	seriesYoung      = "preempt_young"    // counter, label tenant: victims that had run under youngRun
	seriesLost       = "preempt_gpuh"     // counter, label tenant: GPU-hours of run time preempted
	seriesFrag       = "frag"             // gauge: mean fragmentation rate of the minute's cycles
	seriesGPUsAlloc  = "gpus_alloc"       // gauge
	seriesGPUsTotal  = "gpus_total"       // gauge
	seriesWholeWaits = "whole_node_waits" // counter: whole-node jobs that started after waiting over wholeWait
)

// youngRun: a preemption victim that ran less than this lost little but
// was barely started (thrash). wholeWait: a whole-node job that waited this
// long was kept waiting, perhaps by fragmentation.
const (
	youngRun  = 30 * time.Minute
	wholeWait = 5 * time.Minute
)

// waitEdges are the wait buckets' upper bounds in seconds (the last is
// open), with their labels.
var (
	waitEdges  = []int64{60, 300, 900, 3600, 14400, 43200, 86400, 259200}
	waitLabels = []string{"<1m", "1-5m", "5-15m", "15m-1h", "1-4h", "4-12h", "12-24h", "1-3d", ">3d"}
)

// waitBucket is the index of the bucket of a wait in seconds.
func waitBucket(sec int64) int {
	for i, e := range waitEdges {
		if sec < e {
			return i
		}
	}
	return len(waitEdges)
}

// minuteAcc gathers the events of the current minute; guarded by c.mu.
type minuteAcc struct {
	fragSum     float64
	fragN       int
	started     map[string]int
	waitSum     map[string]float64
	waitBuckets map[string]int // "partition|bucket index"
	wholeWaits  int
	resvNew     map[string]int
	resvExpired map[string]int
	preempted   map[string]int
	young       map[string]int
	lostGPUh    map[string]float64
}

func newMinuteAcc() minuteAcc {
	return minuteAcc{started: map[string]int{}, waitSum: map[string]float64{}, waitBuckets: map[string]int{},
		resvNew: map[string]int{}, resvExpired: map[string]int{}, preempted: map[string]int{},
		young: map[string]int{}, lostGPUh: map[string]float64{}}
}

// histBatch is one minute's points for the writer.
type histBatch struct {
	at  time.Time
	pts []history.Point
}

// tick runs in housekeeping (c.mu held): when a minute has passed, the
// events gathered and the state now become that minute's samples.
func (o *observer) tick(now time.Time) {
	minute := now.Truncate(time.Minute)
	if o.lastSample.IsZero() {
		o.lastSample = minute
		return
	}
	if !minute.After(o.lastSample) {
		return
	}
	b := histBatch{at: o.lastSample, pts: o.points(o.c.usageLocked())}
	o.acc, o.lastSample = newMinuteAcc(), minute
	if o.writes == nil {
		return
	}
	select {
	case o.writes <- b:
	default:
		o.c.log.Warn("history writer behind: a minute of samples dropped")
	}
}

// points turns the minute's events and the state now into samples.
func (o *observer) points(u *usageNow) []history.Point {
	a := &o.acc
	var pts []history.Point
	add := func(series, label string, v float64) {
		pts = append(pts, history.Point{Series: series, Label: label, Value: v})
	}
	for name, p := range u.parts {
		add(seriesPending, name, float64(p.pending))
		add(seriesRunning, name, float64(p.running))
		add(seriesResvHeld, name, float64(u.resvHeld[name]))
	}
	for name, n := range a.started {
		add(seriesStarted, name, float64(n))
		add(seriesWaitSum, name, a.waitSum[name])
	}
	for k, n := range a.waitBuckets {
		add(seriesWaitBucket, k, float64(n))
	}
	for name, n := range a.resvNew {
		add(seriesResvNew, name, float64(n))
	}
	for name, n := range a.resvExpired {
		add(seriesResvExpire, name, float64(n))
	}
	for _, t := range u.tenants {
		add(seriesHeld, t.Name, float64(t.Held))
		add(seriesBorrowed, t.Name, float64(t.Borrowed))
		add(seriesLent, t.Name, float64(t.Lent))
		if t.Guarantee > 0 {
			add(seriesUtil, t.Name, float64(t.Held)/float64(t.Guarantee))
		}
	}
	for name, n := range a.preempted {
		add(seriesPreempted, name, float64(n))
		add(seriesYoung, name, float64(a.young[name]))
		add(seriesLost, name, a.lostGPUh[name])
	}
	frag := o.lastFrag
	if a.fragN > 0 {
		frag = a.fragSum / float64(a.fragN)
	}
	add(seriesFrag, "", frag)
	add(seriesGPUsAlloc, "", float64(u.gpus.Alloc))
	add(seriesGPUsTotal, "", float64(u.gpus.Total))
	if a.wholeWaits > 0 {
		add(seriesWholeWaits, "", float64(a.wholeWaits))
	}
	return pts
}

// writeLoop stores batches and prunes once an hour (of the controller's
// clock).
func (o *observer) writeLoop() {
	var pruned time.Time
	for b := range o.writes {
		if o.hist == nil {
			continue
		}
		if err := o.hist.Record(b.at, b.pts); err != nil {
			o.c.log.WithError(err).Warn("history: record failed")
		}
		if b.at.Sub(pruned) >= time.Hour {
			if _, err := o.hist.Prune(b.at); err != nil {
				o.c.log.WithError(err).Warn("history: prune failed")
			}
			pruned = b.at
		}
	}
}

func bucketLabel(partition string, i int) string { return partition + "|" + strconv.Itoa(i) }
