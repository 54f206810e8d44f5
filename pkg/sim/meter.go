package sim

import (
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/sched"
)

// meter integrates the time-weighted metrics of a replay: GPU utilization
// and fragmentation over the arrival window, and per tenant the GPU time it
// was owed and got (see TenantResult.FairRatio).
type meter struct {
	capacity int // GPUs of the cluster
	// window is [first submission, last submission], the span over which
	// utilization and fragmentation are averaged (the whole replay when all
	// jobs arrive at once).
	winStart, winEnd time.Duration
	last             time.Duration
	begun            bool
	settle           time.Duration // FairSettle

	busy    int // GPUs held now
	busySec float64
	busyWin float64
	// lostWin is the part of busyWin that preemption threw away (run
	// since a victim's last checkpoint): held, but not useful work.
	lostWin  float64
	frag     float64
	fragWin  float64
	fragSpan float64

	tenants []string
	tIdx    map[string]int
	weight  []float64
	share   []float64 // weighted share of the GPUs, cut at the GPU cap
	held    []int     // GPUs held now
	pending [][]waiter

	usedSec   []float64 // GPU-seconds held, whole replay
	owedSec   []float64 // GPU-seconds owed while the tenant had demand
	gotSec    []float64 // of those, GPU-seconds it held
	demandSec []float64 // seconds with demand
	preempts  []int
	lostSec   []float64

	// why is each pending job's reason in the last plan; waitBy the
	// job-seconds spent pending per reason.
	why    map[sched.JobID]sched.Reason
	waitBy map[sched.Reason]float64
}

// waiter is a pending job as the fairness metric sees it.
type waiter struct {
	job   int
	gpus  int
	since time.Duration
}

func newMeter(o Options, jobs []jobRun) *meter {
	m := &meter{tIdx: map[string]int{}, settle: o.FairSettle, why: map[sched.JobID]sched.Reason{},
		waitBy: map[sched.Reason]float64{}}
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
	m.weight, m.share = make([]float64, n), make([]float64, n)
	caps := make([]float64, n)
	for i, name := range m.tenants {
		m.tIdx[name] = i
		m.weight[i], caps[i] = 1, -1
		for _, t := range o.Config.Tenants {
			if t.Name == name {
				m.weight[i] = t.Weight
				if t.Cap.GPU >= 0 {
					caps[i] = float64(t.Cap.GPU)
				}
			}
		}
	}
	for i := range m.share {
		m.share[i] = m.weightShare(i) * float64(m.capacity)
		if caps[i] >= 0 {
			m.share[i] = min(m.share[i], caps[i])
		}
	}
	m.held, m.pending = make([]int, n), make([][]waiter, n)
	m.usedSec, m.owedSec, m.gotSec, m.demandSec = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	m.preempts, m.lostSec = make([]int, n), make([]float64, n)
	return m
}

// advance integrates the current state over [last, t]. The owed share
// changes when a pending job has waited FairSettle, which is no event of
// the replay, so the span is cut at those instants.
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
	for _, r := range m.why {
		m.waitBy[r] += dt
	}
	for i := range m.tenants {
		m.usedSec[i] += float64(m.held[i]) * dt
		from := m.last
		for _, cut := range m.settleCuts(i, m.last, t) {
			m.integrateFair(i, from, cut)
			from = cut
		}
		m.integrateFair(i, from, t)
	}
	m.last = t
}

// settleCuts lists, in order, the instants in (from, to) at which a
// pending job of tenant i reaches FairSettle.
func (m *meter) settleCuts(i int, from, to time.Duration) []time.Duration {
	var cuts []time.Duration
	for _, w := range m.pending[i] {
		if at := w.since + m.settle; at > from && at < to {
			cuts = append(cuts, at)
		}
	}
	slices.Sort(cuts)
	return slices.Compact(cuts)
}

// integrateFair adds [from, to] to tenant i's owed and received GPU time,
// with the state as it is at from.
func (m *meter) integrateFair(i int, from, to time.Duration) {
	if to <= from {
		return
	}
	owed, ok := m.owed(i, from)
	if !ok {
		return
	}
	dt := (to - from).Seconds()
	m.demandSec[i] += dt
	m.owedSec[i] += owed * dt
	m.gotSec[i] += min(float64(m.held[i]), owed) * dt
}

// owed is what tenant i is owed at instant t, and whether it has demand
// then. Its demand is its pending jobs that have waited at least
// FairSettle and that fit its weighted share on their own. It is owed
// what it holds plus as many of those jobs, smallest first, as fit in the
// part of its share it does not hold, up to its share.
func (m *meter) owed(i int, t time.Duration) (float64, bool) {
	var sizes []int
	for _, w := range m.pending[i] {
		if w.since+m.settle <= t && float64(w.gpus) <= m.share[i] {
			sizes = append(sizes, w.gpus)
		}
	}
	if len(sizes) == 0 {
		return 0, false
	}
	held := float64(m.held[i])
	room := m.share[i] - held
	if room <= 0 {
		return m.share[i], true
	}
	slices.Sort(sizes)
	packed := 0.0
	for _, g := range sizes {
		if packed+float64(g) > room {
			break
		}
		packed += float64(g)
	}
	return held + packed, true
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

func (m *meter) tenant(j *jobRun) int { return m.tIdx[j.Spec.Tenant] }

// submitted records a job that starts to pend (again, after a requeue).
// Rows the user cancelled in the recorded system are no demand: their
// owners gave up on them.
func (m *meter) submitted(j *jobRun) {
	if g := gpusOf(j.Spec.Shape); g > 0 && !j.NeverRan {
		t := m.tenant(j)
		m.pending[t] = append(m.pending[t], waiter{job: j.idx, gpus: g, since: m.last})
	}
}

func (m *meter) repended(j *jobRun) { m.submitted(j) }

func (m *meter) unpend(j *jobRun) {
	t := m.tenant(j)
	m.pending[t] = slices.DeleteFunc(m.pending[t], func(w waiter) bool { return w.job == j.idx })
}

func (m *meter) cancelled(j *jobRun) { m.unpend(j) }

func (m *meter) started(j *jobRun) {
	m.unpend(j)
	m.held[m.tenant(j)] += j.gpus
	m.busy += j.gpus
}

func (m *meter) stopped(j *jobRun) {
	m.held[m.tenant(j)] -= j.gpus
	m.busy -= j.gpus
}

func (m *meter) preempted(j *jobRun, _ time.Duration) {
	m.preempts[m.tenant(j)]++
}

// lost records the run a preemption threw away, held over [from, to].
func (m *meter) lost(j *jobRun, from, to time.Duration) {
	m.lostSec[m.tenant(j)] += float64(j.gpus) * (to - from).Seconds()
	m.lostWin += float64(j.gpus) * overlap(from, to, m.winStart, m.winEnd)
}

func (m *meter) fragmentation(f float64) { m.frag = f }

// reasons records why each job of the plan waits, until the next plan.
func (m *meter) reasons(pending []sched.Pending) {
	clear(m.why)
	for _, p := range pending {
		m.why[p.Job] = p.Reason
	}
}

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
