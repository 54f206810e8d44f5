package sim

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"
)

// GenTenant is one tenant of a generated workload: its weight (as in
// tenants.conf) and how much of the work it submits relative to its weight
// (1: exactly its weighted share).
type GenTenant struct {
	Name   string
	Weight float64
	Demand float64
	Users  int
}

// HeliosTenants are the six largest virtual clusters (tenants) of SenseTime
// Helios Venus on 2020-09-28 (helios_venus_vc_gpu_capacity.csv), weighted by
// their GPU quota: 256, 160, 88, 88, 80 and 72 GPUs. Demand is skewed on
// purpose, so some tenants want more than their share and others less.
var HeliosTenants = []GenTenant{
	{Name: "vcJsw", Weight: 256, Demand: 1.3, Users: 8},
	{Name: "vcvGl", Weight: 160, Demand: 0.7, Users: 6},
	{Name: "vcYVn", Weight: 88, Demand: 1.5, Users: 4},
	{Name: "vcKeu", Weight: 88, Demand: 0.6, Users: 4},
	{Name: "vcefl", Weight: 80, Demand: 1.0, Users: 3},
	{Name: "vcEwI", Weight: 72, Demand: 1.2, Users: 3},
}

// GenOptions parameterize Generate.
type GenOptions struct {
	Seed uint64
	// Load is the offered load: GPU-seconds submitted over GPU-seconds the
	// cluster has during Days (0.9 = 90%).
	Load        float64
	Nodes       int
	GPUsPerNode int // 0: 8
	CPUsPerGPU  int // 0: 12
	Days        float64
	// MaxGPUs is the largest gang; 0: half the cluster, at most 1024.
	MaxGPUs int
	Tenants []GenTenant // nil: HeliosTenants
}

// jobClass is one kind of LLM-era job. The mix is calibrated to Acme
// (Seren, Kalos: median GPU-job runtime about 2 minutes, mostly 1-GPU jobs,
// mean 5.7-26.8 GPUs per job, gangs up to 1,024 GPUs, pretraining a few
// percent of jobs but most of the GPU time).
type jobClass struct {
	name       string
	share      float64 // of jobs
	queue      string
	gpus       []int
	gpuWeights []float64
	// runtime: lognormal median and sigma, clipped to [lo, hi] seconds.
	median, sigma, lo, hi float64
}

var jobClasses = []jobClass{
	{"debug", 0.70, "normal", []int{1, 2, 4, 8}, []float64{0.7, 0.1, 0.1, 0.1}, 60, 1.5, 5, 2 * 3600},
	{"eval", 0.20, "batch", []int{1, 2, 4, 8}, []float64{0.4, 0.2, 0.2, 0.2}, 600, 1.2, 30, 86400},
	{"sft", 0.08, "normal", []int{8, 16, 32, 64}, []float64{0.4, 0.3, 0.2, 0.1}, 5400, 1.0, 600, 3 * 86400},
	{"urgent", 0.015, "urgent", []int{8, 16, 32}, []float64{0.5, 0.3, 0.2}, 1800, 0.8, 120, 12 * 3600},
	{"pretrain", 0.005, "normal", []int{128, 256, 512, 1024}, []float64{0.4, 0.3, 0.2, 0.1}, 86400, 0.6, 6 * 3600, 5 * 86400},
}

// Acme's end states of GPU jobs (Seren: 49.7% completed, 42.9% failed,
// 7.5% cancelled); a further 3% of jobs under-ask and time out.
var genStates = []string{"COMPLETED", "FAILED", "CANCELLED"}
var genStateWeights = []float64{0.497, 0.429, 0.075}

const timeoutShare = 0.03

func (o *GenOptions) defaults() error {
	if o.GPUsPerNode == 0 {
		o.GPUsPerNode = 8
	}
	if o.CPUsPerGPU == 0 {
		o.CPUsPerGPU = 12
	}
	if o.Tenants == nil {
		o.Tenants = HeliosTenants
	}
	switch {
	case o.Nodes <= 0 || o.GPUsPerNode <= 0 || o.CPUsPerGPU <= 0:
		return errors.New("generate: nodes, GPUs per node and CPUs per GPU must be positive")
	case o.Load <= 0 || o.Load > 10 || math.IsNaN(o.Load):
		return fmt.Errorf("generate: load %g out of range (0, 10]", o.Load)
	case o.Days <= 0 || o.Days > 366 || math.IsNaN(o.Days):
		return fmt.Errorf("generate: days %g out of range (0, 366]", o.Days)
	case len(o.Tenants) == 0:
		return errors.New("generate: no tenants")
	}
	if o.MaxGPUs <= 0 {
		o.MaxGPUs = min(1024, o.Nodes*o.GPUsPerNode/2)
	}
	o.MaxGPUs = min(o.MaxGPUs, o.Nodes*o.GPUsPerNode)
	return nil
}

