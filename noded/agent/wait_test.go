package agent

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// waitFile blocks until path exists, woken by inotify on its directory
// (no polling), at most wait.
func waitFile(t *testing.T, path string) {
	t.Helper()
	waitDir(t, filepath.Dir(path), func() bool { _, err := os.Stat(path); return err == nil })
}

// waitDirEntries blocks until dir holds n entries.
func waitDirEntries(t *testing.T, dir string, n int) {
	t.Helper()
	waitDir(t, dir, func() bool { ents, _ := os.ReadDir(dir); return len(ents) == n })
}

func waitDir(t *testing.T, dir string, cond func() bool) {
	t.Helper()
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	if _, err := unix.InotifyAddWatch(fd, dir, unix.IN_CREATE|unix.IN_MOVED_TO|unix.IN_DELETE|unix.IN_MOVED_FROM|unix.IN_CLOSE_WRITE); err != nil {
		t.Fatal(err)
	}
	deadline := int(wait.Milliseconds())
	buf := make([]byte, 4096)
	for !cond() {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, deadline)
		if err != nil && err != unix.EINTR {
			t.Fatal(err)
		}
		if n == 0 {
			t.Fatalf("timed out waiting on %s", dir)
		}
		_, _ = unix.Read(fd, buf)
	}
}
