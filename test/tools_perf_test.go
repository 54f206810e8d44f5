//go:build integration

package test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestToolsPerf measures squeue and scancel end to end (process start
// included) against a real loam-ctld holding many pending jobs, next to
// the peer Slurm's numbers on this machine (squeue of 10,000 pending jobs
// 0.135 s; scancel -u of 20,000 jobs 5.0 s). Set LOAM_PERF_JOBS (e.g.
// 10000 or 100000) to run it; it is skipped otherwise because filling the
// queue takes a while.
func TestToolsPerf(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("LOAM_PERF_JOBS"))
	if n == 0 {
		t.Skip("set LOAM_PERF_JOBS=10000 to measure squeue and scancel")
	}
	c := clustertest.New(t, clustertest.Spec{Nodes: 4, Extra: "MaxJobCount=200000\n"})
	d := c.StartCtld(t)
	fill(t, d, n)
	dir := t.TempDir()
	lines := strings.Count(mustTool(t, c, dir, "squeue"), "\n")
	if lines != n+1 {
		t.Fatalf("squeue printed %d lines, want %d", lines, n+1)
	}
	for _, args := range [][]string{{"squeue"}, {"squeue", "-u", "root", "-t", "PD", "--format=%.18i %.9P %.8j %.8u %.2t %.10M %.6D %R"}} {
		var cpu []time.Duration
		med := median(t, 5, func() { cpu = append(cpu, cpuOf(t, c, dir, args...)) })
		slices.Sort(cpu)
		t.Logf("%s of %d pending jobs: median %.3f s wall, %.3f s CPU (user+sys) in squeue",
			strings.Join(args, " "), n, med.Seconds(), cpu[len(cpu)/2].Seconds())
	}
	one := median(t, 5, func() { mustTool(t, c, dir, "squeue", "-j", "1") })
	t.Logf("squeue -j 1 (start-up and one job): median %.3f s", one.Seconds())
	cl := d.Client()
	q := &api.JobQuery{States: []string{"PENDING", "CONFIGURING", "RUNNING", "SUSPENDED", "COMPLETING", "STAGE_OUT"},
		Fields: []string{"job_id", "array_job_id", "array_task_id", "array_task_string", "array_max_tasks", "partition",
			"name", "user_name", "user_id", "job_state", "start_time", "end_time", "node_count", "state_reason",
			"state_description", "nodes", "priority"}}
	table := median(t, 5, func() {
		if _, err := cl.JobTable(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("the job table alone (controller and transfer, in process): median %.3f s", table.Seconds())
	start := time.Now()
	mustTool(t, c, dir, "scancel", "-u", "root")
	t.Logf("scancel -u root of %d jobs: %.3f s", n, time.Since(start).Seconds())
	if left := strings.TrimSpace(mustTool(t, c, dir, "squeue", "-h")); left != "" {
		t.Errorf("jobs left after scancel -u: %d", strings.Count(left, "\n")+1)
	}
}

// fill submits n held jobs over 8 concurrent clients.
func fill(t *testing.T, d *clustertest.Ctld, n int) {
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			cl := d.Client()
			for i := w; i < n; i += 8 {
				req := clustertest.Job(func(r *job.Request) { r.Hold = true; r.Name = "perf" })
				if _, err := cl.Submit(context.Background(), &api.SubmitRequest{Job: req}); err != nil {
					errs <- fmt.Errorf("submit %d: %w", i, err)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// cpuOf runs a command and returns the CPU time it used.
func cpuOf(t *testing.T, c *clustertest.Cluster, dir string, args ...string) time.Duration {
	cmd := exec.Command(filepath.Join(clustertest.Bin(t), args[0]), args[1:]...)
	cmd.Dir, cmd.Env = dir, append(os.Environ(), "LOAM_CONF="+c.ConfPath)
	if err := cmd.Run(); err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

func median(t *testing.T, runs int, f func()) time.Duration {
	var ds []time.Duration
	for i := 0; i < runs; i++ {
		s := time.Now()
		f()
		ds = append(ds, time.Since(s))
	}
	slices.Sort(ds)
	return ds[len(ds)/2]
}
