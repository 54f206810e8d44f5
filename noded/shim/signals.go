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

// DefaultSignals makes the job's processes start with the task signals at
// their default action even when this process inherited them ignored (a
// daemon started under nohup, or in the background by a shell, ignores
// SIGHUP or SIGINT and SIGQUIT), and drops the signals in drop as well.
// It catches them and drops them: for this process that is what ignoring
// them does, but an exec resets caught signals and keeps ignored ones.
// The shell shim cannot do it: a non-interactive shell cannot reset a
// signal ignored on entry.
func DefaultSignals(drop ...os.Signal) {
	for _, s := range taskSignals {
		if signal.Ignored(s) {
			drop = append(drop, s)
		}
	}
	if len(drop) == 0 {
		return
	}
	ch := make(chan os.Signal, 8)
	signal.Notify(ch, drop...)
	go func() {
		for range ch {
		}
	}()
}
