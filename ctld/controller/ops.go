package controller

import (
	"cmp"
	"context"
	"fmt"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/store"
)

// opFunc acts on one record with the controller's lock held. tasks is
// non-nil when a reference names only some tasks of an array's pending
// record.
type opFunc func(r *jobRecord, tasks []int) *api.Error

// batch collects what one request must wait for and do after the lock is
// released: the last store change (changes commit in order, so waiting for
// the last waits for all) and the messages to node daemons.
type batch struct {
	last  *store.Pending
	sends []func()
}

func (b *batch) persist(p *store.Pending) {
	if p != nil {
		b.last = p
	}
}

// forEachTarget runs fn on every job the references and attributes select,
// one result per reference (then one per attribute-selected job), and
// checks that id may act on each.
func (c *Controller) forEachTarget(id auth.Identity, spec filterSpec, fn opFunc) (*api.JobResults, *api.Error) {
	f, aerr := c.compileFilter(spec)
	if aerr != nil {
		return nil, aerr
	}
	if len(f.refs) == 0 && !f.attrs() {
		return nil, api.Errorf(api.CodeInvalidJobID, "no job ids or filters given")
	}
	out := &api.JobResults{Results: []api.JobResult{}}
	act := func(r *jobRecord, tasks []int) *api.Error {
		if spec.FinishedFirst && r.finished() && !c.canModify(id, r) {
			return api.NewError(api.CodeJobFinished)
		}
		if !c.canModify(id, r) {
			return api.Errorf(cmp.Or(spec.NotOwner, api.CodeAccessDenied), "job %d belongs to %s", r.ID, r.Req.UserName)
		}
		return fn(r, tasks)
	}
	if len(f.refs) == 0 {
		for _, jid := range append([]uint32(nil), c.order...) {
			if r := c.jobs[jid]; r != nil && f.matchAttrs(r) {
				out.Results = append(out.Results, api.JobResult{JobID: jobLabel(r), Error: act(r, nil)})
			}
		}
		return out, nil
	}
	for _, ref := range f.refs {
		res := api.JobResult{JobID: ref.String()}
		found := false
		var groups taskGroups // ops_array.go
		for _, jid := range c.candidates(ref.JobID) {
			r := c.jobs[jid]
			if r == nil || !refMatches(ref, r) || !f.matchAttrs(r) {
				continue
			}
			found = true
			var tasks []int
			if len(ref.Tasks) > 0 && r.arrayRecord() && r.pending() {
				tasks = ref.Tasks
			}
			held := r.pendingTasks()
			err := act(r, tasks)
			if err != nil && res.Error == nil {
				res.Error = err
			}
			groups.add(r, ref, held, err)
		}
		if !found {
			res.Error = api.Errorf(api.CodeInvalidJobID, "no job %s", ref.String())
		}
		res.Tasks = groups.outcomes(ref)
		out.Results = append(out.Results, res)
	}
	return out, nil
}

// finishBatch waits for the batch's commit, then sends its messages.
func (c *Controller) finishBatch(b *batch) *api.Error {
	return c.finishBatchAfterReply(context.Background(), b)
}

// finishBatchAfterReply is finishBatch for a request whose context may
// carry its afterReply: then the messages go once the answer is written.
func (c *Controller) finishBatchAfterReply(ctx context.Context, b *batch) *api.Error {
	if b.last != nil {
		if err := b.last.Wait(); err != nil {
			c.fail(fmt.Errorf("persist: %w", err))
			return api.Errorf(api.CodeWritingToFile, "%v", err)
		}
	}
	// Counted now, so that waiting for inflight also covers messages
	// that wait for their request's answer.
	c.inflight.Add(len(b.sends))
	if ar, ok := ctx.Value(afterReplyKey{}).(*afterReply); ok {
		ar.sends = append(ar.sends, b.sends...)
		return nil
	}
	c.send(b.sends)
	return nil
}

// send runs messages already counted in inflight, each on its own
// goroutine within the agent slots.
func (c *Controller) send(sends []func()) {
	for _, send := range sends {
		c.obs.m.agentCalls.Inc()
		go func() {
			defer c.inflight.Done()
			defer c.obs.m.agentCalls.Dec()
			c.agentSlots <- struct{}{}
			defer func() { <-c.agentSlots }()
			send()
		}()
	}
}

// maxAgentCalls is how many calls to node daemons may be in flight at
// once (each is a connection, a file descriptor).
const maxAgentCalls = 256
