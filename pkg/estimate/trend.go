package estimate

import (
	"math"
	"time"
)

// Horizons of the release-trend factor: predicted waits under 10 min,
// 10 min-1 h, 1-4 h, 4-12 h, 12-48 h, and longer. The short ones are
// narrow because jobs predicted to start now and jobs predicted in an hour
// fare very differently.
const numHorizons = 6

var horizonEdges = [numHorizons - 1]int64{600, 3600, 4 * 3600, 12 * 3600, 48 * 3600}

// horizonCentre is each horizon's typical predicted wait (seconds), where
// its factor applies exactly; waits between centres interpolate.
var horizonCentre = [numHorizons]float64{180, 1500, 2 * 3600, 7 * 3600, 24 * 3600, 96 * 3600}

// maxLogTrend bounds the factor to [1/4, 4]: one odd stretch of history
// must not make estimates absurd.
var maxLogTrend = math.Log(4)

// trendFloor is added to both waits of a ratio so that jobs predicted to
// start now do not divide by zero (seconds).
const trendFloor = 300

func horizonOf(wait int64) int {
	for h, e := range horizonEdges {
		if wait < e {
			return h
		}
	}
	return numHorizons - 1
}

// trendStep is how far one observation moves a horizon's log factor: the
// factor tracks the median ratio of actual to predicted waits (what the
// median error depends on), not the mean, which the many jobs that start
// at once would drag down.
const trendStep = 0.05

// track moves the mean one step towards x (a running median).
func (m *ewma) track(x, step float64) {
	m.n++
	switch {
	case x > m.v:
		m.v += min(step, x-m.v)
	case x < m.v:
		m.v -= min(step, m.v-x)
	}
}

// probe is one remembered prediction: made at made (Unix seconds) for a
// start at pred, before the trend factor.
type probe struct {
	made, pred int64
}

// probeSet is what is remembered of a pending job: its first prediction
// in each horizon.
type probeSet struct {
	at   [numHorizons]probe
	seen uint64
}

// probes returns the job's set, creating it.
func (m *Model) probes(id uint32) *probeSet {
	ps := m.probe[id]
	if ps == nil {
		ps = &probeSet{}
		m.probe[id] = ps
	}
	ps.seen = m.gen
	return ps
}

// remember keeps the first prediction a job gets in each horizon.
func (m *Model) remember(ps *probeSet, now, pred int64) {
	h := horizonOf(pred - now)
	if ps.at[h].made == 0 {
		ps.at[h] = probe{made: now, pred: pred}
	}
}

// ObserveStart learns from a job that started at: each prediction it had
// compares with the wait it really had.
func (m *Model) ObserveStart(id uint32, at time.Time) {
	ps := m.probe[id]
	if ps == nil {
		return
	}
	delete(m.probe, id)
	t := at.Unix()
	for h, p := range ps.at {
		if p.made == 0 {
			continue
		}
		actual := float64(max(t-p.made, 0) + trendFloor)
		predicted := float64(max(p.pred-p.made, 0) + trendFloor)
		m.trend[h].track(math.Log(actual/predicted), trendStep)
	}
}

// Forget drops what is remembered of a job that left the queue without
// starting.
func (m *Model) Forget(id uint32) { delete(m.probe, id) }

// sweep forgets jobs that were not in the latest estimate: they left the
// queue without the caller saying so.
func (m *Model) sweep() {
	for id, ps := range m.probe {
		if ps.seen != m.gen {
			delete(m.probe, id)
		}
	}
}
