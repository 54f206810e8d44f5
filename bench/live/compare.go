package main

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/sim"
)

// row compares one job.
type row struct {
	name            string
	submit          time.Duration
	simStart, live  time.Duration // -1: not started in the window
	simPre, livePre int
	delta           time.Duration // live - sim, when both started
	verdict         string
}

// compare prints the per-job comparison summary: a job matches when both
// started it in the window within tolerance of each other (or neither
// did) and both preempted it as often. The tolerance is what real
// processes add on the compressed clock: two periodic passes (one wall
// second each, scale trace seconds) plus a second of submission and
// launch latency.
func compare(w io.Writer, jobs []sim.Job, simOut map[string]simOutcome, live map[string]*liveOutcome,
	span time.Duration, scale float64, csvPath string) error {
	tol := time.Duration(3 * scale * float64(time.Second))
	var rows []row
	counts := map[string]int{}
	var deltas []float64
	for _, j := range jobs {
		name := j.Rec.JobID
		s, l := simOut[name], live[name]
		r := row{name: name, submit: j.Rec.Submit, simStart: s.start, simPre: s.preempted, live: -1}
		if l != nil {
			r.live, r.livePre = l.start, l.preempted
		}
		switch {
		case r.simStart < 0 && r.live < 0:
			r.verdict = "same (not started)"
		case r.simStart < 0 || r.live < 0:
			r.verdict = "differs: started in one only"
		default:
			r.delta = r.live - r.simStart
			deltas = append(deltas, r.delta.Seconds())
			r.verdict = "same"
			if r.delta > tol || r.delta < -tol {
				r.verdict = "differs: start"
			}
		}
		if r.simPre != r.livePre && r.verdict == "same" {
			r.verdict = "differs: preemptions"
		}
		counts[r.verdict]++
		rows = append(rows, r)
	}
	fmt.Fprintf(w, "tolerance %s of trace time (3 wall seconds)\n", tol)
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "  %-32s %d\n", k, counts[k])
	}
	if len(deltas) > 0 {
		slices.Sort(deltas)
		fmt.Fprintf(w, "start delta live-sim (s): median %.0f, p90 |d| %.0f, max |d| %.0f\n",
			deltas[len(deltas)/2], pctAbs(deltas, 0.9), pctAbs(deltas, 1))
	}
	fmt.Fprintf(w, "start order: %d of %d pairs of jobs started in both are in the same order (ties within tolerance count as same)\n",
		sameOrder(rows, tol), pairs(rows))
	if csvPath != "" {
		return writeRows(csvPath, rows)
	}
	return nil
}

func pctAbs(v []float64, q float64) float64 {
	a := make([]float64, len(v))
	for i, x := range v {
		a[i] = math.Abs(x)
	}
	slices.Sort(a)
	i := int(math.Ceil(q*float64(len(a)))) - 1
	return a[max(i, 0)]
}

// started are the rows both started.
func started(rows []row) []row {
	var out []row
	for _, r := range rows {
		if r.simStart >= 0 && r.live >= 0 {
			out = append(out, r)
		}
	}
	return out
}

func pairs(rows []row) int {
	n := len(started(rows))
	return n * (n - 1) / 2
}

// sameOrder counts pairs of jobs that start in the same order in both
// runs, or within tolerance of each other in either.
func sameOrder(rows []row, tol time.Duration) int {
	s := started(rows)
	n := 0
	for i := range s {
		for k := i + 1; k < len(s); k++ {
			a, b := s[i], s[k]
			ds, dl := a.simStart-b.simStart, a.live-b.live
			if (ds < 0) == (dl < 0) || abs(ds) <= tol || abs(dl) <= tol {
				n++
			}
		}
	}
	return n
}

func abs(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

func writeRows(path string, rows []row) error {
	slices.SortStableFunc(rows, func(a, b row) int { return cmp.Compare(a.submit, b.submit) })
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fmt.Fprintln(f, "job_id,submit_s,sim_start_s,live_start_s,delta_s,sim_preempted,live_preempted,verdict")
	for _, r := range rows {
		fmt.Fprintf(f, "%s,%.0f,%.0f,%.0f,%.0f,%d,%d,%s\n", r.name, r.submit.Seconds(), r.simStart.Seconds(),
			r.live.Seconds(), r.delta.Seconds(), r.simPre, r.livePre, r.verdict)
	}
	return nil
}
