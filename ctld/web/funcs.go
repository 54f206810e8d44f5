package web

import (
	"fmt"
	"html/template"
	"math"
	"time"
)

var funcs = template.FuncMap{
	"heatmap":   heatmap,
	"bars":      bars,
	"usageBar":  usageBar,
	"waitChart": func(p []Point) template.HTML { return lineChart(p, 0, waitLabel, "mean wait per day") },
	"fragChart": func(p []Point) template.HTML { return lineChart(p, 1, pctLabel, "fragmentation rate") },
	"pct":       pctLabel,
	"dur":       durLabel,
	"clock":     func(t time.Time) string { return clock(t) },
	"until":     until,
	"spanName":  spanName,
	"spanArg":   spanArg,
	"gpuh":      func(f float64) string { return fmt.Sprintf("%.1f", f) },
	"ratio":     func(f float64) string { return fmt.Sprintf("%.2f", f) },
}

func pctLabel(f float64) string {
	if math.IsNaN(f) {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*f)
}

func waitLabel(sec float64) string { return durLabel(time.Duration(sec * float64(time.Second))) }

// durLabel prints a duration for people: "45 s", "12 min", "2.5 h", "3 days".
func durLabel(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%.0f s", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%.0f min", d.Minutes())
	case d < 48*time.Hour:
		return trim(fmt.Sprintf("%.1f", d.Hours())) + " h"
	}
	return trim(fmt.Sprintf("%.1f", d.Hours()/24)) + " days"
}

func trim(s string) string {
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		return s[:len(s)-2]
	}
	return s
}

// clock prints a time as Slurm does (2026-11-29T11:43:23), or "-".
func clock(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Format("2006-01-02T15:04:05")
}

// until says how far away t is from now: "now", "in about 2 h", "unknown".
func until(t, now time.Time) string {
	if t.IsZero() {
		return "unknown"
	}
	d := t.Sub(now)
	if d < time.Minute {
		return "now"
	}
	return "in about " + durLabel(d)
}

func spanName(d time.Duration) string {
	if d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%d days", int(d.Hours()/24))
	}
	return fmt.Sprintf("%d hours", int(d.Hours()))
}

func spanArg(d time.Duration) string {
	if d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%dd", int(d.Hours()/24))
	}
	return fmt.Sprintf("%dh", int(d.Hours()))
}
