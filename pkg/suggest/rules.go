package suggest

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/slurmtime"
)

// waitRising fires when a queue's daily mean wait rises over the window:
// a positive trend, the last days at least WaitRise times the first, and
// long enough to matter. More aging lifts the queue's waiting jobs over
// newer work sooner; when jobs reach the aging cap long before they start,
// the cap is raised too.
func waitRising(in *Input, th *Thresholds) []Suggestion {
	var out []Suggestion
	for _, q := range in.Queues {
		w := q.MeanWait
		if len(w) < th.MinDays || slope(w) <= 0 {
			continue
		}
		first, last := headMean(w), tailMean(w)
		if last < th.WaitRise*first || last < th.WaitFloor.Seconds() {
			continue
		}
		days := spanDays(w)
		rate := max(2*q.AgingRate, 10)
		why := fmt.Sprintf("mean wait rose %s -> %s over %d days", human(first), human(last), days)
		line := "PartitionName=" + q.Name
		out = append(out, Suggestion{Rule: "queue-wait-rising", Subject: q.Name, File: "slurm.conf", Line: line,
			Key: "AgingRate", From: num(q.AgingRate), To: num(rate),
			Action: fmt.Sprintf("raise AgingRate of partition %s in slurm.conf from %s to %s", q.Name, num(q.AgingRate), num(rate)),
			Why:    why, Evidence: w})
		hours := last / 3600
		if q.AgingCap > 0 && q.AgingCap/rate < hours {
			capTo := roundUp(rate * hours)
			out = append(out, Suggestion{Rule: "queue-wait-rising", Subject: q.Name, File: "slurm.conf", Line: line,
				Key: "AgingCap", From: num(q.AgingCap), To: num(capTo),
				Action: fmt.Sprintf("raise AgingCap of partition %s in slurm.conf from %s to %s", q.Name, num(q.AgingCap), num(capTo)),
				Why: fmt.Sprintf("%s; at AgingRate %s jobs reach the cap after %s, but wait %s",
					why, num(rate), human(q.AgingCap/rate*3600), human(last)), Evidence: w})
		}
	}
	return out
}

// quotaUnderused fires when a tenant used less than QuotaUse of its
// guarantee on every day of the window: the guarantee is lowered to a
// quarter above its busiest day, and the tenants that borrowed are named
// as the ones to give it to.
func quotaUnderused(in *Input, th *Thresholds) []Suggestion {
	var out []Suggestion
	for _, t := range in.Tenants {
		if t.Guarantee <= 0 || len(t.Used) < th.MinDays {
			continue
		}
		g := float64(t.Guarantee)
		if slices.ContainsFunc(t.Used, func(s Sample) bool { return s.Value >= th.QuotaUse*g }) {
			continue
		}
		avg, peak := meanOf(t.Used), maxOf(t.Used)
		to := max(int(math.Ceil(peak*1.25)), 1)
		if to >= t.Guarantee {
			continue
		}
		action := fmt.Sprintf("lower Guarantee of tenant %s in tenants.conf from %d to %d GPUs", t.Name, t.Guarantee, to)
		if b := borrowers(in.Tenants, t.Name); len(b) > 0 {
			action += fmt.Sprintf(" and give the %d GPUs to %s, which borrowed meanwhile", t.Guarantee-to, strings.Join(b, ", "))
		}
		out = append(out, Suggestion{Rule: "quota-underused", Subject: t.Name, File: "tenants.conf",
			Line: "TenantName=" + t.Name, Key: "Guarantee",
			From: fmt.Sprintf("gres/gpu=%d", t.Guarantee), To: fmt.Sprintf("gres/gpu=%d", to), Action: action,
			Why: fmt.Sprintf("used %s of %d guaranteed GPUs on average (%.0f%%, at most %s in a day) over %d days",
				num1(avg), t.Guarantee, 100*avg/g, num1(peak), spanDays(t.Used)), Evidence: t.Used})
	}
	return out
}

// borrowers lists the other tenants that held borrowed GPUs in the window,
// most first (at most three).
func borrowers(ts []Tenant, except string) []string {
	type b struct {
		name string
		gpus float64
	}
	var list []b
	for _, t := range ts {
		if m := meanOf(t.Borrowed); t.Name != except && m > 0 {
			list = append(list, b{t.Name, m})
		}
	}
	slices.SortStableFunc(list, func(x, y b) int {
		if x.gpus != y.gpus {
			if x.gpus > y.gpus {
				return -1
			}
			return 1
		}
		return strings.Compare(x.name, y.name)
	})
	var out []string
	for i := 0; i < len(list) && i < 3; i++ {
		out = append(out, list[i].name)
	}
	return out
}

