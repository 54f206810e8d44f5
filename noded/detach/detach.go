// Package detach starts the node daemon's long-lived helper processes (a
// job's supervisor, an srun step's process) in sessions of their own, so
// that they outlive a restart of the daemon, and carries the one-line
// handshake by which a helper says it is ready or why it is not.
package detach

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

// ReadyFD is the descriptor on which a helper says "ready" (or why not)
// to the daemon that started it.
const ReadyFD = 3

// Start starts cmd in its own session, its standard output and error on
// out (a file opened for appending, which the caller keeps), and waits up
// to timeout for its first line on ReadyFD. started, when not nil, is told
// the pid as soon as the process exists. The process is reaped if it ends
// while this daemon runs; after a restart init does.
func Start(cmd *exec.Cmd, out *os.File, timeout time.Duration, started func(pid int)) (int, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	defer r.Close()
	cmd.Stdout, cmd.Stderr = out, out
	cmd.ExtraFiles = []*os.File{w} // ReadyFD
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	w.Close()
	if err != nil {
		return 0, err
	}
	go func() { _ = cmd.Wait() }()
	if started != nil {
		started(cmd.Process.Pid)
	}
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(r).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case s := <-line:
		if s != "ready" {
			if s == "" {
				s = "exited during startup"
			}
			return 0, errors.New(s)
		}
	case <-time.After(timeout):
		_ = cmd.Process.Kill()
		return 0, fmt.Errorf("not ready after %s", timeout)
	}
	return cmd.Process.Pid, nil
}

// StartLogged is Start with the output appended to the file at logPath,
// which is closed here once the process has it.
func StartLogged(cmd *exec.Cmd, logPath string, timeout time.Duration, started func(pid int)) (int, error) {
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return 0, err
	}
	defer logf.Close()
	return Start(cmd, logf, timeout, started)
}

// Ready tells the daemon that started this process, when one gave it
// ReadyFD, that it is ready (err nil) or why it is not.
func Ready(err error) {
	f := os.NewFile(ReadyFD, "ready")
	if f == nil {
		return
	}
	msg := "ready\n"
	if err != nil {
		msg = strings.ReplaceAll(err.Error(), "\n", " ") + "\n"
	}
	_, _ = f.WriteString(msg)
	f.Close()
}
