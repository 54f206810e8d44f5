package lifecycle

import "time"

// pause is a job's suspensions (scontrol suspend / resume): time spent
// suspended does not count against the time limit, so the deadline moves
// by total, and stands still while suspended.
type pause struct {
	suspended bool
	since     time.Time
	total     time.Duration
}

// Suspend stops the job's processes at now; its time limit stops running.
// A job already suspended, being ended or exited is left as it is: an
// ending job must run to handle its signal.
func (m *Machine) Suspend(now time.Time) []Action {
	if m.exited || m.end != nil || m.pause.suspended {
		return nil
	}
	m.pause.suspended, m.pause.since = true, now
	return []Action{{Kind: Freeze}}
}

// Resume lets a suspended job go on at now, its deadline moved by the time
// it was suspended, and returns what is due now. Resuming a job that is
// not suspended does nothing.
func (m *Machine) Resume(now time.Time) []Action {
	if !m.pause.suspended {
		return nil
	}
	acts := m.unpause(now)
	return append(acts, m.Tick(now)...)
}

// Suspended reports whether the job is suspended.
func (m *Machine) Suspended() bool { return m.pause.suspended }

// thawToEnd ends a suspension because the job is being ended: its
// processes must run to handle the signal.
func (m *Machine) thawToEnd(now time.Time) []Action {
	if !m.pause.suspended {
		return nil
	}
	return m.unpause(now)
}

func (m *Machine) unpause(now time.Time) []Action {
	m.pause.total += max(now.Sub(m.pause.since), 0)
	m.pause.suspended = false
	return []Action{{Kind: Thaw}}
}
