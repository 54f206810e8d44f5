package controller

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
)

// TestContribUsesExportedMetrics checks that the Grafana dashboard and the
// alert rules in contrib/ only name metrics loam-ctld exports, so a
// renamed metric cannot leave a silent panel or an alert that never fires.
func TestContribUsesExportedMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := newMetricSet(reg)
	names := map[string]bool{}
	ch := make(chan *prometheus.Desc, 100)
	for _, c := range []prometheus.Collector{m.wait, m.preempts, m.preemptGPUs, m.resvCreated, m.resvDropped, m.cycleSeconds,
		m.cycles, m.started, m.backfilled, m.deadlocks, m.considered, m.frag, m.ended, &liveCollector{}} {
		c.Describe(ch)
	}
	close(ch)
	fq := regexp.MustCompile(`fqName: "([a-z_]+)"`)
	for d := range ch {
		if s := fq.FindStringSubmatch(d.String()); s != nil {
			names[s[1]] = true
		}
	}
	used := regexp.MustCompile(`\bloam_[a-z_]+`)
	for _, path := range []string{"../../contrib/grafana/loam.json", "../../contrib/prometheus/loam-alerts.yml"} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var missing []string
		for _, name := range used.FindAllString(string(data), -1) {
			base := name
			for _, suf := range []string{"_bucket", "_count", "_sum"} {
				base = strings.TrimSuffix(base, suf)
			}
			if !names[base] && !names[name] && !slices.Contains(missing, name) {
				missing = append(missing, name)
			}
		}
		if len(missing) > 0 {
			t.Errorf("%s names metrics loam-ctld does not export: %v", path, missing)
		}
	}
}