// Generate returns a seeded synthetic trace: jobs are drawn from jobClasses
// until their GPU-seconds come as close as they can to Load x the
// cluster's GPU-seconds over Days, then given arrival times from a Poisson
// process whose rate follows a daily cycle (peak at 15:00, trough at
// 03:00, +-40%), in random order. The same options always give the same
// trace.
//
// Two details keep the stopping rule from biasing the trace. The job that
// crosses the target is size-biased (the more work a job has, the likelier
// it is the one that crosses), so it is kept only if that leaves the load
// closer to the target than leaving it out. And arrival times go to the
// jobs in a random order, not in draw order, so that the crossing job does
// not always arrive last. (Before, at 70% load, it was a 512-GPU, 33-hour
// job submitted in the last minutes of the week, 7% of all the work, that
// waited 35 hours behind the week's pre-training runs under every policy.)
func Generate(o GenOptions) ([]Record, error) {
	if err := o.defaults(); err != nil {
		return nil, err
	}
	r := newRNG(o.Seed)
	horizon := o.Days * 86400
	target := o.Load * float64(o.Nodes*o.GPUsPerNode) * horizon
	tenantW := make([]float64, len(o.Tenants))
	for i, t := range o.Tenants {
		tenantW[i] = t.Weight * t.Demand
	}
	classW := make([]float64, len(jobClasses))
	for i, c := range jobClasses {
		classW[i] = c.share
	}
	var recs []Record
	for work := 0.0; work < target; {
		rec := genJob(r, &o, jobClasses[r.pick(classW)], o.Tenants[r.pick(tenantW)])
		w := float64(rec.GPUs) * rec.Run.Seconds()
		if work+w > target && work+w-target > target-work && len(recs) > 0 {
			break
		}
		work += w
		recs = append(recs, rec)
	}
	r.shuffle(recs)
	arrivals(r, recs, horizon)
	for i := range recs {
		recs[i].JobID = fmt.Sprintf("job-%06d", i+1)
	}
	return recs, nil
}

func genJob(r *rng, o *GenOptions, c jobClass, t GenTenant) Record {
	gpus := pickGPUs(r, c, o.MaxGPUs)
	run := math.Round(r.lognormal(c.median, c.sigma, c.lo, c.hi))
	rec := Record{GPUs: gpus, Nodes: 1, CPUs: float64(gpus * o.CPUsPerGPU), Tenant: t.Name,
		User: fmt.Sprintf("%s-u%d", t.Name, zipfUser(r, max(t.Users, 1))), Queue: c.queue,
		Run: time.Duration(run) * time.Second, State: genStates[r.pick(genStateWeights)]}
	if gpus > o.GPUsPerNode {
		rec.Nodes, rec.GPUsPerNode = gpus/o.GPUsPerNode, o.GPUsPerNode
	}
	rec.Limit = overAsk(r, rec.Run)
	if r.float() < timeoutShare {
		rec.Limit, rec.State = underAsk(rec.Run), "TIMEOUT"
	}
	return rec
}

// pickGPUs draws a gang size of class c no larger than maxGPUs (or maxGPUs
// itself when every size of the class is larger).
func pickGPUs(r *rng, c jobClass, maxGPUs int) int {
	var sizes []int
	var w []float64
	for i, g := range c.gpus {
		if g <= maxGPUs {
			sizes, w = append(sizes, g), append(w, c.gpuWeights[i])
		}
	}
	if len(sizes) == 0 {
		return maxGPUs
	}
	return sizes[r.pick(w)]
}

// zipfUser picks user 1..n with probability proportional to 1/k.
func zipfUser(r *rng, n int) int {
	w := make([]float64, n)
	for k := range w {
		w[k] = 1 / float64(k+1)
	}
	return r.pick(w) + 1
}

// overAsk is the limit a user requests for a job that will run for run,
// with DeriveLimit's model drawn from r instead of the job id.
func overAsk(r *rng, run time.Duration) time.Duration {
	u1, u2 := r.float(), r.float()
	var want time.Duration
	switch {
	case u1 < 0.10:
		want = scale(run, 1+0.5*u2)
	case u1 < 0.70:
		want = scale(run, math.Exp(math.Log(1.5)+u2*(math.Log(10)-math.Log(1.5))))
	default:
		want = scale(run, 1.5)
		for _, d := range []time.Duration{day, 2 * day, 3 * day, 7 * day} {
			if d >= want {
				want = d
				break
			}
		}
	}
	return min(roundUpLimit(max(want, run)), 7*day)
}

// underAsk is the largest round limit below run (the job times out), or
// 5 minutes.
func underAsk(run time.Duration) time.Duration {
	best := limitLadder[0]
	for _, l := range limitLadder {
		if l < run {
			best = l
		}
	}
	return best
}

// arrivals gives recs sorted arrival times on [0, horizon) from a Poisson
// process of rate 1 + 0.4 sin(2 pi (t - 9h) / 24h), by inverting its
// cumulative intensity at sorted uniform points.
func arrivals(r *rng, recs []Record, horizon float64) {
	const amp, period, phase = 0.4, 86400.0, 9 * 3600.0
	cum := func(t float64) float64 {
		w := 2 * math.Pi / period
		return t + amp/w*(math.Cos(-w*phase)-math.Cos(w*(t-phase)))
	}
	total := cum(horizon)
	us := make([]float64, len(recs))
	for i := range us {
		us[i] = r.float() * total
	}
	slices.Sort(us)
	for i, u := range us {
		lo, hi := 0.0, horizon
		for range 50 {
			mid := (lo + hi) / 2
			if cum(mid) < u {
				lo = mid
			} else {
				hi = mid
			}
		}
		recs[i].Submit = time.Duration(math.Floor(lo)) * time.Second
	}
}
