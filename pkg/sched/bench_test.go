package sched_test

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/sched/schedtest"
)

// BenchmarkCycle measures one full cycle (priority, quota, placement,
// reservations, backfill and start estimates over every pending job) on
// 4,096 nodes of 8 GPUs with 30% of the GPUs busy.
func BenchmarkCycle(b *testing.B) {
	for _, n := range []int{1000, 10000, 50000, 100000} {
		b.Run(fmt.Sprintf("pending=%d", n), func(b *testing.B) {
			cfg, snap := schedtest.BigCluster(1, 4096, n, 0.3)
			s := sched.New(cfg)
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuTime()
			for b.Loop() {
				s.Cycle(snap)
			}
			// The machine is shared: CPU time per cycle (all threads,
			// garbage collection included) is steadier than wall time.
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
		})
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
