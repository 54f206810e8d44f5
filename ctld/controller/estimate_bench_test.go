package controller

import (
	"testing"
	"time"
)

// BenchmarkEstimateInput is what the estimator holds the read lock for at
// 100,000 live jobs; BenchmarkEstimateRun the whole recomputation (input,
// model, result map), which runs on its own goroutine every 15 s.
func BenchmarkEstimateInput(b *testing.B) {
	now := time.Date(2026, 6, 1, 12, 0, 30, 0, time.UTC)
	c, _ := benchController(b, now)
	b.ResetTimer()
	for range b.N {
		c.mu.RLock()
		c.estimateSnapshot()
		c.mu.RUnlock()
	}
}

func BenchmarkEstimateRun(b *testing.B) {
	now := time.Date(2026, 6, 1, 12, 0, 30, 0, time.UTC)
	c, _ := benchController(b, now)
	b.ResetTimer()
	for range b.N {
		c.obs.est.run()
	}
}
