package sim

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// Horizons the study scores, with the window of predicted (or actual)
// waits that counts as each: about 1 h is 30 min to 2 h, and so on.
var studyHorizons = []struct {
	Name   string
	At     time.Duration
	Lo, Hi time.Duration
}{
	{"1h", time.Hour, 30 * time.Minute, 2 * time.Hour},
	{"6h", 6 * time.Hour, 3 * time.Hour, 12 * time.Hour},
	{"24h", 24 * time.Hour, 12 * time.Hour, 48 * time.Hour},
}

// EstimateReport scores the study's predictions per horizon, two ways:
//
//   - by prediction: for each estimator, the first prediction of a pending
//     episode whose predicted wait falls in the horizon's window (what a
//     user told "about 1 h" experiences); each estimator has its own set
//     of jobs;
//   - by outcome: the last sample taken at least the horizon before the
//     job really started (and within 1.5 times it), where both estimators
//     are scored on the same jobs at the same moments.
//
// Errors are actual start minus predicted start, in seconds.
type EstimateReport struct {
	Horizons []HorizonScore `json:"horizons"`
	// Episodes is how many pending episodes ended in a start and had at
	// least one sample.
	Episodes int `json:"episodes"`
}

// HorizonScore is one horizon's scores.
type HorizonScore struct {
	Horizon       string     `json:"horizon"`
	LimitByPred   ErrorStats `json:"limit_by_prediction"`
	HistByPred    ErrorStats `json:"history_by_prediction"`
	LimitByActual ErrorStats `json:"limit_by_outcome"`
	HistByActual  ErrorStats `json:"history_by_outcome"`
}

// ErrorStats describe a set of signed errors (seconds).
type ErrorStats struct {
	N int `json:"n"`
	// MedianAbs is the median absolute error; P90Abs its 90th
	// percentile; MedianSigned shows the bias (positive: jobs start later
	// than predicted).
	MedianAbs    float64 `json:"median_abs_s"`
	P90Abs       float64 `json:"p90_abs_s"`
	MedianSigned float64 `json:"median_signed_s"`
}

// Report scores every resolved episode.
func (st *EstimateStudy) Report() EstimateReport {
	rep := EstimateReport{Episodes: len(st.scores)}
	for _, h := range studyHorizons {
		var lp, hp, la, ha []float64
		lo, hi := int64(h.Lo.Seconds()), int64(h.Hi.Seconds())
		at := int64(h.At.Seconds())
		for _, sc := range st.scores {
			if e, ok := firstInWindow(sc, lo, hi, func(p prediction) int64 { return p.limit }); ok {
				lp = append(lp, e)
			}
			if e, ok := firstInWindow(sc, lo, hi, func(p prediction) int64 { return p.hist }); ok {
				hp = append(hp, e)
			}
			if p, ok := atOutcome(sc, at); ok {
				la = append(la, float64(sc.start-p.limit))
				ha = append(ha, float64(sc.start-p.hist))
			}
		}
		rep.Horizons = append(rep.Horizons, HorizonScore{Horizon: h.Name,
			LimitByPred: errorStats(lp), HistByPred: errorStats(hp),
			LimitByActual: errorStats(la), HistByActual: errorStats(ha)})
	}
	return rep
}

// firstInWindow scores the first prediction whose predicted wait lies in
// [lo, hi).
func firstInWindow(sc scored, lo, hi int64, est func(prediction) int64) (float64, bool) {
	for _, p := range sc.preds {
		t := est(p)
		if t == 0 {
			continue
		}
		if w := t - p.at; w >= lo && w < hi {
			return float64(sc.start - t), true
		}
	}
	return 0, false
}

// atOutcome finds the last sample taken at least at before the start,
// if it is within 1.5 x at of it and both estimates exist.
func atOutcome(sc scored, at int64) (prediction, bool) {
	var best prediction
	found := false
	for _, p := range sc.preds {
		if sc.start-p.at >= at {
			best, found = p, true
		}
	}
	ok := found && sc.start-best.at < at*3/2 && best.limit != 0 && best.hist != 0
	return best, ok
}

func errorStats(errs []float64) ErrorStats {
	s := ErrorStats{N: len(errs)}
	if len(errs) == 0 {
		return s
	}
	abs := make([]float64, len(errs))
	for i, e := range errs {
		abs[i] = math.Abs(e)
	}
	slices.Sort(abs)
	signed := slices.Clone(errs)
	slices.Sort(signed)
	s.MedianAbs, s.P90Abs, s.MedianSigned = estQuantile(abs, 0.5), estQuantile(abs, 0.9), estQuantile(signed, 0.5)
	return s
}

// estQuantile of sorted values, nearest rank.
func estQuantile(sorted []float64, q float64) float64 {
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// WriteEstimateTable prints the reports of several policies: per horizon,
// the limit-only and the history-corrected median absolute error and the
// share of the limit-only error left.
func WriteEstimateTable(w io.Writer, policies []string, reps []EstimateReport) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, strings.Join([]string{"policy", "horizon", "scored by", "n (limit/hist)",
		"limit-only median |err|", "history median |err|", "ratio", "limit p90", "history p90", "limit bias", "history bias"}, "\t")+"\t")
	for i, rep := range reps {
		for _, h := range rep.Horizons {
			row := func(by string, l, hs ErrorStats) {
				fmt.Fprintln(tw, strings.Join([]string{policies[i], h.Horizon, by,
					fmt.Sprintf("%d/%d", l.N, hs.N), estDur(l.MedianAbs), estDur(hs.MedianAbs), estRatio(hs.MedianAbs, l.MedianAbs),
					estDur(l.P90Abs), estDur(hs.P90Abs), estDur(l.MedianSigned), estDur(hs.MedianSigned)}, "\t")+"\t")
			}
			row("prediction", h.LimitByPred, h.HistByPred)
			row("outcome", h.LimitByActual, h.HistByActual)
		}
	}
	return tw.Flush()
}

// estRatio prints a/b.
func estRatio(a, b float64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", a/b)
}

// estDur prints seconds as a short duration ("1h05m", "-12m", "40s").
func estDur(s float64) string {
	d := time.Duration(math.Round(s)) * time.Second
	neg := d < 0
	if neg {
		d = -d
	}
	var out string
	switch {
	case d >= time.Hour:
		out = fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	case d >= time.Minute:
		out = fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	default:
		out = fmt.Sprintf("%ds", int(d.Seconds()))
	}
	if neg {
		out = "-" + out
	}
	return out
}
