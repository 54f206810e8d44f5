package fakenode

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// outbox holds the events the controller has not acknowledged, by
// sequence number.
type outbox struct {
	pending map[uint64]api.JobEvent
	seq     uint64
	// sending serialises deliveries: numbering an event and sending it
	// happen in order, so the controller, which drops a number lower
	// than one it applied as a replay, never sees them out of order.
	sending chan struct{}
}

func newOutbox() outbox {
	return outbox{pending: map[uint64]api.JobEvent{}, sending: make(chan struct{}, 1)}
}

// End reports that job id's batch script ended with exit; opts adjust the
// event (OOM, TimedOut...).
func (n *Node) End(id uint32, exit job.ExitCode, opts ...func(*api.JobEvent)) error {
	ev := api.JobEvent{JobID: id, Kind: api.EventEnded, Time: time.Now().Unix(), ExitCode: exit}
	for _, o := range opts {
		o(&ev)
	}
	return n.finish(id, ev)
}

// LaunchFailed reports that job id could not be started.
func (n *Node) LaunchFailed(id uint32, msg string) error {
	return n.finish(id, api.JobEvent{JobID: id, Kind: api.EventLaunchFailed, Time: time.Now().Unix(), Message: msg,
		ExitCode: job.ExitCode{Status: 0, Signal: 53}})
}

// finish takes job id off the node and reports ev, which ends it.
func (n *Node) finish(id uint32, ev api.JobEvent) error {
	n.out.sending <- struct{}{}
	n.mu.Lock()
	ev.Run = n.runOf(id)
	delete(n.running, id)
	seq := n.queue(ev)
	n.ending[id] = seq
	n.noteChange()
	n.mu.Unlock()
	return n.deliver()
}

// send reports ev (a start) with the next sequence number.
func (n *Node) send(ev api.JobEvent) error {
	n.out.sending <- struct{}{}
	n.mu.Lock()
	n.queue(ev)
	n.mu.Unlock()
	return n.deliver()
}

// queue numbers ev and adds it to the outbox. The caller holds n.mu.
func (n *Node) queue(ev api.JobEvent) uint64 {
	n.out.seq++
	ev.Seq = n.out.seq
	n.out.pending[ev.Seq] = ev
	return ev.Seq
}

// flush delivers the events still waiting.
func (n *Node) flush() error {
	n.out.sending <- struct{}{}
	return n.deliver()
}

// deliver sends every pending event, oldest first, and drops what the
// controller acknowledges; what fails stays for the next flush. The
// caller took n.out.sending, which deliver gives back.
func (n *Node) deliver() error {
	defer func() { <-n.out.sending }()
	n.mu.Lock()
	evs := make([]api.JobEvent, 0, len(n.out.pending))
	for _, s := range slices.Sorted(maps.Keys(n.out.pending)) {
		evs = append(evs, n.out.pending[s])
	}
	n.mu.Unlock()
	if len(evs) == 0 {
		return nil
	}
	resp, err := n.ctl.JobEvents(context.Background(), &api.JobEventsRequest{Node: n.Name, Events: evs})
	if err != nil {
		return err
	}
	n.mu.Lock()
	for s := range n.out.pending {
		if s <= resp.Acked {
			delete(n.out.pending, s)
		}
	}
	for id, s := range n.ending {
		if s <= resp.Acked {
			delete(n.ending, id)
		}
	}
	n.mu.Unlock()
	return nil
}

// runOf is the run of job id this node was given (nil when it runs no
// such job: the event then carries none). The caller holds n.mu.
func (n *Node) runOf(id uint32) *int {
	if l := n.running[id]; l != nil {
		run := l.Restarts
		return &run
	}
	return nil
}
