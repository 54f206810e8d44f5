package main

import (
	"context"
	"fmt"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

// restartCtld restarts loam-ctld with -restart-jobs jobs pending and
// measures how long it takes to schedule again. The jobs wait in a
// partition set DOWN at run time, which the restart brings back UP from
// slurm.conf (partition updates are not stored, as in Slurm): the first
// cycles after the restart start them.
func (b *bench) restartCtld(fc *fakeCluster) error {
	down := "DOWN"
	if _, err := b.cl.UpdatePartition(context.Background(), &api.PartitionUpdate{Name: "batch", State: &down}); err != nil {
		return err
	}
	sub, err := b.submitMany(*nRestart, gpuJob("restart"))
	if err != nil {
		return err
	}
	t0 := time.Now()
	b.stopCtld()
	stopped := time.Since(t0)
	t1 := time.Now()
	d := &ctldDir{conf: b.conf, sock: fc.d.sock, port: fc.d.port, key: fc.d.key, dir: fc.d.dir}
	if err := b.launch(d); err != nil {
		return err
	}
	answered := time.Since(t1)
	report("nodes", fmt.Sprintf("restart with %d pending jobs: SIGTERM to exit", *nRestart), secs(stopped))
	report("nodes", "  start to first answer", secs(answered))
	var first, allNodes, all time.Duration
	deadline := time.Now().Add(4 * time.Minute)
	for first == 0 || allNodes == 0 || all == 0 {
		if time.Now().After(deadline) {
			return fmt.Errorf("not scheduling again after 4 min (first start %s, nodes back %s)", first, allNodes)
		}
		lat, missing := fc.latencies(sub)
		if first == 0 && len(lat) > 0 {
			first = time.Since(t1)
		}
		if all == 0 && missing == 0 {
			all = time.Since(t1)
		}
		if allNodes == 0 {
			n, err := b.countNodes()
			if err != nil {
				return err
			}
			if n == len(fc.names) {
				allNodes = time.Since(t1)
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	report("nodes", fmt.Sprintf("  start to every node responding (%d)", len(fc.names)), secs(allNodes))
	report("nodes", "  start to the first job started", secs(first))
	report("nodes", fmt.Sprintf("  start to all %d jobs started", *nRestart), secs(all))
	return b.waitDrained(3 * time.Minute)
}
