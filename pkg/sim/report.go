package sim

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
)

// WriteTable prints results side by side: one column per policy, then the
// per-tenant shares, then, when both loam and easy ran, the targets.
func WriteTable(w io.Writer, results []*Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	row := func(name string, f func(r *Result) string) {
		cells := []string{name}
		for _, r := range results {
			cells = append(cells, f(r))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	row("policy", func(r *Result) string { return r.Policy })
	row("jobs (measured)", func(r *Result) string { return fmt.Sprintf("%d (%d)", r.Jobs, r.Measured) })
	row("wait mean s", func(r *Result) string { return num(r.WaitMean) })
	row("wait p50 s", func(r *Result) string { return num(r.WaitP50) })
	row("wait p95 s", func(r *Result) string { return num(r.WaitP95) })
	row("wait p99 s", func(r *Result) string { return num(r.WaitP99) })
	row("wait max s", func(r *Result) string { return num(r.WaitMax) })
	row("longest wait job", func(r *Result) string { return r.LongestWaitJob })
	row("JCT mean s", func(r *Result) string { return num(r.JCTMean) })
	row("bounded slowdown", func(r *Result) string { return fmt.Sprintf("%.2f", r.BSLDMean) })
	row("GPU util (arrivals)", func(r *Result) string { return pct(r.GPUUtil) })
	row("GPU util (all)", func(r *Result) string { return pct(r.GPUUtilAll) })
	row("GPU goodput", func(r *Result) string { return pct(r.GPUGoodput) })
	row("fragmentation", func(r *Result) string { return pct(r.FragMean) })
	row("preemptions", func(r *Result) string { return fmt.Sprint(r.Preemptions) })
	row("GPU-hours lost", func(r *Result) string { return fmt.Sprintf("%.1f", r.LostGPUHours) })
	row("min fair ratio", func(r *Result) string { return fmt.Sprintf("%.2f", r.MinFairRatio) })
	row("starved", func(r *Result) string { return fmt.Sprint(r.Starved) })
	row("never started", func(r *Result) string { return fmt.Sprint(r.NeverStarted) })
	if slices.ContainsFunc(results, func(r *Result) bool { return r.Refused > 0 }) {
		row("refused (never fit)", func(r *Result) string { return fmt.Sprint(r.Refused) })
	}
	row("timed out", func(r *Result) string { return fmt.Sprint(r.TimedOut) })
	row("makespan s", func(r *Result) string { return num(r.Makespan) })
	row("cycles", func(r *Result) string { return fmt.Sprint(r.Cycles) })
	row("cycle ms mean", func(r *Result) string { return fmt.Sprintf("%.2f", r.CycleMeanMs) })
	row("cycle ms p50/p99", func(r *Result) string { return fmt.Sprintf("%.2f/%.2f", r.CycleP50Ms, r.CycleP99Ms) })
	row("cycle ms max", func(r *Result) string { return fmt.Sprintf("%.1f", r.CycleMaxMs) })
	if err := tw.Flush(); err != nil {
		return err
	}
	if err := writeTenants(w, results); err != nil {
		return err
	}
	return writeTargets(w, results)
}

// writeTenants prints each tenant's weight share and, per policy, its share
// of GPU time and its fair ratio while it had demand.
func writeTenants(w io.Writer, results []*Result) error {
	if len(results) == 0 || len(results[0].Tenants) == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := []string{"\ntenant", "weight"}
	for _, r := range results {
		head = append(head, r.Policy+" share", r.Policy+" fair")
	}
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	for i, t := range results[0].Tenants {
		cells := []string{t.Name, pct(t.WeightShare)}
		for _, r := range results {
			rt := r.Tenants[i]
			cells = append(cells, pct(rt.Share), fmt.Sprintf("%.2f", rt.FairRatio))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t")+"\t")
	}
	return tw.Flush()
}

func writeTargets(w io.Writer, results []*Result) error {
	var loam, easy *Result
	for _, r := range results {
		switch r.Policy {
		case "loam":
			loam = r
		case "easy":
			easy = r
		}
	}
	if loam == nil || easy == nil {
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\ntarget (loam vs easy)\tloam\teasy\tresult")
	for _, t := range CheckTargets(loam, easy) {
		mark := "ok"
		if !t.OK {
			mark = "MISSED"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.Name, t.Loam, t.Easy, mark)
	}
	return tw.Flush()
}

// Target is one of the goals for loam against easy on a trace.
type Target struct {
	Name string `json:"name"`
	Loam string `json:"loam"`
	Easy string `json:"easy"`
	OK   bool   `json:"ok"`
}

// CheckTargets compares loam with easy: mean wait and mean bounded
// slowdown at most 0.7x, GPU utilization (arrival window) no lower (0.1
// point tolerance), and the same for goodput (utilization less the run
// preemption threw away), p99 wait no worse, no tenant below 0.9 of its
// fair share while it has demand, no job starved.
func CheckTargets(loam, easy *Result) []Target {
	ratio := func(a, b float64) string {
		if b == 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.2fx", a/b)
	}
	le := func(a, b, f float64) bool { return a <= b*f+1e-9 }
	return []Target{
		{"wait mean <= 0.7x", num(loam.WaitMean) + " (" + ratio(loam.WaitMean, easy.WaitMean) + ")", num(easy.WaitMean),
			le(loam.WaitMean, easy.WaitMean, 0.7)},
		{"bounded slowdown <= 0.7x", fmt.Sprintf("%.2f (%s)", loam.BSLDMean, ratio(loam.BSLDMean, easy.BSLDMean)),
			fmt.Sprintf("%.2f", easy.BSLDMean), le(loam.BSLDMean, easy.BSLDMean, 0.7)},
		{"GPU util no lower", pct(loam.GPUUtil), pct(easy.GPUUtil), loam.GPUUtil >= easy.GPUUtil-0.001},
		{"GPU goodput no lower", pct(loam.GPUGoodput), pct(easy.GPUGoodput), loam.GPUGoodput >= easy.GPUGoodput-0.001},
		{"wait p99 no worse", num(loam.WaitP99), num(easy.WaitP99), le(loam.WaitP99, easy.WaitP99, 1)},
		{"no tenant < 0.9 fair share", fmt.Sprintf("%.2f", loam.MinFairRatio), fmt.Sprintf("%.2f", easy.MinFairRatio),
			loam.FairOK},
		{"no job starved", fmt.Sprint(loam.Starved), fmt.Sprint(easy.Starved), loam.Starved == 0},
	}
}

func num(x float64) string { return fmt.Sprintf("%.0f", x) }
func pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

// WriteOutcomes prints one CSV line per job.
func WriteOutcomes(w io.Writer, outs []Outcome) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"job_id", "id", "tenant", "partition", "gpus", "submit_s", "start_s", "end_s", "state", "wait_s", "preempted"})
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	for _, o := range outs {
		cw.Write([]string{o.JobID, strconv.FormatUint(uint64(o.ID), 10), o.Tenant, o.Partition, strconv.Itoa(o.GPUs),
			f(o.Submit), f(o.Start), f(o.End), o.State, f(o.Wait), strconv.Itoa(o.Preempted)})
	}
	cw.Flush()
	return cw.Error()
}
