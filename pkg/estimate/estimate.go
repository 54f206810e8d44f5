package estimate

import (
	"math"
	"time"
)

// minRun is the shortest run a prediction gives a job: nothing frees
// sooner than the next pass or two.
const minRun = 60

// Estimate returns the corrected start of every pending job of in, in the
// order of in.Pending: zero where the job has no planned start, the
// planned start where the job never fits the profile (its pool lacks the
// capacity now). Calling it also remembers each prediction for the
// release-trend factor.
func (m *Model) Estimate(in *Input) []time.Time {
	m.gen++
	now := in.Now.Unix()
	p := newProfile(now, in.Pools)
	p.fill(m.held(in.Running, now))
	out := make([]time.Time, len(in.Pending))
	seen := map[placeKey]int{}
	for i := range in.Pending {
		j := &in.Pending[i]
		if j.Planned.IsZero() {
			continue
		}
		d := m.predictRun(j.User, j.Tenant, j.Limit)
		k := placeKey{need: j.Need, d: d, from: p.binAt(m.earliest(j, now))}
		from := k.from
		if s, ok := seen[k]; ok {
			from = max(from, s)
		}
		if from >= len(p.bins) {
			out[i] = j.Planned
			continue
		}
		start, ok := p.place(j.Need, p.bins[from], d)
		if !ok {
			seen[k] = len(p.bins)
			out[i] = j.Planned
			continue
		}
		seen[k] = p.binAt(start)
		m.remember(m.probes(j.ID), now, start)
		out[i] = time.Unix(m.withTrend(now, start), 0)
	}
	m.sweep()
	return out
}

// placeKey caches where an identical request searching from the same bin
// last started: the profile only fills up, so a later identical job
// cannot start earlier.
type placeKey struct {
	need Use
	d    int64
	from int
}

// earliest is when a job could start if resources allowed: now, its
// --begin, or when its quota limit frees under predicted run times.
func (m *Model) earliest(j *Pending, now int64) int64 {
	t := max(now, unixOf(j.NotBefore))
	if j.Limited {
		wait := float64(max(j.Planned.Unix()-now, 0))
		t = max(t, now+int64(wait*m.Ratio("", j.Tenant)))
	}
	return t
}

// predictRun is how long a job of the user with this limit is expected to
// run, in seconds.
func (m *Model) predictRun(user, tenant string, limit time.Duration) int64 {
	if limit <= 0 {
		return forever
	}
	return max(int64(m.Ratio(user, tenant)*limit.Seconds()), minRun)
}

// held is what running jobs hold and until when they are expected to: the
// mean ratio of the jobs that ran at least as long (predictEnd); one past
// its limit frees any moment.
func (m *Model) held(running []Running, now int64) []heldUse {
	var out []heldUse
	for i := range running {
		r := &running[i]
		end := m.predictEnd(r, now)
		for _, u := range r.Use {
			out = append(out, heldUse{pool: u.Pool, gpus: int64(u.GPUs), cpus: int64(u.CPUs), end: end})
		}
	}
	return out
}

func (m *Model) predictEnd(r *Running, now int64) int64 {
	if r.Limit <= 0 {
		return forever
	}
	start, limit := r.Start.Unix(), int64(r.Limit.Seconds())
	if start+limit <= now {
		return now + minRun
	}
	d := m.userDist(r.User, r.Tenant)
	ran := float64(now-start) / float64(limit)
	return max(start+int64(d.meanAbove(ran)*float64(limit)), now+minRun)
}

// withTrend stretches (or shrinks) the predicted wait by what recent
// predictions of that horizon showed. The correction is continuous and
// keeps the order of predictions: in log(wait + trendFloor) it is the
// piecewise-linear curve through each horizon's centre moved by its
// factor, with the points made non-decreasing, so a job predicted later
// is never told it starts sooner.
func (m *Model) withTrend(now, start int64) int64 {
	if m.cfg.NoTrend {
		return start
	}
	x := math.Log(float64(start-now) + trendFloor)
	var xs, ys [numHorizons]float64
	for h := range xs {
		xs[h] = math.Log(horizonCentre[h] + trendFloor)
		ys[h] = xs[h] + math.Log(m.trendFactor(h))
		if h > 0 {
			ys[h] = max(ys[h], ys[h-1])
		}
	}
	var y float64
	switch {
	case x <= xs[0]:
		y = ys[0] + (x - xs[0])
	case x >= xs[numHorizons-1]:
		y = ys[numHorizons-1] + (x - xs[numHorizons-1])
	default:
		h := 1
		for x > xs[h] {
			h++
		}
		t := (x - xs[h-1]) / (xs[h] - xs[h-1])
		y = ys[h-1] + t*(ys[h]-ys[h-1])
	}
	return now + max(int64(math.Exp(y)-trendFloor), 0)
}
