package shim

import (
	"os"
	"os/signal"
	"syscall"
)

// taskSignals are the signals slurmstepd sets back to their default
// action in a task before its exec (mgr.c _unblock_signals over
// slurmstepd_blocked_signals), so a job never inherits a daemon's
// dispositions.
var taskSignals = []os.Signal{
	syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGPIPE, syscall.SIGTERM,
	syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGALRM, syscall.SIGTSTP, syscall.SIGXCPU,
}

// DropSignals catches sigs and drops them: for this process it is what
// ignoring them does, but the processes it starts get them at their
// default action, since an exec resets caught signals and keeps ignored
// ones.
func DropSignals(sigs ...os.Signal) {
	ch := make(chan os.Signal, 8)
	signal.Notify(ch, sigs...)
	go func() {
		for range ch {
		}
	}()
}

// DefaultSignals makes the job's processes start with the task signals at
// their default action even when this process inherited them ignored (a
// daemon started under nohup, or in the background by a shell, ignores
// SIGHUP or SIGINT and SIGQUIT). The shell shim cannot do it: a
// non-interactive shell cannot reset a signal ignored on entry.
func DefaultSignals() {
	var ignored []os.Signal
	for _, s := range taskSignals {
		if signal.Ignored(s) {
			ignored = append(ignored, s)
		}
	}
	if len(ignored) > 0 {
		DropSignals(ignored...)
	}
}
