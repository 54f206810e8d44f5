package sched

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// DecayUsage advances decayed usage from one instant to the next: every
// entry of prev decays by 2^(-(to-from)/halfLife), and each running job adds
// what it used during [max(from, Start), to], itself decayed continuously to
// to, so the result does not depend on how often the caller calls it. A job
// adds its GPUs as GPU-seconds, or, if it has no GPUs, its CPUs as
// CPU-seconds, to its tenant's entry (User "") and to its user's.
//
// Call it at every event before removing jobs that ended, with from the
// previous call's to. halfLife <= 0 disables decay. The result is sorted by
// tenant, then user; entries that decayed below a millionth of a second
// are dropped. prev is not modified.
func DecayUsage(prev []Usage, running []RunningJob, from, to time.Time, halfLife time.Duration) []Usage {
	span := to.Sub(from)
	if span < 0 {
		span = 0
	}
	decay := decayFactor(span, halfLife)
	acc := make(map[assoc]*Usage, len(prev))
	get := func(tenant, user string) *Usage {
		k := assoc{tenant, user}
		u := acc[k]
		if u == nil {
			u = &Usage{Tenant: tenant, User: user}
			acc[k] = u
		}
		return u
	}
	for _, u := range sortedUsage(prev) {
		e := get(u.Tenant, u.User)
		e.GPUSec += u.GPUSec * decay
		e.CPUSec += u.CPUSec * decay
	}
	for i := range running {
		accrue(&running[i], from, to, halfLife, get)
	}
	out := make([]Usage, 0, len(acc))
	for _, u := range acc {
		if u.GPUSec >= 1e-6 || u.CPUSec >= 1e-6 {
			out = append(out, *u)
		}
	}
	slices.SortFunc(out, cmpUsage)
	return out
}

// accrue adds one running job's decayed use over [max(from,Start), to].
func accrue(r *RunningJob, from, to time.Time, halfLife time.Duration, get func(string, string) *Usage) {
	start := from
	if r.Start.After(start) {
		start = r.Start
	}
	span := to.Sub(start)
	if span <= 0 {
		return
	}
	var gpus, cpus int
	for _, a := range r.Alloc {
		gpus += len(a.GPUs)
		cpus += max(a.CPUs, 0)
	}
	// Integral of 2^(-(to-s)/h) over s in [start, to].
	weight := span.Seconds()
	if halfLife > 0 {
		weight = halfLife.Seconds() / math.Ln2 * (1 - decayFactor(span, halfLife))
	}
	entries := []*Usage{get(r.Tenant, "")}
	if r.User != "" {
		entries = append(entries, get(r.Tenant, r.User))
	}
	for _, e := range entries {
		if gpus > 0 {
			e.GPUSec += float64(gpus) * weight
		} else {
			e.CPUSec += float64(cpus) * weight
		}
	}
}

func decayFactor(span, halfLife time.Duration) float64 {
	if halfLife <= 0 {
		return 1
	}
	return math.Exp2(-span.Seconds() / halfLife.Seconds())
}

func cmpUsage(a, b Usage) int {
	if c := cmp.Compare(a.Tenant, b.Tenant); c != 0 {
		return c
	}
	return cmp.Compare(a.User, b.User)
}

// sortedUsage returns usage in (tenant, user) order, so sums over it do
// not depend on the caller's order.
func sortedUsage(in []Usage) []Usage {
	out := slices.Clone(in)
	slices.SortStableFunc(out, cmpUsage)
	return out
}
