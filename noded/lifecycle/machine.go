package lifecycle

import (
	"syscall"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// ReasonTimeout is the reason of an ending the time limit started.
const ReasonTimeout = api.TerminateTimeout

// Limits are a job's time limit and warning signal.
type Limits struct {
	Start time.Time
	// TimeLimit is measured from Start; 0 or less means none.
	TimeLimit time.Duration
	// Warn is the --signal request: sent Warn.Seconds before the limit.
	Warn *job.Signal
	// KillWait is the time between SIGTERM and SIGKILL at the limit.
	KillWait time.Duration
}

// Kind is what an Action does.
type Kind int

// Action kinds.
const (
	// Signal sends Action.Signal to the processes Action.Scope names.
	Signal Kind = iota + 1
	// Kill sends SIGKILL to every process of the job.
	Kill
	// Announce writes Slurm's "*** JOB n ON node CANCELLED AT time ... ***"
	// line for Action.Reason to the job's error file.
	Announce
	// Freeze stops every process of the job (scontrol suspend); Thaw lets
	// them go on.
	Freeze
	Thaw
)

// Scope is which of a job's processes a signal reaches, as in Slurm:
// scancel --signal and sbatch --signal reach the job's steps but not the
// batch shell, unless asked for the batch shell (-b, B:) or for all
// (scancel -f); the signals that end a job reach every process.
type Scope int

// Signal scopes.
const (
	ScopeAll   Scope = iota // every process of the job
	ScopeSteps              // the job's steps (srun), not the batch shell
	ScopeBatch              // the batch shell only
)

// Action is one thing the supervisor must do now.
type Action struct {
	Kind   Kind
	Signal syscall.Signal
	Scope  Scope
	Reason api.TerminateReason
}

// warnScope is the scope of an --signal warning: the batch shell with
// "B:", else the steps.
func warnScope(w *job.Signal) Scope {
	if w != nil && w.Batch {
		return ScopeBatch
	}
	return ScopeSteps
}

// Outcome says how a job ended, for the job event.
type Outcome struct {
	TimedOut bool
	// Terminated is the reason of a controller-ordered end.
	Terminated api.TerminateReason
	// ExitedInGrace: a preempted job exited before its SIGKILL.
	ExitedInGrace bool
	// Killed: the job was ended with SIGKILL.
	Killed bool
}

// Machine is one job's lifecycle. It is not safe for concurrent use.
type Machine struct {
	lim      Limits
	warnSent bool
	end      *ending
	exited   bool
	pause    pause // suspend.go
}

type ending struct {
	reason api.TerminateReason
	killAt time.Time
	killed bool
}

// New returns the lifecycle of a job that started at lim.Start.
func New(lim Limits) *Machine { return &Machine{lim: lim} }

func (m *Machine) deadline() (time.Time, bool) {
	if m.lim.TimeLimit <= 0 || m.pause.suspended {
		return time.Time{}, false // a suspended job's clock stands still
	}
	return m.lim.Start.Add(m.lim.TimeLimit + m.pause.total), true
}

func (m *Machine) warnAt() (time.Time, bool) {
	d, ok := m.deadline()
	if !ok || m.lim.Warn == nil || m.warnSent {
		return time.Time{}, false
	}
	return d.Add(-time.Duration(m.lim.Warn.Seconds) * time.Second), true
}

// Next returns when Tick must next be called; false when nothing is
// pending.
func (m *Machine) Next() (time.Time, bool) {
	switch {
	case m.exited:
		return time.Time{}, false
	case m.end != nil && !m.end.killed:
		return m.end.killAt, true
	case m.end != nil:
		return time.Time{}, false
	}
	if w, ok := m.warnAt(); ok {
		return w, true
	}
	return m.deadline()
}

// Tick returns the actions due at now.
func (m *Machine) Tick(now time.Time) []Action {
	if m.exited {
		return nil
	}
	if m.end != nil {
		if !m.end.killed && !now.Before(m.end.killAt) {
			m.end.killed = true
			return []Action{{Kind: Kill}}
		}
		return nil
	}
	var acts []Action
	if w, ok := m.warnAt(); ok && !now.Before(w) {
		m.warnSent = true
		acts = append(acts, Action{Kind: Signal, Signal: syscall.Signal(m.lim.Warn.Number), Scope: warnScope(m.lim.Warn)})
	}
	if d, ok := m.deadline(); ok && !now.Before(d) {
		acts = append(acts, m.begin(now, ReasonTimeout, syscall.SIGTERM, m.lim.KillWait)...)
	}
	return acts
}

// Terminate starts the end of the job on the controller's order: sig
// (SIGTERM when 0) now, SIGKILL after grace. While the job is already
// ending, it sends sig too and may bring the kill forward.
func (m *Machine) Terminate(now time.Time, reason api.TerminateReason, sig syscall.Signal, grace time.Duration) []Action {
	if m.exited {
		return nil
	}
	if sig == 0 {
		sig = syscall.SIGTERM
	}
	if m.end == nil {
		return m.begin(now, reason, sig, grace)
	}
	if m.end.killed {
		return nil
	}
	acts := []Action{{Kind: Signal, Signal: sig}}
	if at := now.Add(max(grace, 0)); at.Before(m.end.killAt) {
		m.end.killAt = at
		m.end.reason = reason
	}
	return append(acts, m.Tick(now)...)
}

// begin enters the ending state: announce, wake stopped processes, send
// sig, and kill at once when there is no grace.
func (m *Machine) begin(now time.Time, reason api.TerminateReason, sig syscall.Signal, grace time.Duration) []Action {
	m.end = &ending{reason: reason, killAt: now.Add(max(grace, 0))}
	acts := m.thawToEnd(now) // a suspended job must run to handle sig
	acts = append(acts,
		Action{Kind: Announce, Reason: reason},
		Action{Kind: Signal, Signal: syscall.SIGCONT},
		Action{Kind: Signal, Signal: sig},
	)
	return append(acts, m.Tick(now)...)
}

// Ending reports whether the job is being ended (signalled, not yet
// exited).
func (m *Machine) Ending() bool { return m.end != nil && !m.exited }

// InGrace reports whether the job is being ended and its SIGKILL is still
// to come: the time its processes have to save their work.
func (m *Machine) InGrace() bool { return m.end != nil && !m.end.killed && !m.exited }

// SetTimeLimit changes the time limit (measured from the start) and
// returns what is due now under the new limit.
func (m *Machine) SetTimeLimit(now time.Time, limit time.Duration) []Action {
	m.lim.TimeLimit = limit
	return m.Tick(now)
}

// Exited records that the batch script ended at now and says how.
func (m *Machine) Exited(now time.Time) Outcome {
	m.exited = true
	if m.end == nil {
		return Outcome{}
	}
	o := Outcome{Killed: m.end.killed}
	if m.end.reason == ReasonTimeout {
		o.TimedOut = true
	} else {
		o.Terminated = m.end.reason
	}
	o.ExitedInGrace = m.end.reason == api.TerminatePreempt && !m.end.killed && now.Before(m.end.killAt)
	return o
}
