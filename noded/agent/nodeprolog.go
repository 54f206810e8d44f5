package agent

import (
	"context"
	"path/filepath"
	"time"

	"github.com/loamhpc/loam/noded/nodeprolog"
	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/noded/supervisor"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// serialLockFile, in the node's spool, is locked around each prolog and
// epilog with PrologFlags=Serial.
const serialLockFile = "prolog.lock"

// setNodeScripts gives a job's launch record the node's Prolog and
// Epilog, which its supervisor runs (package nodeprolog). Every node of a
// job runs them when the job starts there: the batch node before the
// script, the others at allocation, as with PrologFlags=Alloc.
func (a *Agent) setNodeScripts(l *spool.Launch) {
	l.Prolog, l.Epilog = nodeScripts(a.conf().NodeProlog, a.spool.Root)
}

// nodeScripts turns slurm.conf's node prolog settings into the scripts a
// supervisor runs, the serial lock in spoolRoot.
func nodeScripts(p slurmconf.NodeProlog, spoolRoot string) (prolog, epilog nodeprolog.Spec) {
	lock := ""
	if p.Flags.Has(slurmconf.PrologSerial) {
		lock = filepath.Join(spoolRoot, serialLockFile)
	}
	prolog = nodeprolog.Spec{Path: p.Prolog, Timeout: p.Timeout, SerialLock: lock}
	epilog = nodeprolog.Spec{Path: p.Epilog, Timeout: p.Timeout, SerialLock: lock}
	if prolog.Path == "" {
		prolog = nodeprolog.Spec{}
	}
	if epilog.Path == "" {
		epilog = nodeprolog.Spec{}
	}
	return prolog, epilog
}

// watchCompleting reports, when the job's epilog runs here, that the job
// ended (api.EventCompleting), so that it shows COMPLETING until the
// epilog is done; after a failed prolog, that the prolog failed, so that
// the job is requeued and the node drained at once, as slurmctld does. The event is not kept in the spool: a daemon that
// restarts meanwhile reports it again when it re-adopts the job.
func (a *Agent) watchCompleting(ctx context.Context, e *jobEntry) {
	st, err := e.client.Wait(ctx, supervisor.Completing)
	if err != nil || st.State != supervisor.Completing || st.Result == nil {
		return
	}
	if st.Result.Kind != api.EventEnded && st.Result.FailCode != supervisor.FailProlog {
		return // a launch failure is reported once its epilog is done
	}
	now := time.Now()
	ev := *st.Result
	ev.Kind, ev.JobID, ev.Time, ev.TimeNanos = api.EventCompleting, e.id, now.Unix(), now.UnixNano()
	ev.Usage = nil // the Ended event carries it
	a.mu.Lock()
	defer a.mu.Unlock()
	ev.Run = e.runRef()
	ev.Seq = a.out.next(now)
	a.out.add(ev)
}
