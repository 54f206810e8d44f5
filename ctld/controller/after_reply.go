package controller

import (
	"net/http"
	"time"
)

// afterReply holds the node daemon messages a request's operation queued
// (terminate, signal, suspend...), to be sent once the answer is written.
// slurmctld replies to an RPC before its agent reaches the nodes, and
// scripts rely on it: a batch job whose USR1 trap runs `scontrol requeue
// $SLURM_JOB_ID; echo requeued; exit 0` sees scontrol return and exits
// before the terminate arrives. Sent before the answer, the terminate
// reached such a job while scontrol still waited, and its output ended in
// "CANCELLED ... DUE TO JOB REQUEUE" instead of the script's own lines.
type afterReply struct{ sends []func() }

// afterReplyKey is the request context key of its *afterReply.
type afterReplyKey struct{}

// agentLag is how long after its answer a request's messages leave. On
// the Slurm 22.05 peer here a job's own `scontrol requeue` returns and its
// script runs on for a few milliseconds before the SIGTERM; Loam's path
// to the node is shorter than the client's exit, so without a lag the
// signal still beat the script's next line.
const agentLag = 10 * time.Millisecond

// sendAfterReply flushes the answer already written to w, then sends
// what the request queued, agentLag later.
func (c *Controller) sendAfterReply(w http.ResponseWriter, ar *afterReply) {
	if len(ar.sends) == 0 {
		return
	}
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	sends := ar.sends
	time.AfterFunc(agentLag, func() { c.send(sends) })
}
