package usage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// WaitExit waits until process pid has exited (a zombie counts) or ctx
// ends, and reports whether it exited. It holds no thread while it waits:
// the process's pidfd waits in the runtime's poller, so a node daemon may
// watch every step process it started. A pid that names no process
// exited long ago.
func WaitExit(ctx context.Context, pid int) (bool, error) {
	fd, err := unix.PidfdOpen(pid, unix.PIDFD_NONBLOCK)
	if errors.Is(err, unix.ESRCH) {
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("watch process %d: %w", pid, err)
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return false, fmt.Errorf("watch process %d: %w", pid, err)
	}
	stop := context.AfterFunc(ctx, func() { _ = f.SetReadDeadline(time.Unix(1, 0)) })
	defer stop()
	err = rc.Read(func(fd uintptr) bool { return exited(int(fd)) })
	if err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		return false, fmt.Errorf("watch process %d: %w", pid, err)
	}
	return true, nil
}

// exited reports whether pidfd fd is readable: its process has exited.
func exited(fd int) bool {
	p := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(p, 0)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		return err == nil && n > 0
	}
}
