package agent

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/pkg/api"
)

// maxBatch bounds one events request.
const maxBatch = 500

// outbox holds the job events the controller has not acknowledged. Each
// is also on disk (ev-*.json in a job or done directory), so a restarted
// daemon rebuilds it; see package spool.
type outbox struct {
	pending map[uint64]api.JobEvent
	// doneDirs maps each done/<seq> directory to the highest event
	// number it holds: removed once that is acknowledged.
	doneDirs map[uint64]uint64
	last     uint64 // highest number handed out or seen
	acked    uint64
	wake     chan struct{}
	// read reads an event file (the agent's readRecord, which moves a
	// corrupt one aside, once the daemon runs).
	read func(path string, v any) error
}

func newOutbox() *outbox {
	return &outbox{pending: map[uint64]api.JobEvent{}, doneDirs: map[uint64]uint64{}, wake: make(chan struct{}, 1), read: spool.ReadJSON}
}

// next returns a new event number: later than every number handed out
// before, here or by an earlier daemon (numbers are nanosecond times, so
// they keep growing across restarts without a counter file).
func (o *outbox) next(now time.Time) uint64 {
	o.last = max(o.last+1, uint64(now.UnixNano()))
	return o.last
}

// add queues ev unless it was acknowledged already.
func (o *outbox) add(ev api.JobEvent) {
	o.last = max(o.last, ev.Seq)
	if ev.Seq <= o.acked {
		return
	}
	o.pending[ev.Seq] = ev
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// batch returns the oldest pending events: at most maxBatch, and no more
// task records than maxBatchTasks (step_usage.go) past the first event.
func (o *outbox) batch() []api.JobEvent {
	seqs := slices.Sorted(maps.Keys(o.pending))
	if len(seqs) > maxBatch {
		seqs = seqs[:maxBatch]
	}
	out := make([]api.JobEvent, 0, len(seqs))
	tasks := 0
	for _, s := range seqs {
		ev := o.pending[s]
		if tasks += eventTasks(&ev); tasks > maxBatchTasks && len(out) > 0 {
			break
		}
		out = append(out, ev)
	}
	return out
}

// ack drops every event up to seq and returns the done directories that
// may now be removed.
func (o *outbox) ack(seq uint64) []uint64 {
	o.acked = max(o.acked, seq)
	for s := range o.pending {
		if s <= o.acked {
			delete(o.pending, s)
		}
	}
	var gone []uint64
	for dir, top := range o.doneDirs {
		if top <= o.acked {
			gone = append(gone, dir)
			delete(o.doneDirs, dir)
		}
	}
	return gone
}

// loadEvents reads the event files of one job or done directory into the
// outbox and returns the highest number found (0: none).
func (o *outbox) loadEvents(dir string) (uint64, error) {
	top, err := o.loadEventFiles([]string{filepath.Join(dir, spool.StartedEvent), filepath.Join(dir, spool.EndedEvent)})
	if err != nil {
		return top, err
	}
	steps, err := o.loadStepEvents(dir) // step_usage.go
	return max(top, steps), err
}

// loadEventFiles reads the event files that exist among paths into the
// outbox and returns the highest number found (0: none).
func (o *outbox) loadEventFiles(paths []string) (uint64, error) {
	var top uint64
	for _, path := range paths {
		var ev api.JobEvent
		err := o.read(path, &ev)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return top, err
		}
		o.add(ev)
		top = max(top, ev.Seq)
	}
	return top, nil
}

// sendEvents delivers the outbox to the controller until ctx ends,
// retrying with backoff while it is unreachable.
func (a *Agent) sendEvents(ctx context.Context) {
	backoff := time.Duration(0)
	for {
		if backoff > 0 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(backoff):
			}
		}
		a.mu.Lock()
		evs := a.out.batch()
		a.mu.Unlock()
		if len(evs) == 0 {
			select {
			case <-ctx.Done():
				return
			case <-a.out.wake:
				backoff = 0
				continue
			}
		}
		if err := a.flush(ctx, evs); err != nil {
			backoff = min(max(2*backoff, 100*time.Millisecond), 5*time.Second)
			a.log.WithError(err).Warn("send job events")
			continue
		}
		backoff = 0
	}
}

// flush sends evs and applies the acknowledgement.
func (a *Agent) flush(ctx context.Context, evs []api.JobEvent) error {
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	resp, err := a.ctld.JobEvents(cctx, &api.JobEventsRequest{Node: a.nc.node.Name, Events: evs})
	if err != nil {
		return err
	}
	a.acknowledge(resp.Acked)
	return nil
}

// acknowledge records the controller's acknowledgement: on disk first,
// then the finished jobs' directories go.
func (a *Agent) acknowledge(seq uint64) {
	a.mu.Lock()
	if seq <= a.out.acked {
		a.mu.Unlock()
		return
	}
	if err := a.spool.SetAcked(seq); err != nil {
		a.mu.Unlock()
		a.log.WithError(err).Error("record acknowledged events")
		return
	}
	gone := a.out.ack(seq)
	a.mu.Unlock()
	for _, d := range gone {
		if err := os.RemoveAll(a.spool.DoneDir(d)); err != nil {
			a.log.WithError(err).Warn("remove finished job directory")
		}
	}
}

// flushNow sends everything pending once, bounded by timeout: at startup,
// before registering.
func (a *Agent) flushNow(ctx context.Context, timeout time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for {
		a.mu.Lock()
		evs := a.out.batch()
		a.mu.Unlock()
		if len(evs) == 0 {
			return
		}
		if err := a.flush(ctx, evs); err != nil {
			a.log.WithError(err).Info("controller not reachable yet; events will follow")
			return
		}
	}
}
