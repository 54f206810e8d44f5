package taskprolog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"syscall"
	"time"
)

// OutputMax bounds what is read of a script's standard output.
const OutputMax = 1 << 20

// Script is one run of a task prolog or epilog.
type Script struct {
	Path string
	Env  []string
	Dir  string
	// Stderr receives the script's standard error (nil: discarded).
	Stderr io.Writer
	// UID, GID and Groups are the job user's identity.
	UID, GID uint32
	Groups   []uint32
	// Timeout ends the script: its whole process group is killed.
	Timeout time.Duration
}

// Run runs s in its own process group and returns its standard output
// (at most OutputMax bytes) and exit status (128+n for signal n). The
// output pipe is drained, and whatever the script left running in its
// group is killed when it ends, so that it never holds its caller.
func Run(s Script) ([]byte, int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), s.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.Path)
	cmd.Env, cmd.Dir, cmd.Stderr = s.Env, s.Dir, s.Stderr
	groups := s.Groups
	if len(groups) == 0 {
		groups = []uint32{s.GID}
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Setpgid:    true,
		Credential: &syscall.Credential{Uid: s.UID, Gid: s.GID, Groups: groups},
	}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second // a child left holding the pipe does not hold us
	out := &limitedBuffer{max: OutputMax}
	cmd.Stdout = out
	err := cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
		return out.Bytes(), 0, nil
	case ctx.Err() != nil:
		return out.Bytes(), 1, fmt.Errorf("%s: timed out after %s", s.Path, s.Timeout)
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return out.Bytes(), 128 + int(ws.Signal()), nil
		}
		return out.Bytes(), ee.ExitCode(), nil
	}
	return out.Bytes(), 1, fmt.Errorf("%s: %w", s.Path, err)
}

// limitedBuffer keeps the first max bytes written and drops the rest.
type limitedBuffer struct {
	bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
