package nodeprolog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"time"
)

// Spec is one script setting (Prolog or Epilog) as a node runs it.
type Spec struct {
	// Path is the script's path, possibly a glob; "" runs nothing.
	Path string
	// Timeout kills a script that runs longer; 0 waits for ever.
	Timeout time.Duration
	// SerialLock, when set, is a file locked around the run: one script
	// at a time per node (PrologFlags=Serial).
	SerialLock string
}

// Failure is a script that did not succeed: it exited non-zero, was
// killed, timed out, or could not be started (missing, not executable).
type Failure struct {
	Script string
	// Status is the wait status (0 when it never ran).
	Status   syscall.WaitStatus
	TimedOut bool
	// Err is why it could not be started, or nil.
	Err error
	// Output is the start of what it wrote, for the log.
	Output string
}

func (f *Failure) Error() string {
	switch {
	case f.Err != nil:
		return fmt.Sprintf("%s: %v", f.Script, f.Err)
	case f.TimedOut:
		return fmt.Sprintf("%s: timed out", f.Script)
	case f.Status.Signaled():
		return fmt.Sprintf("%s: killed by signal %d", f.Script, f.Status.Signal())
	}
	return fmt.Sprintf("%s: exit status %d", f.Script, f.Status.ExitStatus())
}

// ExitCode is the status slurmd prints in "Error running slurm prolog: N":
// the exit status, else the signal.
func (f *Failure) ExitCode() int {
	if f.Status.Signaled() {
		return int(f.Status.Signal())
	}
	return f.Status.ExitStatus()
}

// Paths expands a script setting: the matches of a glob in reverse
// lexical order (the order slurmd 22.05 runs them in), or the path
// itself. No match is an error, as slurmd's "Unable to create list of
// paths".
func Paths(pattern string) ([]string, error) {
	m, err := filepath.Glob(pattern)
	if err != nil {
		return nil, fmt.Errorf("bad pattern %q: %w", pattern, err)
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("unable to create list of paths [%s]", pattern)
	}
	slices.Sort(m)
	slices.Reverse(m)
	return m, nil
}

// Run runs every script of spec with env and returns the first failure,
// or nil when all succeeded or there is none to run.
func Run(ctx context.Context, spec Spec, env []string) *Failure {
	if spec.Path == "" {
		return nil
	}
	paths, err := Paths(spec.Path)
	if err != nil {
		return &Failure{Script: spec.Path, Err: err}
	}
	if spec.SerialLock != "" {
		unlock, err := lock(spec.SerialLock)
		if err != nil {
			return &Failure{Script: spec.Path, Err: err}
		}
		defer unlock()
	}
	for _, p := range paths {
		if f := RunOne(ctx, p, "", spec.Timeout, env); f != nil {
			return f
		}
	}
	return nil
}

// outputKept bounds what is kept of a script's output for the log; the
// rest is read and dropped so the script never blocks on a full pipe.
const outputKept = 4096

// RunOne runs one root script (a prolog or epilog, the node health
// check) in its own process group, in dir ("": the caller's), and
// returns how it failed, nil when it exited 0; the whole group is killed
// at the timeout (0: none) or when ctx ends.
func RunOne(ctx context.Context, path, dir string, timeout time.Duration, env []string) *Failure {
	cmd := exec.Command(path)
	cmd.Env, cmd.Dir = env, dir
	cmd.Stdin = nil // /dev/null
	out := &capped{max: outputKept}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// Output pipes held open by a script's background children must not
	// keep Wait from returning.
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return &Failure{Script: path, Err: unwrapExec(err)}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var expire <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expire = t.C
	}
	timedOut := false
	var err error
	select {
	case err = <-done:
	case <-expire:
		timedOut = true
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = <-done
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		err = <-done
	}
	// Whatever the script left running in its group goes with it.
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if err == nil && !timedOut {
		return nil
	}
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) && !errors.Is(err, exec.ErrWaitDelay) && !timedOut {
		return &Failure{Script: path, Err: err, Output: out.String()}
	}
	if errors.Is(err, exec.ErrWaitDelay) && ws == 0 && !timedOut {
		return nil // it succeeded; a child of it held its output open
	}
	return &Failure{Script: path, Status: ws, TimedOut: timedOut, Output: out.String()}
}

// unwrapExec drops exec's "fork/exec path:" prefix, kept in Failure.Script.
func unwrapExec(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// capped keeps the first max bytes written and drops the rest.
type capped struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func (c *capped) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

// lock takes an exclusive flock on path, creating it.
func lock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("serial lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("serial lock: %w", err)
	}
	return func() { f.Close() }, nil
}
