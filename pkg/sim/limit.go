package sim

import (
	"hash/fnv"
	"math"
	"time"
)

// limitLadder is the set of time limits people actually type: round values
// (Tsafrir, Etsion and Feitelson found a handful of such values cover most
// requests). A derived limit is rounded up to the next of them.
var limitLadder = []time.Duration{
	5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 20 * time.Minute, 30 * time.Minute,
	45 * time.Minute, time.Hour, 90 * time.Minute, 2 * time.Hour, 3 * time.Hour, 4 * time.Hour,
	6 * time.Hour, 8 * time.Hour, 12 * time.Hour, 16 * time.Hour, day, 36 * time.Hour, 2 * day,
	3 * day, 4 * day, 5 * day, 7 * day, 10 * day, 14 * day, 21 * day, 30 * day,
}

const day = 24 * time.Hour

// DeriveLimit returns the time limit a user would have requested for a job
// that then ran for run, for traces without a limit_s column. It is drawn
// deterministically from the job id (FNV-1a, then SplitMix64), so a row
// always gets the same limit whatever else is in the file:
//
//   - 10% of jobs come from careful users: 1.0-1.5x the run time;
//   - 60% from typical users: 1.5-10x, log-uniform;
//   - 30% ask for whole days: the next of 1, 2, 3, 7, 14 or 30 days that is
//     at least 1.5x the run time.
//
// The result is rounded up to the next round value of limitLadder (at least
// 5 minutes; past 30 days, whole days), so it is never below run and a job
// with a derived limit never times out. This reproduces the over-asking of
// real users (median requested/actual ratio of several times) that makes
// backfill on time limits pessimistic.
func DeriveLimit(jobID string, run time.Duration) time.Duration {
	h := fnv.New64a()
	h.Write([]byte(jobID))
	x := splitmix(h.Sum64())
	u1 := float64(x>>40) / (1 << 24)
	u2 := float64(x&(1<<24-1)) / (1 << 24)
	var want time.Duration
	switch {
	case u1 < 0.10:
		want = scale(run, 1+0.5*u2)
	case u1 < 0.70:
		want = scale(run, math.Exp(math.Log(1.5)+u2*(math.Log(10)-math.Log(1.5))))
	default:
		want = scale(run, 1.5)
		for _, d := range []time.Duration{day, 2 * day, 3 * day, 7 * day, 14 * day, 30 * day} {
			if d >= want {
				want = d
				break
			}
		}
	}
	return roundUpLimit(max(want, run))
}

func scale(d time.Duration, f float64) time.Duration {
	return time.Duration(math.Ceil(float64(d) * f))
}

// roundUpLimit returns the smallest ladder value at least d.
func roundUpLimit(d time.Duration) time.Duration {
	for _, l := range limitLadder {
		if l >= d {
			return l
		}
	}
	return (d + day - 1) / day * day
}

// splitmix is SplitMix64's finalizer: a bijective 64-bit mix.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
