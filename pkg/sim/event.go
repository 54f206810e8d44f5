package sim

import (
	"container/heap"
	"time"
)

// evKind orders events that happen at the same instant: submissions first,
// then ends, kills after a grace window, user cancels, and the periodic
// tick last. Within a kind, events keep the order they were scheduled in.
type evKind uint8

const (
	evSubmit evKind = iota
	evEnd
	evKill
	evCancel
	evTick
)

type event struct {
	at    time.Duration // since the trace epoch
	kind  evKind
	seq   uint64
	job   int // index in sim.jobs
	epoch int // the run an end or kill belongs to
}

// eventHeap is a min-heap on (at, kind, seq): a total order, so replays are
// deterministic.
type eventHeap []event

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(i, j int) bool {
	a, b := &h[i], &h[j]
	if a.at != b.at {
		return a.at < b.at
	}
	if a.kind != b.kind {
		return a.kind < b.kind
	}
	return a.seq < b.seq
}
func (h eventHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(event)) }
func (h *eventHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

// queue wraps the heap with a sequence counter.
type queue struct {
	h   eventHeap
	seq uint64
}

func (q *queue) push(e event) {
	e.seq = q.seq
	q.seq++
	heap.Push(&q.h, e)
}

func (q *queue) pop() event { return heap.Pop(&q.h).(event) }

func (q *queue) peek() (event, bool) {
	if len(q.h) == 0 {
		return event{}, false
	}
	return q.h[0], true
}

func (q *queue) len() int { return len(q.h) }
