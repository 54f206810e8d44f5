package controller

import (
	"context"
	"net/http/httptest"
	"testing"
)

// TestSendsAfterReply: a request's messages to node daemons leave only
// once its answer is flushed to the client, as slurmctld's agent follows
// its RPC reply; outside a request (scheduling passes) they leave at once.
func TestSendsAfterReply(t *testing.T) {
	h := newHarness(t)
	w := httptest.NewRecorder()
	ar := &afterReply{}
	ctx := context.WithValue(context.Background(), afterReplyKey{}, ar)
	flushedAtSend := make(chan bool, 1)
	b := batch{sends: []func(){func() { flushedAtSend <- w.Flushed }}}
	if err := h.c.finishBatchAfterReply(ctx, &b); err != nil {
		t.Fatal(err)
	}
	select {
	case <-flushedAtSend:
		t.Fatal("message sent before the answer was written")
	default:
	}
	writeJSON(w, map[string]int{"ok": 1})
	h.c.sendAfterReply(w, ar)
	h.c.inflight.Wait()
	if !<-flushedAtSend {
		t.Error("message sent before the answer was flushed")
	}

	ran := make(chan struct{}, 1)
	if err := h.c.finishBatch(&batch{sends: []func(){func() { ran <- struct{}{} }}}); err != nil {
		t.Fatal(err)
	}
	h.c.inflight.Wait()
	select {
	case <-ran:
	default:
		t.Error("a batch outside a request did not send")
	}
}
