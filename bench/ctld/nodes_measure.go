package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/client"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// idleNodes watches loam-ctld while the nodes only heartbeat.
func (b *bench) idleNodes(fc *fakeCluster) error {
	cpu0, err := cpuTime(b.pid)
	if err != nil {
		return err
	}
	t0 := time.Now()
	time.Sleep(*idleFor)
	cpu1, err := cpuTime(b.pid)
	if err != nil {
		return err
	}
	pct := 100 * (cpu1 - cpu0).Seconds() / time.Since(t0).Seconds()
	report("nodes", fmt.Sprintf("loam-ctld CPU over %s of idle heartbeats", *idleFor), fmt.Sprintf("%.1f %% of a core", pct))
	report("nodes", fmt.Sprintf("loam-ctld RSS, %d idle nodes", len(fc.names)), rss(b.pid))
	return nil
}

// cpuTime is the user and system time of process pid (/proc/PID/stat,
// in clock ticks of 1/100 s).
func cpuTime(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:]) // fields from the 3rd on
	var utime, stime int64
	if _, err := fmt.Sscan(f[11]+" "+f[12], &utime, &stime); err != nil {
		return 0, fmt.Errorf("parse /proc/%d/stat: %w", pid, err)
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond, nil
}

// gpuJob is a job of one GPU on one node.
func gpuJob(name string) job.Request {
	limit := 10 * time.Minute
	return job.Request{Name: name, Script: "#!/bin/sh\ntrue\n", WorkDir: "/tmp", Partitions: []string{"batch"},
		GRES: []resource.GRES{{Name: "gpu", Count: 1}}, TimeLimit: &limit}
}

// submitted records when each job's submission began.
type submitted struct {
	mu sync.Mutex
	at map[uint32]time.Time
}

// submitMany submits n copies of req from -streams parallel streams.
func (b *bench) submitMany(n int, req job.Request) (*submitted, error) {
	sub := &submitted{at: make(map[uint32]time.Time, n)}
	var wg sync.WaitGroup
	errs := make(chan error, *streams)
	for s := 0; s < *streams; s++ {
		count := n / *streams
		if s < n%*streams {
			count++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < count; i++ {
				t0 := time.Now()
				resp, err := b.cl.Submit(context.Background(), &api.SubmitRequest{Job: req})
				if err != nil {
					errs <- err
					return
				}
				sub.mu.Lock()
				sub.at[resp.JobID] = t0
				sub.mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(errs)
	return sub, <-errs
}

// latencies are the submit-to-launch times of sub's jobs, sorted; missing
// counts the jobs not launched.
func (fc *fakeCluster) latencies(sub *submitted) (out []time.Duration, missing int) {
	for id, t := range sub.at {
		if at, ok := fc.launchTime(id); ok {
			out = append(out, at.Sub(t))
		} else {
			missing++
		}
	}
	slices.Sort(out)
	return out, missing
}

func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	return ds[min(len(ds)-1, int(q*float64(len(ds))))]
}

// activeJobs counts the jobs pending, running or completing.
func (b *bench) activeJobs() (int, error) {
	t, err := b.cl.JobTable(context.Background(), &api.JobQuery{Fields: []string{"job_id"}, States: []string{"PD", "R", "CG"}})
	if err != nil {
		return 0, err
	}
	jobs, err := t.Jobs()
	return len(jobs), err
}

// waitDrained waits until no job is pending, running or completing.
func (b *bench) waitDrained(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		n, err := b.activeJobs()
		if err != nil || n == 0 {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%d jobs still active after %s", n, timeout)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// jobThroughput runs -jobs 1-GPU jobs of -job-run each through the
// cluster.
func (b *bench) jobThroughput(fc *fakeCluster) error {
	t0 := time.Now()
	sub, err := b.submitMany(*nJobs, gpuJob("thru"))
	if err != nil {
		return err
	}
	subDone := time.Since(t0)
	if err := b.waitDrained(5 * time.Minute); err != nil {
		return err
	}
	total := time.Since(t0)
	lat, missing := fc.latencies(sub)
	if missing > 0 {
		return fmt.Errorf("%d jobs ended without a launch", missing)
	}
	report("nodes", fmt.Sprintf("%d 1-GPU jobs of %s submitted (%d streams)", *nJobs, *jobRun, *streams),
		fmt.Sprintf("%.0f jobs/s", float64(*nJobs)/subDone.Seconds()))
	report("nodes", "  all run and ended", fmt.Sprintf("%s, %.0f jobs/s", secs(total), float64(*nJobs)/total.Seconds()))
	report("nodes", "  submit-to-start (launch at the node): median, p99, max",
		fmt.Sprintf("%.3f s, %.3f s, %.3f s", quantile(lat, 0.5).Seconds(), quantile(lat, 0.99).Seconds(), lat[len(lat)-1].Seconds()))
	report("nodes", fmt.Sprintf("  loam-ctld RSS after %d jobs", *nJobs), rss(b.pid))
	return nil
}

// wideJob starts one -wide-node --exclusive job on the idle cluster.
func (b *bench) wideJob(fc *fakeCluster) error {
	if *wideNodes > len(fc.names) {
		return nil
	}
	req := gpuJob("wide")
	req.GRES, req.MinNodes, req.MaxNodes, req.NodesSet, req.Exclusive = nil, *wideNodes, *wideNodes, true, job.ExclusiveNodes
	t0 := time.Now()
	resp, err := b.cl.Submit(context.Background(), &api.SubmitRequest{Job: req})
	if err != nil {
		return err
	}
	if err := b.waitDrained(2 * time.Minute); err != nil {
		return err
	}
	first, ok := fc.launchTime(resp.JobID)
	if !ok {
		return fmt.Errorf("job %d never launched", resp.JobID)
	}
	report("nodes", fmt.Sprintf("one -N%d --exclusive job, idle cluster: submit to batch launch", *wideNodes), secs(first.Sub(t0)))
	fc.mu.Lock()
	sp := fc.spread[resp.JobID]
	fc.mu.Unlock()
	report("nodes", fmt.Sprintf("  submit to the last of its %d node launches", sp.nodes), secs(sp.last.Sub(t0)))
	return nil
}

// commandTimes runs the real squeue, sinfo and scontrol show node.
func (b *bench) commandTimes(fc *fakeCluster) error {
	for _, argv := range [][]string{{"squeue"}, {"sinfo"}, {"sinfo", "-N"}, {"scontrol", "show", "node"}} {
		var lines int
		d, err := median(5, func() error {
			cmd := exec.Command(filepath.Join(*bin, argv[0]), argv[1:]...)
			cmd.Env = append(os.Environ(), client.EnvConf+"="+b.conf)
			out, err := cmd.Output()
			lines = strings.Count(string(out), "\n")
			if err != nil {
				return fmt.Errorf("%s: %w", strings.Join(argv, " "), err)
			}
			return nil
		})
		if err != nil {
			return err
		}
		report("nodes", fmt.Sprintf("%s, %d nodes (%d lines), median of 5", strings.Join(argv, " "), len(fc.names), lines), secs(d))
	}
	return nil
}
