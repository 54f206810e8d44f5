// Command live-replay replays a window of a job trace through the live
// system, loam-ctld (in this process, on a clock running -scale times
// faster than the wall clock) with one real loam-noded per node (emulated
// nodes running real processes: each job sleeps its run time, compressed),
// and through the simulator (pkg/sim) with the same jobs and
// configuration; then it compares the two job by job: first start times
// and preemptions. See README.md beside this file.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"
)

var (
	tracePath = flag.String("trace", "bench/traces/alibaba-dense.csv", "trace CSV")
	confPath  = flag.String("conf", "bench/sim/alibaba/slurm.conf", "slurm.conf of the replayed cluster (tenants.conf beside it)")
	bin       = flag.String("bin", "bin", "directory holding loam-noded")
	from      = flag.Duration("from", 0, "start of the window, in trace time")
	span      = flag.Duration("span", 24*time.Hour, "length of the window, in trace time")
	scale     = flag.Float64("scale", 600, "trace seconds per wall-clock second")
	outPath   = flag.String("out", "", "write the per-job comparison as CSV to FILE")
	keep      = flag.Bool("keep", false, "keep the temporary directory (logs, state)")
)

func main() {
	flag.Parse()
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "live-replay:", err)
		os.Exit(1)
	}
}

func run() error {
	jobs, conf, err := loadWindow(*tracePath, *confPath, *from, *span)
	if err != nil {
		return err
	}
	fmt.Printf("window %s + %s of %s: %d jobs; scale %.0fx (%.1f min of wall time)\n", *from, *span, *tracePath,
		len(jobs), *scale, span.Seconds() / *scale / 60)
	simOut, err := simulate(jobs, conf, *scale, *span)
	if err != nil {
		return err
	}
	liveOut, err := replayLive(jobs, conf, *confPath, *bin, *span, *scale, *keep)
	if err != nil {
		return err
	}
	return compare(os.Stdout, jobs, simOut, liveOut, *span, *scale, *outPath)
}
