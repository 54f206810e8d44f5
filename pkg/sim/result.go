package sim

import (
	"math"
	"slices"
	"time"
)

// BoundedSlowdownTau is the runtime floor of bounded slowdown: jobs shorter
// than this count as this long, so a 1-second job that waited a minute does
// not dominate the mean.
const BoundedSlowdownTau = 10 * time.Second

// Result is what one policy did on one trace. Times are in seconds.
type Result struct {
	Policy string `json:"policy"`
	Jobs   int    `json:"jobs"`
	// Measured are the jobs the delay metrics cover: every job except rows
	// that never ran in the recorded system (the user cancelled them).
	Measured  int `json:"measured"`
	Started   int `json:"started"`
	Completed int `json:"completed"`
	TimedOut  int `json:"timed_out"`
	Cancelled int `json:"cancelled"`
	// PreemptCancelled counts victims of cancel-mode partitions.
	PreemptCancelled int `json:"preempt_cancelled"`
	NeverStarted     int `json:"never_started"`
	// Refused counts jobs that could never run on the cluster as
	// configured (a shape no node or partition holds, a limit over
	// MaxTime): loam-ctld refuses them at submit, the replay at its first
	// pass; they are not measured. RefusedJobs names up to ten, with the
	// reason ("job_id:PartitionConfig").
	Refused     int      `json:"refused,omitempty"`
	RefusedJobs []string `json:"refused_jobs,omitempty"`

	WaitMean float64 `json:"wait_mean_s"`
	WaitP50  float64 `json:"wait_p50_s"`
	WaitP95  float64 `json:"wait_p95_s"`
	WaitP99  float64 `json:"wait_p99_s"`
	WaitMax  float64 `json:"wait_max_s"`
	// LongestWaitJob is the trace job_id of the longest wait.
	LongestWaitJob string  `json:"longest_wait_job"`
	JCTMean        float64 `json:"jct_mean_s"`
	BSLDMean       float64 `json:"bsld_mean"`
	// GPUUtil is GPU-seconds held over capacity in the arrival window (first
	// to last submission); GPUUtilAll over the whole replay (to the last
	// end).
	GPUUtil    float64 `json:"gpu_util"`
	GPUUtilAll float64 `json:"gpu_util_all"`
	// GPUGoodput is GPUUtil less the GPU time preemption threw away (run
	// since a victim's last checkpoint, which it runs again): the share
	// of capacity that did work kept.
	GPUGoodput float64 `json:"gpu_goodput"`
	FragMean   float64 `json:"frag_mean"`
	// Makespan is when the last job ended, from trace second 0.
	Makespan float64 `json:"makespan_s"`

	Preemptions  int     `json:"preemptions"`
	LostGPUHours float64 `json:"lost_gpu_hours"`

	Tenants []TenantResult `json:"tenants"`
	// MinFairRatio is the lowest FairRatio over tenants that had demand;
	// FairOK says it is at least 0.9.
	MinFairRatio float64 `json:"min_fair_ratio"`
	FairOK       bool    `json:"fair_ok"`
	// Starved counts jobs that waited longer than StarveAfter or never
	// started; StarvedJobs names up to ten of them.
	Starved     int      `json:"starved"`
	StarvedJobs []string `json:"starved_jobs,omitempty"`
	StarveAfter float64  `json:"starve_after_s"`
	// FairSettle is Options.FairSettle, the wait after which a tenant is
	// owed its share.
	FairSettle float64 `json:"fair_settle_s"`

	// WaitByReason is the job-hours spent pending, per Slurm reason the
	// plans gave.
	WaitByReason map[string]float64 `json:"wait_by_reason_h,omitempty"`

	Cycles int `json:"cycles"`
	// CycleMeanMs and friends are wall time per scheduling cycle, filled in
	// by the caller that measured them (pure code has no clock).
	CycleMeanMs float64 `json:"cycle_mean_ms"`
	CycleP50Ms  float64 `json:"cycle_p50_ms"`
	CycleP99Ms  float64 `json:"cycle_p99_ms"`
	CycleMaxMs  float64 `json:"cycle_max_ms"`

	// Outcomes has one entry per job, in trace order (WriteOutcomes).
	Outcomes []Outcome `json:"-"`
}

// Outcome is what happened to one job.
type Outcome struct {
	JobID     string
	ID        uint32 // the replay's job id, as in the decision log
	Tenant    string
	Partition string
	GPUs      int
	Submit    float64 // seconds since the trace epoch
	Start     float64 // first start; -1 when never started
	End       float64 // -1 when it never ended
	State     string  // end state; PENDING when it never started
	Wait      float64
	Preempted int
}

// TenantResult is one tenant's share of the GPUs.
type TenantResult struct {
	Name string `json:"name"`
	// WeightShare is the tenant's weight over all weights; Share its
	// GPU-seconds over all GPU-seconds held.
	WeightShare float64 `json:"weight_share"`
	Share       float64 `json:"share"`
	// FairRatio is the GPU time the tenant got over the GPU time it was
	// owed, both counted only while it had demand (pkg/sim's doc gives the
	// definition): 1 means it always held its weighted share, or all it
	// could use of it, whenever it had waited FairSettle for it. 0 when
	// it never had demand.
	FairRatio float64 `json:"fair_ratio"`
	// DemandHours is the time the tenant had demand.
	DemandHours float64 `json:"demand_hours"`
	Preemptions int     `json:"preemptions"`
	LostGPUH    float64 `json:"lost_gpu_hours"`
}

