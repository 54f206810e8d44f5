package supervisor

import (
	"encoding/hex"
	"errors"
	"hash/fnv"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The control socket is a unix socket in the abstract namespace, named
// after the job's directory: binding it creates no file, and it goes away
// with the supervisor. A socket file in the spool cost every job an inode
// created at bind and removed at exit, on the spool's file system, which
// is much of what a trivial job's supervisor spends. Such a socket has no
// file permissions, so the supervisor answers only peers running as root
// or as its own user (checked with SO_PEERCRED), which is who could
// connect to the socket file (mode 0755, in a directory only root owns).

// addrPrefix starts every supervisor's socket name; "@" is Go's spelling of
// the abstract namespace.
const addrPrefix = "@loam-supervisor:"

// maxAddr is the longest abstract name (sun_path's 108 bytes, the first
// of which is the NUL that "@" stands for).
const maxAddr = 108

// controlAddr is the socket address of the supervisor of the job in dir:
// the directory's absolute path, or a hash of it when that is too long.
func controlAddr(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if len(addrPrefix)+len(dir) <= maxAddr {
		return addrPrefix + dir
	}
	h := fnv.New128a()
	_, _ = h.Write([]byte(dir))
	return addrPrefix + hex.EncodeToString(h.Sum(nil))
}

// bindRetry bounds how long listen waits for the name to be released by a
// supervisor of an earlier run of the job (which closes its socket before
// the daemon can see its end, but a fast requeue may come first).
const bindRetry = 2 * time.Second

// listenControl listens on the control socket of the job in dir.
func listenControl(dir string) (net.Listener, error) {
	addr := controlAddr(dir)
	deadline := time.Now().Add(bindRetry)
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		ln, err := net.Listen("unix", addr)
		if err == nil || !errors.Is(err, syscall.EADDRINUSE) || time.Now().After(deadline) {
			return ln, err
		}
		time.Sleep(wait)
	}
}

// peerAllowed reports whether conn's peer runs as root or as this
// process's user.
func peerAllowed(conn net.Conn) bool {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return false
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return false
	}
	var cred *unix.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil || cerr != nil {
		return false
	}
	return cred.Uid == 0 || int(cred.Uid) == os.Geteuid()
}