// reservationsExpiring fires when most of a queue's reservations time out
// before their job starts: they hold GPUs idle and then give up. A longer
// timeout lets the job actually start on what was held.
func reservationsExpiring(in *Input, th *Thresholds) []Suggestion {
	var out []Suggestion
	for _, q := range in.Queues {
		c, e := q.ReservationsCreated, q.ReservationsExpired
		if q.ReservationTimeout <= 0 || e < th.MinExpired || float64(e) < th.ExpiredShare*float64(max(c, e)) {
			continue
		}
		to := 2 * q.ReservationTimeout
		out = append(out, Suggestion{Rule: "reservations-expiring", Subject: q.Name, File: "slurm.conf",
			Line: "PartitionName=" + q.Name, Key: "ReservationTimeout",
			From: slurmtime.FormatDuration(q.ReservationTimeout), To: slurmtime.FormatDuration(to),
			Action: fmt.Sprintf("raise ReservationTimeout of partition %s in slurm.conf from %s to %s",
				q.Name, human(q.ReservationTimeout.Seconds()), human(to.Seconds())),
			Why: fmt.Sprintf("%d of %d reservations (%.0f%%) timed out before their job started over %s",
				e, max(c, e), 100*float64(e)/float64(max(c, e)), human(in.Window.Seconds()))})
	}
	return out
}

// preemptionThrash fires when many preemptions hit jobs that had only just
// started: their work is lost for little gain. PreemptExemptTime protects
// young jobs.
func preemptionThrash(in *Input, th *Thresholds) []Suggestion {
	p := in.Preemption
	if p.Count < th.MinPreemptions || float64(p.Young) < th.YoungShare*float64(p.Count) {
		return nil
	}
	cur := in.PreemptExemptTime
	to := max(2*cur, p.YoungRun)
	return []Suggestion{{Rule: "preemption-thrash", Subject: "cluster", File: "slurm.conf", Key: "PreemptExemptTime",
		From: slurmtime.FormatDuration(cur), To: slurmtime.FormatDuration(to),
		Action: fmt.Sprintf("raise PreemptExemptTime in slurm.conf from %s to %s", human(cur.Seconds()), human(to.Seconds())),
		Why: fmt.Sprintf("%d preemptions over %s, %d (%.0f%%) of them hit jobs that had run under %s; %s GPU-hours lost",
			p.Count, human(in.Window.Seconds()), p.Young, 100*float64(p.Young)/float64(p.Count),
			human(p.YoungRun.Seconds()), num1(p.LostGPUHours))}}
}

// fragmentationHigh fires when the fragmentation rate stayed above the
// threshold every day while jobs asking for whole nodes waited: weighting
// nodes makes small jobs fill the same nodes first.
func fragmentationHigh(in *Input, th *Thresholds) []Suggestion {
	f := in.Fragmentation
	if len(f) < th.MinDays || in.WholeNodeWaits == 0 ||
		slices.ContainsFunc(f, func(s Sample) bool { return s.Value <= th.Fragmentation }) {
		return nil
	}
	lo := slices.MinFunc(f, func(a, b Sample) int { return cmpFloat(a.Value, b.Value) }).Value
	return []Suggestion{{Rule: "fragmentation-high", Subject: "cluster", File: "slurm.conf", Line: "NodeName=...",
		Key: "Weight", From: "", To: "1 (a quarter of the GPU nodes), 10 (the rest)",
		Action: "give a quarter of the GPU nodes Weight=1 and the rest Weight=10 on their NodeName lines in slurm.conf, so small jobs pack onto the low-weight nodes and whole nodes stay free",
		Why: fmt.Sprintf("the fragmentation rate stayed between %.0f%% and %.0f%% (mean %.0f%%) over %d days while %d jobs asking for whole nodes waited",
			100*lo, 100*maxOf(f), 100*meanOf(f), spanDays(f), in.WholeNodeWaits), Evidence: f}}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// human prints seconds for a sentence: "40 s", "25 min", "3 h", "2.5 h",
// "4 days".
func human(sec float64) string {
	d := time.Duration(sec * float64(time.Second))
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%.0f s", sec)
	case d < time.Hour:
		return fmt.Sprintf("%.0f min", d.Minutes())
	case d < 48*time.Hour:
		return trimZero(fmt.Sprintf("%.1f", d.Hours())) + " h"
	}
	return trimZero(fmt.Sprintf("%.1f", d.Hours()/24)) + " days"
}

func trimZero(s string) string { return strings.TrimSuffix(s, ".0") }

// num prints a configuration value: whole numbers without decimals.
func num(v float64) string { return trimZero(fmt.Sprintf("%.1f", v)) }

// num1 prints a measured value with one decimal when it has one.
func num1(v float64) string { return trimZero(fmt.Sprintf("%.1f", v)) }

// roundUp rounds v up to two significant digits (9460 -> 9500).
func roundUp(v float64) float64 {
	if v <= 0 {
		return 0
	}
	p := math.Pow(10, math.Floor(math.Log10(v))-1)
	return math.Ceil(v/p) * p
}
