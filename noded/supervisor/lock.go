package supervisor

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	"github.com/loamhpc/loam/noded/spool"
)

// Lock takes the lock of the job in dir, without waiting: an flock on the
// job's directory itself, which the daemon created, so that taking it
// creates no file (a lock file cost every job an inode on the spool's file
// system). It fails with spool.ErrLocked when a live supervisor holds it.
// The returned directory holds the lock until closed (or the process
// exits); it is close-on-exec, so the job never inherits it.
func Lock(dir string) (*os.File, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, spool.ErrLocked
		}
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	return f, nil
}

// Alive reports whether a supervisor holds the lock of the job in dir:
// the directory's (Lock), or the lock file supervisors before it held
// (spool.Lock), so that a daemon re-adopting their jobs still sees them.
func Alive(dir string) bool {
	f, err := Lock(dir)
	if err != nil {
		return errors.Is(err, spool.ErrLocked)
	}
	f.Close()
	return spool.SupervisorAlive(dir)
}
