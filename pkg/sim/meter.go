package sim

import (
	"math"
	"time"
)

// meter integrates the time-weighted metrics of a replay: GPU utilization
// and fragmentation over the arrival window, and per tenant the GPUs held
// and the demand-aware fair share while the tenant has demand.
type meter struct {
	capacity int // GPUs of the cluster
	// window is [first submission, last submission], the span over which
	// utilization and fragmentation are averaged (the whole replay when all
	// jobs arrive at once).
	winStart, winEnd time.Duration
	last             time.Duration
	begun            bool

	busy     int // GPUs held now
	busySec  float64
	busyWin  float64
	frag     float64
	fragWin  float64
	fragSpan float64

	tenants []string
	tIdx    map[string]int
	weight  []float64
	cap     []float64 // GPU cap, -1 none
	held    []int     // GPUs held now
	queued  []int     // GPUs of pending jobs that fit the tenant's share
	// fits is the largest job that counts as demand: the tenant's weighted
	// share of the cluster's GPUs (at least one node's worth).
	fits  []int
	fair  []float64 // current fair share (GPUs); valid unless dirty
	dirty bool

	usedSec   []float64 // GPU-seconds held, whole replay
	heldWhile []float64 // GPU-seconds held while the tenant had demand
	fairWhile []float64 // fair GPU-seconds while it had demand
	demandSec []float64 // seconds with demand
	preempts  []int
	lostSec   []float64
}

func newMeter(o Options, jobs []jobRun) *meter {
	m := &meter{tIdx: map[string]int{}, dirty: true}
	for _, n := range o.Nodes {
		m.capacity += n.GPUs
	}
	if len(jobs) > 0 {
		m.winStart, m.winEnd = jobs[0].Rec.Submit, jobs[0].Rec.Submit
		for _, j := range jobs {
			m.winStart = min(m.winStart, j.Rec.Submit)
			m.winEnd = max(m.winEnd, j.Rec.Submit)
		}
	}
	js := make([]Job, len(jobs))
	for i, j := range jobs {
		js[i] = *j.Job
	}
	m.tenants = sortedTenants(o.Config, js)
	n := len(m.tenants)
	m.weight, m.cap = make([]float64, n), make([]float64, n)
	for i, name := range m.tenants {
		m.tIdx[name] = i
		m.weight[i], m.cap[i] = 1, -1
		for _, t := range o.Config.Tenants {
			if t.Name == name {
				m.weight[i] = t.Weight
				if t.Cap.GPU >= 0 {
					m.cap[i] = float64(t.Cap.GPU)
				}
			}
		}
	}
	m.held, m.queued, m.fair = make([]int, n), make([]int, n), make([]float64, n)
	m.fits = make([]int, n)
	perNode := 0
	for _, nd := range o.Nodes {
		perNode = max(perNode, nd.GPUs)
	}
	for i := range m.fits {
		m.fits[i] = max(int(math.Ceil(m.weightShare(i)*float64(m.capacity))), perNode)
	}
	m.usedSec, m.heldWhile, m.fairWhile, m.demandSec = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	m.preempts, m.lostSec = make([]int, n), make([]float64, n)
	return m
}

// advance integrates the current state over [last, t].
func (m *meter) advance(t time.Duration) {
	if !m.begun {
		m.last, m.begun = t, true
	}
	if t <= m.last {
		return
	}
	dt := (t - m.last).Seconds()
	win := overlap(m.last, t, m.winStart, m.winEnd)
	m.busySec += float64(m.busy) * dt
	m.busyWin += float64(m.busy) * win
	m.fragWin += m.frag * win
	m.fragSpan += win
	if m.dirty {
		m.refair()
	}
	for i := range m.tenants {
		m.usedSec[i] += float64(m.held[i]) * dt
		if m.queued[i] > 0 {
			m.demandSec[i] += dt
			m.heldWhile[i] += float64(m.held[i]) * dt
			m.fairWhile[i] += m.fair[i] * dt
		}
	}
	m.last = t
}

// overlap is the length in seconds of [a, b] inside [lo, hi]; a zero-length
// window [lo, lo] counts everything after lo.
func overlap(a, b, lo, hi time.Duration) float64 {
	if hi == lo {
		hi = b
	}
	a, b = max(a, lo), min(b, hi)
	if b <= a {
		return 0
	}
	return (b - a).Seconds()
}

// refair recomputes each tenant's fair share: the cluster's GPUs divided by
// weight among tenants with demand (held + queued, cut at the tenant's GPU
// cap), water-filling so that a tenant never gets more than its demand.
func (m *meter) refair() {
	m.dirty = false
	n := len(m.tenants)
	demand := make([]float64, n)
	active := make([]bool, n)
	for i := range demand {
		demand[i] = float64(m.held[i] + m.queued[i])
		if m.cap[i] >= 0 {
			demand[i] = min(demand[i], m.cap[i])
		}
		active[i] = demand[i] > 0
		m.fair[i] = 0
	}
	left := float64(m.capacity)
	for {
		var wsum float64
		for i := range n {
			if active[i] {
				wsum += m.weight[i]
			}
		}
		if wsum <= 0 || left <= 0 {
			return
		}
		settled := false
		for i := range n {
			if active[i] && demand[i] <= left*m.weight[i]/wsum {
				m.fair[i], left, active[i], settled = demand[i], left-demand[i], false, true
			}
		}
		if !settled {
			for i := range n {
				if active[i] {
					m.fair[i] = left * m.weight[i] / wsum
				}
			}
			return
		}
	}
}

func (m *meter) tenant(j *jobRun) int { return m.tIdx[j.Spec.Tenant] }

// demandOf is what pending job j adds to its tenant's demand: its GPUs, or
// nothing when the job is larger than the tenant's weighted share. Such a
// gang can only run on borrowed GPUs; the tenant is not owed them, and
// counting it would charge the rigid wait of one big gang to fairness.
func (m *meter) demandOf(j *jobRun) int {
	t := m.tenant(j)
	if g := gpusOf(j.Spec.Shape); g <= m.fits[t] {
		return g
	}
	return 0
}

func (m *meter) submitted(j *jobRun) {
	m.queued[m.tenant(j)] += m.demandOf(j)
	m.dirty = true
}

func (m *meter) repended(j *jobRun) { m.submitted(j) }

func (m *meter) cancelled(j *jobRun) {
	m.queued[m.tenant(j)] -= m.demandOf(j)
	m.dirty = true
}

func (m *meter) started(j *jobRun) {
	t := m.tenant(j)
	m.queued[t] -= m.demandOf(j)
	m.held[t] += j.gpus
	m.busy += j.gpus
	m.dirty = true
}

func (m *meter) stopped(j *jobRun) {
	m.held[m.tenant(j)] -= j.gpus
	m.busy -= j.gpus
	m.dirty = true
}

func (m *meter) preempted(j *jobRun, _ time.Duration) {
	m.preempts[m.tenant(j)]++
}

func (m *meter) lost(j *jobRun, gpuSec float64) {
	m.lostSec[m.tenant(j)] += gpuSec
}

func (m *meter) fragmentation(f float64) { m.frag = f }

// weightShare returns tenant i's weight over the sum of weights.
func (m *meter) weightShare(i int) float64 {
	var sum float64
	for _, w := range m.weight {
		sum += w
	}
	if sum == 0 {
		return 0
	}
	return m.weight[i] / sum
}
