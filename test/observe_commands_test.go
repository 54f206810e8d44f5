//go:build integration

package test

import (
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/test/clustertest"
)

// TestObserveStartEstimates: squeue --start shows an estimated start for
// every waiting job, earlier than the one-hour limits of the running
// jobs (the estimates assume jobs use part of their limit); --me says
// where each job stands on standard error; scontrol show job agrees.
func TestObserveStartEstimates(t *testing.T) {
	oc := startObserveCluster(t)
	dir := t.TempDir()
	waitCorrected(t, oc, dir)
	r := runTool(t, oc.c, dir, "", "squeue", "--me")
	if r.code != 0 || !strings.Contains(r.stdout, "eval0") {
		t.Fatalf("squeue --me: %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	want := regexp.MustCompile(`job \d+ \(eval0\): position 1 of 3 in normal, expected start (now|in about \d+ min \(.*\))`)
	if !want.MatchString(r.stderr) || strings.Contains(r.stdout, "position") {
		t.Errorf("squeue --me standing lines on stderr:\n%s", r.stderr)
	}
	show := mustTool(t, oc.c, dir, "scontrol", "show", "job", fmt.Sprint(oc.waiting[0]))
	if !strings.Contains(show, "QueuePosition=1") {
		t.Errorf("scontrol show job:\n%s", show)
	}
	pos := mustTool(t, oc.c, dir, "squeue", "-h", "-t", "PD", "-o", "%i %#", "-S", "i")
	if pos != fmt.Sprintf("%d 1\n%d 2\n%d 3\n", oc.waiting[0], oc.waiting[1], oc.waiting[2]) {
		t.Errorf("positions (%%#):\n%s", pos)
	}
}

// TestObserveMetricsAndSuggestions: /metrics on the TCP port carries the
// live gauges, and the suggestion the seeded history calls for is shown
// by scontrol.
func TestObserveMetricsAndSuggestions(t *testing.T) {
	oc := startObserveCluster(t)
	var body string
	clustertest.Eventually(t, 20*time.Second, "the waiting jobs in /metrics", func() error {
		resp, err := http.Get("http://" + oc.d.Addr() + "/metrics")
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		body = string(b)
		if !strings.Contains(body, `loam_jobs{partition="normal",state="PENDING"} 3`) {
			return fmt.Errorf("no pending jobs yet")
		}
		return nil
	})
	for _, w := range []string{`loam_gpus{state="allocated"} 8`, `loam_job_wait_seconds_count{partition="normal"} 2`,
		`loam_scheduler_cycle_seconds_bucket`, `loam_fragmentation_ratio 0`, `process_resident_memory_bytes`} {
		if !strings.Contains(body, w) {
			t.Errorf("/metrics lacks %q", w)
		}
	}
	out := mustTool(t, oc.c, t.TempDir(), "scontrol", "show", "suggestions")
	if !strings.Contains(out, "Action=raise AgingRate of partition batch in slurm.conf") || !strings.Contains(out, "Why=mean wait rose") {
		t.Errorf("scontrol show suggestions:\n%s", out)
	}
	tok := mustTool(t, oc.c, t.TempDir(), "scontrol", "token", "lifespan=600")
	if !regexp.MustCompile(`^SLURM_JWT=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\n$`).MatchString(tok) {
		t.Errorf("scontrol token: %q", tok)
	}
}
