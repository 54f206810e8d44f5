//go:build integration

package test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/history"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/test/clustertest"
)

// observeCluster is two fake nodes of 4 GPUs: two 4-GPU jobs with a
// one-hour limit hold them and three more wait, so every pending job has
// a position and an estimate.
type observeCluster struct {
	c       *clustertest.Cluster
	d       *clustertest.Ctld
	running []uint32
	waiting []uint32
}

const observePartitions = `PartitionName=normal Nodes=ALL Default=YES MaxTime=UNLIMITED DefaultTime=01:00:00 State=UP PriorityTier=2
PartitionName=batch Nodes=ALL MaxTime=UNLIMITED DefaultTime=01:00:00 State=UP PriorityTier=1 QueueClass=batch AgingRate=50`

func gpus4(name string) job.Request {
	limit := time.Hour
	return clustertest.Job(func(r *job.Request) {
		r.Name, r.TimeLimit = name, &limit
		r.GRES = []resource.GRES{{Name: "gpu", Count: 4}}
	})
}

func startObserveCluster(t *testing.T) *observeCluster {
	t.Helper()
	c := clustertest.New(t, clustertest.Spec{Nodes: 2, GPUs: 4, Extra: observePartitions})
	seedHistory(t, filepath.Join(c.Dir, "state", history.FileName), time.Now())
	d := c.StartCtld(t)
	c.StartNode(t, d, 0)
	c.StartNode(t, d, 1)
	oc := &observeCluster{c: c, d: d}
	cl := d.Client()
	for i := range 2 {
		oc.running = append(oc.running, clustertest.Submit(t, cl, gpus4(fmt.Sprintf("train%d", i))))
	}
	clustertest.Eventually(t, 20*time.Second, "both training jobs to run", func() error {
		for _, id := range oc.running {
			if j, err := clustertest.JobState(cl, id); err != nil || j.JobState != job.Running {
				return fmt.Errorf("job %d: %s %v", id, j.JobState, err)
			}
		}
		return nil
	})
	for i := range 3 {
		oc.waiting = append(oc.waiting, clustertest.Submit(t, cl, gpus4(fmt.Sprintf("eval%d", i))))
	}
	return oc
}

// seedHistory writes seven days of hourly history as loam-ctld records it
// (series names of ctld/controller/history.go): the batch queue's wait
// rises from 1 h to 7 h, tenant "vision" uses a tenth of its guarantee,
// "speech" borrows, a few preemptions, fragmentation over the day.
func seedHistory(t *testing.T, path string, now time.Time) {
	t.Helper()
	db, err := history.Open(path, history.Retention{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	start := now.Add(-7 * 24 * time.Hour).Truncate(time.Hour)
	for at := start; at.Before(now.Add(-time.Hour)); at = at.Add(time.Hour) {
		day := at.Sub(start).Hours() / 24
		hour := float64(at.Hour())
		pts := []history.Point{
			{Series: "started", Label: "batch", Value: 20}, {Series: "wait_sum", Label: "batch", Value: 20 * 3600 * (1 + day)},
			{Series: "started", Label: "normal", Value: 40}, {Series: "wait_sum", Label: "normal", Value: 40 * 600},
			{Series: "tenant_util", Label: "vision", Value: 0.1}, {Series: "tenant_gpus", Label: "vision", Value: 3},
			{Series: "tenant_util", Label: "speech", Value: 0.5 + hour/24}, {Series: "tenant_borrowed", Label: "speech", Value: 2},
			{Series: "preempted", Label: "speech", Value: 1}, {Series: "preempt_gpuh", Label: "speech", Value: 2.5},
			{Series: "frag", Value: 0.2 + 0.3*hour/24},
		}
		for i, n := range []float64{5, 8, 4, 2, 1, 0, 0, 0, 0} {
			pts = append(pts, history.Point{Series: "wait_bucket", Label: fmt.Sprintf("normal|%d", i), Value: n * 4})
		}
		if err := db.Record(at, pts); err != nil {
			t.Fatal(err)
		}
	}
}

// waitCorrected waits until squeue --start shows every waiting job with a
// history-corrected estimate: on limits alone the first two would start
// in 1 h and the third in 2 h; with the prior's half of the limit, in
// about 30 and 60 min.
func waitCorrected(t *testing.T, oc *observeCluster, dir string) {
	t.Helper()
	clustertest.Eventually(t, 40*time.Second, "corrected estimates for the waiting jobs", func() error {
		out := mustTool(t, oc.c, dir, "squeue", "--start", "-h", "-o", "%i %S %R", "-S", "i")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 3 || strings.Contains(out, "N/A") {
			return fmt.Errorf("squeue --start:\n%s", out)
		}
		for i, l := range lines {
			f := strings.Fields(l)
			at, err := time.ParseInLocation("2006-01-02T15:04:05", f[1], time.Local)
			if err != nil {
				return err
			}
			if limit := time.Duration(1+i/2) * time.Hour; time.Until(at) > limit*3/4 {
				return fmt.Errorf("job %s still near the limit-only estimate: %s", f[0], f[1])
			}
		}
		return nil
	})
}