func (s *simulator) result() *Result {
	r := &Result{Policy: policyName(s.o.Config.Policy), Jobs: len(s.jobs), Cycles: s.cycles,
		Makespan: s.lastEnd().Seconds(), StarveAfter: s.o.StarveAfter.Seconds(),
		FairSettle: s.o.FairSettle.Seconds()}
	var waits, jcts, bslds []float64
	maxWait := -1.0
	for i := range s.jobs {
		j := &s.jobs[i]
		s.countEnd(r, j)
		r.Outcomes = append(r.Outcomes, s.outcome(j))
		if j.refused != "" {
			r.Refused++
			if len(r.RefusedJobs) < 10 {
				r.RefusedJobs = append(r.RefusedJobs, j.Rec.JobID+":"+string(j.refused))
			}
			continue
		}
		if j.NeverRan {
			continue
		}
		r.Measured++
		wait, ok := s.waitOf(j)
		waits = append(waits, wait)
		if wait > maxWait {
			maxWait, r.LongestWaitJob = wait, j.Rec.JobID
		}
		if !ok || wait > s.o.StarveAfter.Seconds() {
			r.Starved++
			if len(r.StarvedJobs) < 10 {
				r.StarvedJobs = append(r.StarvedJobs, j.Rec.JobID)
			}
		}
		if j.done && ok {
			jct := (j.end - j.Rec.Submit).Seconds()
			jcts = append(jcts, jct)
			bslds = append(bslds, max(1, jct/max(j.worked.Seconds(), BoundedSlowdownTau.Seconds())))
		}
	}
	r.WaitMean, r.JCTMean, r.BSLDMean = mean(waits), mean(jcts), mean(bslds)
	slices.Sort(waits)
	r.WaitP50, r.WaitP95, r.WaitP99 = quantile(waits, 0.5), quantile(waits, 0.95), quantile(waits, 0.99)
	r.WaitMax = max(maxWait, 0)
	s.fillUse(r)
	r.WaitByReason = map[string]float64{}
	for why, sec := range s.m.waitBy {
		r.WaitByReason[string(why)] = sec / 3600
	}
	return r
}

func (s *simulator) outcome(j *jobRun) Outcome {
	o := Outcome{JobID: j.Rec.JobID, ID: uint32(j.Spec.ID), Tenant: j.Spec.Tenant, Partition: j.Spec.Partitions[0],
		GPUs: gpusOf(j.Spec.Shape), Submit: j.Rec.Submit.Seconds(), Start: -1, End: -1, State: j.state,
		Preempted: j.preempted}
	o.Wait, _ = s.waitOf(j)
	if j.firstStart >= 0 {
		o.Start = j.firstStart.Seconds()
	}
	if j.done {
		o.End = j.end.Seconds()
	} else {
		o.State = "PENDING"
	}
	return o
}

// lastEnd is when the last job ended (the makespan), or the last event
// when nothing ended; stale end events of preempted runs do not count.
func (s *simulator) lastEnd() time.Duration {
	var end time.Duration
	for i := range s.jobs {
		if s.jobs[i].done {
			end = max(end, s.jobs[i].end)
		}
	}
	if end == 0 {
		return s.now
	}
	return end
}

// waitOf is a job's queueing delay (first start - submit); a job that never
// started counts until it was cancelled or the replay ended (ok false).
func (s *simulator) waitOf(j *jobRun) (float64, bool) {
	switch {
	case j.firstStart < 0 && j.done:
		return (j.end - j.Rec.Submit).Seconds(), false
	case j.firstStart < 0:
		return (s.now - j.Rec.Submit).Seconds(), false
	}
	return (j.firstStart - j.Rec.Submit).Seconds(), true
}

func (s *simulator) countEnd(r *Result, j *jobRun) {
	if j.firstStart >= 0 {
		r.Started++
	} else if !j.done {
		r.NeverStarted++
	}
	r.Preemptions += j.preempted
	r.LostGPUHours += j.lostGPUSec / 3600
	switch {
	case !j.done, j.refused != "": // refused: counted in Refused
	case j.state == "TIMEOUT":
		r.TimedOut++
	case j.state == "CANCELLED":
		r.Cancelled++
	case j.state == "PREEMPTED":
		r.PreemptCancelled++
	default:
		r.Completed++
	}
}

func (s *simulator) fillUse(r *Result) {
	m := s.m
	end := s.lastEnd()
	window := overlap(m.winStart, end, m.winStart, m.winEnd)
	if m.capacity > 0 && window > 0 {
		r.GPUUtil = m.busyWin / (float64(m.capacity) * window)
		r.GPUGoodput = (m.busyWin - m.lostWin) / (float64(m.capacity) * window)
	}
	if span := (end - m.winStart).Seconds(); m.capacity > 0 && span > 0 {
		r.GPUUtilAll = m.busySec / (float64(m.capacity) * span)
	}
	if m.fragSpan > 0 {
		r.FragMean = m.fragWin / m.fragSpan
	}
	var total float64
	for _, u := range m.usedSec {
		total += u
	}
	r.MinFairRatio, r.FairOK = math.Inf(1), true
	for i, name := range m.tenants {
		t := TenantResult{Name: name, WeightShare: m.weightShare(i), DemandHours: m.demandSec[i] / 3600,
			Preemptions: m.preempts[i], LostGPUH: m.lostSec[i] / 3600}
		if total > 0 {
			t.Share = m.usedSec[i] / total
		}
		if m.owedSec[i] > 0 {
			t.FairRatio = m.gotSec[i] / m.owedSec[i]
			r.MinFairRatio = min(r.MinFairRatio, t.FairRatio)
		}
		r.Tenants = append(r.Tenants, t)
	}
	if math.IsInf(r.MinFairRatio, 1) {
		r.MinFairRatio = 0
	} else {
		r.FairOK = r.MinFairRatio >= 0.9
	}
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// quantile is the nearest-rank quantile of sorted xs.
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	k := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[min(max(k, 0), len(sorted)-1)]
}
