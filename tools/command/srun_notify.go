package command

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

// scontrol notify to a job srun or salloc holds: as long as it holds the
// allocation, pending or running, the client waits on the controller for
// the job's notices and prints each as Slurm's srun and salloc do,
// "srun: MSG" or "salloc: MSG" on standard error. Each wait names the
// last notice shown, so the controller forgets it and none is shown
// twice or lost between waits. An srun inside an allocation (a batch
// script's, or salloc's) does not wait: the message goes to whoever holds
// the job.

// noticeWaiter is how srun and salloc collect notices: *client.Client
// has it.
type noticeWaiter interface {
	WaitNotices(ctx context.Context, req *api.NoticeWaitRequest) (*api.NoticeWaitResponse, error)
}

// noticeWait is how long one wait lasts, in seconds; noticeRetry how long
// the watch pauses after the controller could not be reached.
const (
	noticeWait  = 30
	noticeRetry = time.Second
)

// noticeWatch prints the notices of the allocation srun or salloc holds.
type noticeWatch struct {
	cancel context.CancelFunc
	done   chan struct{}
	// end is what salloc does when the job ends under it (salloc_revoke.go).
	end endHook
}

// watchNotices starts showing job jid's notices as prog; nil when the
// controller client cannot wait for them.
func watchNotices(ctx context.Context, c stepController, w *output, prog string, jid uint32) *noticeWatch {
	nw, ok := c.(noticeWaiter)
	if !ok {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	n := &noticeWatch{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(n.done)
		if showNotices(ctx, nw, w, prog, jid) {
			n.end.fire()
		}
	}()
	return n
}

// stop ends the watch and waits until it printed its last line.
func (n *noticeWatch) stop() {
	if n == nil {
		return
	}
	n.cancel()
	<-n.done
}

// showNotices waits for notices until ctx ends, the job ends (true) or
// the controller refuses (an unknown job, an older controller); it
// retries while the controller cannot be reached or restarts.
func showNotices(ctx context.Context, nw noticeWaiter, w *output, prog string, jid uint32) bool {
	var after uint64
	for ctx.Err() == nil {
		resp, err := nw.WaitNotices(ctx, &api.NoticeWaitRequest{JobID: jid, After: after, Timeout: noticeWait})
		var ae *api.Error
		switch {
		case ctx.Err() != nil || errors.As(err, &ae) && ae.Code != api.CodeShuttingDown:
			return false
		case err != nil:
			if w.env.Sleep(ctx, noticeRetry) != nil {
				return false
			}
			continue
		}
		for _, m := range resp.Notices {
			if m.Seq > after {
				w.raw(prog + ": " + m.Message + "\n")
				after = m.Seq
			}
		}
		if resp.Ended {
			return true
		}
	}
	return false
}

// lockedStderr returns env with its standard error safe for the notice
// watch and the command's own lines at once.
func lockedStderr(env *Env) *Env {
	e := *env
	e.Stderr = &lockedWriter{w: env.Stderr}
	return &e
}

// lockedWriter serializes writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
