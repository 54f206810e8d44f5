package sched

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/job"
)

// Text renders the plan in a stable, human-readable form: one decision per
// line, times relative to epoch (absolute when epoch is zero). Scenario
// tests compare it and the simulator logs it, so two runs of the same
// input give byte-identical logs.
func (p *Plan) Text(epoch time.Time) string {
	var b strings.Builder
	at := func(t time.Time) string { return relTime(t, epoch) }
	fmt.Fprintf(&b, "plan at %s\n", at(p.Now))
	for _, s := range p.Starts {
		fmt.Fprintf(&b, "start j%d %s %s", s.Job, s.Partition, allocText(s.Alloc))
		if s.Reserved {
			b.WriteString(" reserved")
		}
		b.WriteByte('\n')
	}
	for _, ch := range p.Reservations {
		b.WriteString(ch.text(at))
	}
	for _, pr := range p.Preemptions {
		fmt.Fprintf(&b, "preempt j%d for j%d %s %s grace=%s\n", pr.Victim, pr.Beneficiary,
			pr.Reason, pr.Mode, durText(pr.Grace))
	}
	for _, pe := range p.Pending {
		fmt.Fprintf(&b, "pending j%d %s #%d %s prio=%d", pe.Job, pe.Partition, pe.Position, pe.Reason, pe.Priority)
		if !pe.EstStart.IsZero() {
			fmt.Fprintf(&b, " est=%s", at(pe.EstStart))
		}
		b.WriteByte('\n')
	}
	for _, pc := range p.Priorities {
		fixed := ""
		if pc.Fixed {
			fixed = " fixed"
		}
		fmt.Fprintf(&b, "priority j%d %d -> %d%s%s\n", pc.Job, pc.Old, pc.New, pc.Factors.text(), fixed)
	}
	fmt.Fprintf(&b, "fragmentation %.3f considered=%d started=%d backfilled=%d reservations=%d preempted=%d deadlocks=%d\n",
		p.Fragmentation, p.Stats.Considered, p.Stats.Started, p.Stats.Backfilled, p.Stats.Reservations,
		p.Stats.Preempted, p.Stats.Deadlocks)
	return b.String()
}

func (ch ReservationChange) text(at func(time.Time) string) string {
	r := ch.Reservation
	var b strings.Builder
	fmt.Fprintf(&b, "reserve %s j%d %s", ch.Action, r.Job, r.Partition)
	if ch.Action == ReserveDrop {
		fmt.Fprintf(&b, " %s", ch.Reason)
		if len(ch.CycleWith) > 0 {
			ids := make([]string, len(ch.CycleWith))
			for i, id := range ch.CycleWith {
				ids[i] = "j" + strconv.FormatUint(uint64(id), 10)
			}
			fmt.Fprintf(&b, " cycle-with=%s", strings.Join(ids, ","))
		}
		if !ch.ReserveAfter.IsZero() {
			fmt.Fprintf(&b, " reserve-after=%s", at(ch.ReserveAfter))
		}
		b.WriteByte('\n')
		return b.String()
	}
	start := "unknown"
	if !r.PlannedStart.IsZero() {
		start = at(r.PlannedStart)
	}
	fmt.Fprintf(&b, " start=%s", start)
	if !r.Promised.IsZero() && !r.Promised.Equal(r.PlannedStart) {
		fmt.Fprintf(&b, " promised=%s", at(r.Promised))
	}
	fmt.Fprintf(&b, " created=%s holds %s", at(r.Created), allocText(r.Alloc))
	if len(r.Awaiting) > 0 {
		fmt.Fprintf(&b, " awaits %s", allocText(r.Awaiting))
	}
	if r.Claimed {
		b.WriteString(" claimed")
	}
	b.WriteByte('\n')
	return b.String()
}

func (a ReservationAction) String() string {
	switch a {
	case ReserveCreate:
		return "create"
	case ReserveExtend:
		return "extend"
	case ReserveDrop:
		return "drop"
	}
	return "action(" + strconv.Itoa(int(a)) + ")"
}

func (d DropReason) String() string {
	names := [...]string{"none", "started", "timeout", "deadlock", "gone", "displaced", "infeasible", "window"}
	if int(d) >= 0 && int(d) < len(names) {
		return names[d]
	}
	return "drop(" + strconv.Itoa(int(d)) + ")"
}

func (r PreemptReason) String() string {
	names := [...]string{"urgent", "reclaim", "deadlock"}
	if int(r) >= 0 && int(r) < len(names) {
		return names[r]
	}
	return "reason(" + strconv.Itoa(int(r)) + ")"
}

func (m PreemptMode) String() string {
	names := [...]string{"off", "requeue", "cancel"}
	if int(m) >= 0 && int(m) < len(names) {
		return names[m]
	}
	return "mode(" + strconv.Itoa(int(m)) + ")"
}

func (f PriorityFactors) text() string {
	var b strings.Builder
	for _, t := range []struct {
		name string
		v    float64
	}{{"age", f.Age}, {"fairshare", f.Fairshare}, {"jobsize", f.JobSize}, {"partition", f.Partition},
		{"qos", f.QOS}, {"aging", f.Aging}, {"compensation", f.Compensation}, {"nice", f.Nice}, {"site", f.Site}} {
		if t.v != 0 {
			fmt.Fprintf(&b, " %s=%.2f", t.name, t.v)
		}
	}
	return b.String()
}

// allocText renders node allocations as "n1:gpu=0-3,cpu=8,mem=1000,borrowed=2-3".
func allocText(as []NodeAlloc) string {
	if len(as) == 0 {
		return "nothing"
	}
	parts := make([]string, 0, len(as))
	for _, a := range as {
		s := a.Node + ":gpu=" + gpuText(a.GPUs)
		if a.CPUs != 0 {
			s += ",cpu=" + strconv.Itoa(a.CPUs)
		}
		if a.MemMB != 0 {
			s += ",mem=" + strconv.FormatInt(a.MemMB, 10)
		}
		var bor []int
		for i, b := range a.Borrowed {
			if b && i < len(a.GPUs) {
				bor = append(bor, a.GPUs[i])
			}
		}
		if len(bor) > 0 {
			s += ",borrowed=" + gpuText(bor)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// relTime renders t as an offset from epoch ("+1h30m", "-5m", "+0").
func relTime(t, epoch time.Time) string {
	if t.IsZero() {
		return "never"
	}
	if epoch.IsZero() {
		return t.UTC().Format(time.RFC3339)
	}
	d := t.Sub(epoch)
	if d < 0 {
		return "-" + durText(-d)
	}
	return "+" + durText(d)
}

// durText is time.Duration.String without trailing zero units ("2h",
// "1h30m", "5m", "30s").
func durText(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// gpuText is a node's GPU indices in the decision log: "0-3,6", or "none".
func gpuText(idx []int) string {
	if len(idx) == 0 {
		return "none"
	}
	return job.FormatRanges(idx)
}
