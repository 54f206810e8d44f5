package controller

import (
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// diagCounters reads the counters sdiag reports, as they are now.
func (m *metricSet) diagCounters() diagCounters {
	d := diagCounters{
		submitted:  counterValue(m.submitted),
		started:    counterValue(m.started),
		backfilled: counterValue(m.backfilled),
		cycles:     counterValue(m.cycles),
		examined:   counterValue(m.examined),
		ended:      map[string]float64{},
		paths:      map[string]callStat{},
		users:      map[string]callStat{},
	}
	for _, h := range collect(m.cycleSeconds) {
		d.cycleSecs += h.GetHistogram().GetSampleSum()
	}
	for _, e := range collect(m.ended) {
		d.ended[label(e, "state")] += e.GetCounter().GetValue()
	}
	for _, h := range collect(m.apiSeconds) {
		d.paths[label(h, "path")] = callStat{float64(h.GetHistogram().GetSampleCount()), h.GetHistogram().GetSampleSum()}
	}
	for _, u := range collect(m.userCalls) {
		s := d.users[label(u, "uid")]
		s.count = u.GetCounter().GetValue()
		d.users[label(u, "uid")] = s
	}
	for _, u := range collect(m.userSeconds) {
		s := d.users[label(u, "uid")]
		s.secs = u.GetCounter().GetValue()
		d.users[label(u, "uid")] = s
	}
	return d
}

// collect reads every series of a collector.
func collect(c prometheus.Collector) []*dto.Metric {
	ch := make(chan prometheus.Metric)
	go func() { c.Collect(ch); close(ch) }()
	var out []*dto.Metric
	for m := range ch {
		var d dto.Metric
		if m.Write(&d) == nil {
			out = append(out, &d)
		}
	}
	return out
}

func counterValue(c prometheus.Counter) float64 {
	var d dto.Metric
	if c.Write(&d) != nil {
		return 0
	}
	return d.GetCounter().GetValue()
}

func gaugeValue(g prometheus.Gauge) float64 {
	var d dto.Metric
	if g.Write(&d) != nil {
		return 0
	}
	return d.GetGauge().GetValue()
}

// label is m's value of the label name.
func label(m *dto.Metric, name string) string {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue()
		}
	}
	return ""
}
