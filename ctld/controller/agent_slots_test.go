package controller

import (
	"sync/atomic"
	"testing"
	"time"
)

// TestAgentCallsBounded: the calls to node daemons a batch sends run at
// most agentSlots at a time, so an order for thousands of running jobs
// never holds a connection (a file descriptor) for each at once; the
// others wait their turn and all of them run.
func TestAgentCallsBounded(t *testing.T) {
	h := newHarness(t)
	h.c.agentSlots = make(chan struct{}, 3)
	var now, most, done atomic.Int32
	release := make(chan struct{})
	var b batch
	for range 20 {
		b.sends = append(b.sends, func() {
			n := now.Add(1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			<-release
			now.Add(-1)
			done.Add(1)
		})
	}
	if err := h.c.finishBatch(&b); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for now.Load() < 3 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond) // bounded poll for the first calls to start
	}
	close(release)
	h.c.inflight.Wait()
	if most.Load() != 3 || done.Load() != 20 {
		t.Errorf("at most %d calls at once and %d done, want 3 and 20", most.Load(), done.Load())
	}
}
