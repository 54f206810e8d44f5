package sim

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/sched"
)

// decisionLog writes one line per scheduling decision (start, preemption,
// reservation change) and per requeue, prefixed with the virtual time in
// seconds. It contains nothing that varies between runs of the same input,
// so two replays give byte-identical logs. The first write error stops it.
type decisionLog struct {
	w   io.Writer
	err error
	buf []byte
}

func (l *decisionLog) line(t time.Duration, format string, args ...any) {
	if l.w == nil || l.err != nil {
		return
	}
	l.buf = append(l.buf[:0], secs(t)...)
	l.buf = append(l.buf, ' ')
	l.buf = fmt.Appendf(l.buf, format, args...)
	l.buf = append(l.buf, '\n')
	_, l.err = l.w.Write(l.buf)
}

func (l *decisionLog) plan(t time.Duration, epoch time.Time, p *sched.Plan) {
	if l.w == nil {
		return
	}
	for _, st := range p.Starts {
		gpus, borrowed := gpuCounts(st.Alloc)
		extra := ""
		if st.Reserved {
			extra = " reserved"
		}
		l.line(t, "start job=%d part=%s nodes=%s gpus=%d borrowed=%d%s",
			st.Job, st.Partition, nodeList(st.Alloc), gpus, borrowed, extra)
	}
	for _, rc := range p.Reservations {
		l.reservation(t, epoch, rc)
	}
	for _, pr := range p.Preemptions {
		l.line(t, "preempt job=%d for=%d reason=%s mode=%s grace=%s",
			pr.Victim, pr.Beneficiary, preemptReason(pr.Reason), preemptMode(pr.Mode), secs(pr.Grace))
	}
}

func (l *decisionLog) reservation(t time.Duration, epoch time.Time, rc sched.ReservationChange) {
	r := rc.Reservation
	if rc.Action == sched.ReserveDrop {
		cycle := ""
		if len(rc.CycleWith) > 0 {
			ids := make([]string, len(rc.CycleWith))
			for i, id := range rc.CycleWith {
				ids[i] = strconv.FormatUint(uint64(id), 10)
			}
			cycle = " cycle=" + strings.Join(ids, ",")
		}
		l.line(t, "reserve-drop job=%d reason=%s%s", r.Job, dropReason(rc.Reason), cycle)
		return
	}
	action := "create"
	if rc.Action == sched.ReserveExtend {
		action = "extend"
	}
	gpus, _ := gpuCounts(r.Alloc)
	l.line(t, "reserve-%s job=%d start=%s nodes=%s gpus=%d",
		action, r.Job, secs(r.PlannedStart.Sub(epoch)), nodeList(r.Alloc), gpus)
}

func (l *decisionLog) requeue(t time.Duration, id sched.JobID, lost time.Duration) {
	l.line(t, "requeue job=%d lost=%s", id, secs(lost))
}

func gpuCounts(alloc []sched.NodeAlloc) (gpus, borrowed int) {
	for _, a := range alloc {
		gpus += len(a.GPUs)
		for _, b := range a.Borrowed {
			if b {
				borrowed++
			}
		}
	}
	return gpus, borrowed
}

func nodeList(alloc []sched.NodeAlloc) string {
	if len(alloc) == 0 {
		return "(none)"
	}
	names := make([]string, len(alloc))
	for i, a := range alloc {
		names[i] = a.Node
	}
	return hostlist.Compress(names)
}

func preemptReason(r sched.PreemptReason) string {
	switch r {
	case sched.PreemptUrgent:
		return "urgent"
	case sched.PreemptReclaim:
		return "reclaim"
	case sched.PreemptDeadlock:
		return "deadlock"
	}
	return fmt.Sprintf("reason%d", int(r))
}

func preemptMode(m sched.PreemptMode) string {
	switch m {
	case sched.PreemptRequeue:
		return "requeue"
	case sched.PreemptCancel:
		return "cancel"
	case sched.PreemptOff:
		return "off"
	}
	return fmt.Sprintf("mode%d", int(m))
}

func dropReason(r sched.DropReason) string {
	names := map[sched.DropReason]string{sched.DropNone: "none", sched.DropStarted: "started",
		sched.DropTimeout: "timeout", sched.DropDeadlock: "deadlock", sched.DropGone: "gone",
		sched.DropDisplaced: "displaced", sched.DropInfeasible: "infeasible", sched.DropWindow: "window"}
	if n, ok := names[r]; ok {
		return n
	}
	return fmt.Sprintf("reason%d", int(r))
}

func policyName(p sched.Policy) string {
	switch p {
	case sched.PolicyLoam:
		return "loam"
	case sched.PolicyEASY:
		return "easy"
	case sched.PolicyFCFS:
		return "fcfs"
	}
	return fmt.Sprintf("policy%d", int(p))
}

// ParsePolicy maps fcfs, easy and loam to their sched.Policy.
func ParsePolicy(name string) (sched.Policy, error) {
	for _, p := range []sched.Policy{sched.PolicyFCFS, sched.PolicyEASY, sched.PolicyLoam} {
		if policyName(p) == name {
			return p, nil
		}
	}
	return 0, fmt.Errorf("unknown policy %q (want fcfs, easy or loam)", name)
}
