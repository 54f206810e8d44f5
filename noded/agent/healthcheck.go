package agent

import (
	"context"
	"hash/fnv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/loamhpc/loam/noded/nodeprolog"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// healthCheckTimeout bounds one run of HealthCheckProgram, as slurmd's
// (60 s): the program's process group is killed then.
const healthCheckTimeout = 60 * time.Second

// healthChecker runs slurm.conf's HealthCheckProgram as root: once when
// the daemon starts (before it registers, as slurmd does) and every
// HealthCheckInterval while the node's state matches
// HealthCheckNodeState. The program decides what to do (it usually
// drains the node with scontrol); a failure is only logged, in slurmd's
// words. One run at a
// time: a tick that finds a run going is skipped.
type healthChecker struct {
	prog     string
	interval time.Duration
	states   slurmconf.HealthCheckState
	node     string
	timeout  time.Duration
	log      *logrus.Entry
	busy     atomic.Bool
	// quit ends loop: a reconfigure replaced this checker (reload.go).
	quit     chan struct{}
	quitOnce sync.Once
	// state is the node's state as the controller last told it.
	mu    sync.Mutex
	base  string
	drain bool
}

// newHealthChecker is nil when no program is set or the interval is 0:
// slurmd runs the program only with both.
func newHealthChecker(s slurmconf.Scripts, node string, log *logrus.Entry) *healthChecker {
	if s.HealthCheckProgram == "" || s.HealthCheckInterval <= 0 {
		return nil
	}
	return &healthChecker{prog: s.HealthCheckProgram, interval: s.HealthCheckInterval, states: s.HealthCheckStates,
		node: node, timeout: healthCheckTimeout, log: log.WithField("program", s.HealthCheckProgram),
		quit: make(chan struct{})}
}

// same says whether h runs what s asks for, so a reconfigure that did not
// touch the health check keeps h and its schedule.
func (h *healthChecker) same(s slurmconf.Scripts) bool {
	if h == nil {
		return s.HealthCheckProgram == "" || s.HealthCheckInterval <= 0
	}
	return h.prog == s.HealthCheckProgram && h.interval == s.HealthCheckInterval && h.states == s.HealthCheckStates
}

// stop ends h's loop; a run under way finishes.
func (h *healthChecker) stop() {
	if h != nil {
		h.quitOnce.Do(func() { close(h.quit) })
	}
}

// inherit takes the node state old last heard from the controller.
func (h *healthChecker) inherit(old *healthChecker) {
	if h == nil || old == nil {
		return
	}
	old.mu.Lock()
	base, drain := old.base, old.drain
	old.mu.Unlock()
	h.setState(base, drain)
}

// setState records the node's state from a registration or heartbeat
// answer ("IDLE", "MIXED", "ALLOCATED"; drain: draining or drained).
func (h *healthChecker) setState(base string, drain bool) {
	if h == nil || base == "" {
		return
	}
	h.mu.Lock()
	h.base, h.drain = base, drain
	h.mu.Unlock()
}

// due says whether the node's state asks for a periodic run.
func (h *healthChecker) due() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.base != "" && h.states.Matches(h.base, h.drain)
}

// loop runs the program every interval until ctx ends or h is stopped.
// Without CYCLE the
// runs fall on multiples of the interval, the same instant on every
// node, to disturb parallel programs once; with CYCLE each node is
// offset by its own share of the interval.
func (h *healthChecker) loop(ctx context.Context) {
	for {
		wait := time.Until(h.next(time.Now()))
		select {
		case <-ctx.Done():
			return
		case <-h.quit:
			return
		case <-time.After(wait):
		}
		if h.due() {
			h.run(ctx)
		}
	}
}

// next is the first run time after now.
func (h *healthChecker) next(now time.Time) time.Time {
	var offset time.Duration
	if h.states&slurmconf.HealthCycle != 0 {
		f := fnv.New32a()
		_, _ = f.Write([]byte(h.node))
		offset = time.Duration(uint64(f.Sum32()) % uint64(h.interval))
	}
	t := now.Truncate(h.interval).Add(offset)
	for !t.After(now) {
		t = t.Add(h.interval)
	}
	return t
}

// run runs the program once and reports whether it succeeded; false also
// when a run was already going.
func (h *healthChecker) run(ctx context.Context) bool {
	if !h.busy.CompareAndSwap(false, true) {
		h.log.Debug("health check still running: this run skipped")
		return false
	}
	defer h.busy.Store(false)
	f := nodeprolog.RunOne(ctx, h.prog, "/", h.timeout, []string{"SLURMD_NODENAME=" + h.node})
	if f == nil {
		h.log.Debug("health check passed")
		return true
	}
	l := h.log.WithField("output", strings.TrimSpace(f.Output))
	switch {
	case f.TimedOut:
		l.Errorf("health_check: killed after %s", h.timeout)
	case f.Err != nil:
		l.WithError(f.Err).Error("health_check could not run")
	default:
		// slurmd 22.05's words: "health_check failed: rc:3 output:sick".
		rc := f.Status.ExitStatus()
		l.WithField("status", rc).Errorf("health_check failed: rc:%d output:%s", rc, strings.TrimSpace(f.Output))
	}
	return false
}
