// Command ctld-bench measures loam-ctld from the client side through
// pkg/client: sequential and parallel submissions, an array submission,
// listing 10k/100k jobs (compact table and full records), cancelling 20k
// jobs of a user, and the daemon's RSS with 100k jobs; and, alone (-parts
// nodes), a controller with thousands of fake node daemons (nodes.go).
//
// By default it starts its own loam-ctld (from -bin) with a generated
// configuration in a temporary directory; -conf uses a running one.
// See README.md beside this file.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/client"
	"github.com/loamhpc/loam/pkg/job"
)

var (
	bin      = flag.String("bin", "bin", "directory holding loam-ctld")
	conf     = flag.String("conf", "", "use the loam-ctld of this slurm.conf instead of starting one")
	syncMode = flag.String("sync", "full", "durability of the started loam-ctld: full or normal")
	nSeq     = flag.Int("seq", 2000, "sequential submissions")
	nPar     = flag.Int("par", 8000, "submissions from -streams parallel streams")
	streams  = flag.Int("streams", 4, "parallel submission streams")
	nArray   = flag.Int("array", 10000, "tasks of the array submission")
	nBig     = flag.Int("big", 100000, "total jobs for the 100k listing and RSS (0: skip)")
	parts    = flag.String("parts", "seq,proc,par,array,list,cancel,big", "parts to run (also: fill, which submits -big held jobs from 8 streams and leaves them; nodes, alone: see -nodes)")
	nProc    = flag.Int("proc", 500, "sequential submissions, each from a new process that reads slurm.conf")
	once     = flag.Bool("submit-once", false, "(internal) submit one held job through client.Discover and exit")
	extra    = flag.String("ctld-flags", "", "extra flags for the started loam-ctld (space separated)")
	hold     = flag.Duration("hold-open", 0, "after the 100k submissions, or the nodes part, wait this long (for profiling)")
)

