package step

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// CancelSignal, sent to a step process, cancels its step as slurmstepd
// does for scancel JOB.STEP: the "*** STEP J.S ON N CANCELLED AT T ***"
// line, then SIGKILL to every task at once, so that srun hears its tasks
// were killed. The node daemon sends it (Cancel); anything else that stops
// a step process this way also ends its tasks instead of leaving them.
const CancelSignal = syscall.SIGTERM

// ErrNoProcess is Cancel's answer when no step process runs the step.
var ErrNoProcess = errors.New("no step process")

// Cancel tells the step process of the step in dir (Dir) to cancel its
// step. The process is found by its command line ("... __step DIR"), so
// a restarted node daemon finds the steps it started before.
func Cancel(dir string) error {
	pid, err := findProcess("/proc", dir)
	if err != nil {
		return err
	}
	if err := syscall.Kill(pid, CancelSignal); err != nil {
		if errors.Is(err, syscall.ESRCH) {
			return ErrNoProcess
		}
		return fmt.Errorf("signal step process %d: %w", pid, err)
	}
	return nil
}

// findProcess returns the process under proc whose command line ends
// with Arg and dir.
func findProcess(proc, dir string) (int, error) {
	ents, err := os.ReadDir(proc)
	if err != nil {
		return 0, fmt.Errorf("list processes: %w", err)
	}
	want := []byte("\x00" + Arg + "\x00" + filepath.Clean(dir) + "\x00")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 {
			continue
		}
		b, err := os.ReadFile(filepath.Join(proc, e.Name(), "cmdline"))
		if err == nil && bytes.HasSuffix(b, want) {
			return pid, nil
		}
	}
	return 0, ErrNoProcess
}

// catchCancel starts catching CancelSignal, before the tasks start; the
// signals caught are acted on once handleCancel is called.
func catchCancel() chan os.Signal {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, CancelSignal)
	return ch
}

// handleCancel cancels the step on each CancelSignal caught on ch, once
// the tasks have started, until the returned stop is called.
func (p *proc) handleCancel(ch chan os.Signal) (stop func()) {
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-ch:
				p.log.Info("step cancelled")
				p.cancel()
			case <-done:
				return
			}
		}
	}()
	return func() { signal.Stop(ch); close(done) }
}

// cancel ends the step at once with slurmstepd's cancel line; a step
// already ending (srun asked, time limit) is killed without waiting out
// KillWait.
func (p *proc) cancel() {
	if !p.terminating.CompareAndSwap(false, true) {
		p.signal(syscall.SIGKILL)
		return
	}
	p.announce(time.Now(), "")
	p.tellAborted() // before the kill: srun hears why its tasks die
	p.signal(syscall.SIGKILL)
}
