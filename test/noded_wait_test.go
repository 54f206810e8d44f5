//go:build integration

package test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"golang.org/x/sys/unix"
)

func touch(t *testing.T, path string) {
	t.Helper()
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
}

func itoa(n uint32) string { return strconv.FormatUint(uint64(n), 10) }

// waitForFile blocks until path exists.
func waitForFile(t *testing.T, path string) {
	t.Helper()
	waitDir(t, filepath.Dir(path), func() bool { _, err := os.Stat(path); return err == nil })
}

// waitDir blocks until cond holds, re-checking whenever dir changes
// (inotify), at most nodedWait.
func waitDir(t *testing.T, dir string, cond func() bool) {
	t.Helper()
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	mask := uint32(unix.IN_CREATE | unix.IN_MOVED_TO | unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_CLOSE_WRITE)
	if _, err := unix.InotifyAddWatch(fd, dir, mask); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4096)
	for !cond() {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(nodedWait.Milliseconds()))
		if err != nil && err != unix.EINTR {
			t.Fatal(err)
		}
		if n == 0 {
			t.Fatalf("timed out waiting on %s", dir)
		}
		_, _ = unix.Read(fd, buf)
	}
}