func main() {
	flag.Parse()
	if *once {
		if err := submitOnce(); err != nil {
			fmt.Fprintln(os.Stderr, "ctld-bench:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "ctld-bench:", err)
		os.Exit(1)
	}
}

type bench struct {
	cl   *client.Client
	pid  int
	conf string
	cmd  *exec.Cmd // the started loam-ctld
}

// submitOnce is what a minimal sbatch does: find the controller through
// slurm.conf, submit, print the id.
func submitOnce() error {
	cl, err := client.Discover()
	if err != nil {
		return err
	}
	resp, err := cl.Submit(context.Background(), &api.SubmitRequest{Job: heldJob()})
	if err != nil {
		return err
	}
	fmt.Println("Submitted batch job", resp.JobID)
	return nil
}

// processes submits from a new process each time, as sequential sbatch
// calls do: process start, config parse, connect, submit.
func (b *bench) processes() error {
	if b.conf == "" {
		return nil
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	t0 := time.Now()
	for i := 0; i < *nProc; i++ {
		cmd := exec.Command(self, "-submit-once")
		cmd.Env = append(os.Environ(), client.EnvConf+"="+b.conf)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%v: %s", err, out)
		}
	}
	d := time.Since(t0)
	report("proc", fmt.Sprintf("%d sequential submissions, one process each", *nProc), fmt.Sprintf("%.0f jobs/s (%.2f ms/job)", float64(*nProc)/d.Seconds(), d.Seconds()*1000/float64(*nProc)))
	return nil
}

func run() error {
	b := &bench{}
	if *conf != "" {
		b.conf = *conf
		os.Setenv(client.EnvConf, *conf)
		cl, err := client.Discover()
		if err != nil {
			return err
		}
		b.cl = cl
	} else if *parts != "nodes" { // the nodes part starts its own
		stop, err := b.startCtld()
		if err != nil {
			return err
		}
		defer stop()
	}
	want := map[string]bool{}
	for _, p := range strings.Split(*parts, ",") {
		want[p] = true
	}
	steps := []struct {
		name string
		fn   func() error
	}{
		{"seq", b.sequential}, {"proc", b.processes}, {"par", b.parallel}, {"array", b.array}, {"list", b.list},
		{"cancel", b.cancel}, {"big", b.big}, {"fill", b.fill}, {"nodes", b.nodes},
	}
	for _, s := range steps {
		if want[s.name] {
			if err := s.fn(); err != nil {
				return fmt.Errorf("%s: %w", s.name, err)
			}
		}
	}
	return nil
}

func report(part, what string, v string) { fmt.Printf("%-6s %-52s %s\n", part, what, v) }

func heldJob() job.Request {
	return job.Request{Name: "wrap", Script: "#!/bin/sh\ntrue\n", WorkDir: "/tmp", Hold: true, Partitions: []string{"batch"}}
}

func (b *bench) submit(req job.Request) error {
	_, err := b.cl.Submit(context.Background(), &api.SubmitRequest{Job: req})
	return err
}

func (b *bench) sequential() error {
	t0 := time.Now()
	for i := 0; i < *nSeq; i++ {
		if err := b.submit(heldJob()); err != nil {
			return err
		}
	}
	d := time.Since(t0)
	report("seq", fmt.Sprintf("%d sequential submissions (--hold)", *nSeq), fmt.Sprintf("%.0f jobs/s (%.2f ms/job)", float64(*nSeq)/d.Seconds(), d.Seconds()*1000/float64(*nSeq)))
	return nil
}

func (b *bench) parallel() error {
	t0 := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, *streams)
	per := *nPar / *streams
	for s := 0; s < *streams; s++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < per; i++ {
				if err := b.submit(heldJob()); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	d := time.Since(t0)
	report("par", fmt.Sprintf("%d submissions from %d streams", per**streams, *streams), fmt.Sprintf("%.0f jobs/s", float64(per**streams)/d.Seconds()))
	return nil
}

func (b *bench) array() error {
	req := heldJob()
	req.Array = fmt.Sprintf("0-%d", *nArray-1)
	t0 := time.Now()
	if err := b.submit(req); err != nil {
		return err
	}
	report("array", fmt.Sprintf("one --array=0-%d --hold", *nArray-1), fmt.Sprintf("%.4f s", time.Since(t0).Seconds()))
	return nil
}

// squeueFields are the columns of squeue's default format.
var squeueFields = []string{"job_id", "array_job_id", "array_task_id", "array_task_string", "partition", "name",
	"user_name", "job_state", "start_time", "time_limit", "node_count", "nodes", "state_reason"}

func median(runs int, fn func() error) (time.Duration, error) {
	var ds []time.Duration
	for i := 0; i < runs; i++ {
		t0 := time.Now()
		if err := fn(); err != nil {
			return 0, err
		}
		ds = append(ds, time.Since(t0))
	}
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2], nil
}

func (b *bench) listOnce(states []string) (int, error) {
	t, err := b.cl.JobTable(context.Background(), &api.JobQuery{Fields: squeueFields, States: states})
	if err != nil {
		return 0, err
	}
	jobs, err := t.Jobs()
	return len(jobs), err
}

func (b *bench) list() error {
	var n int
	d, err := median(5, func() (err error) { n, err = b.listOnce([]string{"PD", "R", "CG"}); return err })
	if err != nil {
		return err
	}
	report("list", fmt.Sprintf("job table of %d records (squeue fields), median of 5", n), fmt.Sprintf("%.4f s", d.Seconds()))
	d, err = median(5, func() error {
		r, err := b.cl.Jobs(context.Background(), &api.JobQuery{States: []string{"PD"}})
		n = len(r.Jobs)
		return err
	})
	if err != nil {
		return err
	}
	report("list", fmt.Sprintf("full records of %d jobs, median of 5", n), fmt.Sprintf("%.4f s", d.Seconds()))
	d, err = median(5, func() error {
		_, err := b.cl.JobTable(context.Background(), &api.JobQuery{Fields: squeueFields, JobIDs: []string{"1"}})
		return err
	})
	if err != nil {
		return err
	}
	report("list", "one job by id (squeue -j), median of 5", fmt.Sprintf("%.4f s", d.Seconds()))
	return nil
}

func (b *bench) cancel() error {
	user := "root"
	t0 := time.Now()
	res, err := b.cl.Cancel(context.Background(), &api.CancelRequest{Filter: api.JobFilter{Users: []string{user}, States: []string{"PD"}}})
	if err != nil {
		return err
	}
	report("cancel", fmt.Sprintf("cancel -u %s of %d records", user, len(res.Results)), fmt.Sprintf("%.3f s", time.Since(t0).Seconds()))
	return nil
}

func (b *bench) big() error {
	if *nBig == 0 {
		return nil
	}
	if err := b.fill(); err != nil {
		return err
	}
	var n int
	d, err := median(5, func() (err error) { n, err = b.listOnce([]string{"PD"}); return err })
	if err != nil {
		return err
	}
	report("big", fmt.Sprintf("job table of %d pending jobs, median of 5", n), fmt.Sprintf("%.4f s", d.Seconds()))
	if b.pid != 0 {
		report("big", fmt.Sprintf("loam-ctld RSS with %d jobs", n), rss(b.pid))
	}
	time.Sleep(*hold)
	return b.cancel()
}

// fill submits -big held jobs from 8 parallel streams (the compare
// script's way to a queue of 100,000 jobs for the real squeue).
func (b *bench) fill() error {
	t0 := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for s := 0; s < 8; s++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < *nBig/8; i++ {
				if err := b.submit(heldJob()); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	report("big", fmt.Sprintf("%d submissions from 8 streams", *nBig/8*8), fmt.Sprintf("%.0f jobs/s", float64(*nBig/8*8)/time.Since(t0).Seconds()))
	return nil
}

func rss(pid int) string {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "unknown"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "VmRSS:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmRSS:"))
		}
	}
	return "unknown"
}

// startCtld starts loam-ctld on a generated 40-node configuration in a
// temporary directory.
func (b *bench) startCtld() (func(), error) {
	d, err := newCtldDir()
	if err != nil {
		return nil, err
	}
	nodes := `NodeName=gpu[001-040] NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=64 RealMemory=512000 Port=[17101-17140]
PartitionName=batch Nodes=ALL Default=YES MaxTime=UNLIMITED DefaultTime=01:00:00 State=UP
`
	if err := d.writeConf("SchedulerParameters=sched_interval=10,bf_interval=5\n" + nodes); err != nil {
		d.remove()
		return nil, err
	}
	b.conf = d.conf
	if err := b.launch(d); err != nil {
		d.remove()
		return nil, err
	}
	return func() { b.stopCtld(); d.remove() }, nil
}
