// Package asuser runs file operations with a job user's file system
// identity inside a process that stays root: the job supervisor opens a
// batch job's output files this way, and the step process its tasks'.
// Files so opened are checked against, and owned by, the job's user, as if
// the user had opened them.
package asuser

import (
	"errors"
	"fmt"
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// Credential is a job user's identity.
type Credential struct {
	UID    uint32
	GID    uint32
	Groups []uint32
}

// Do runs fn on an OS thread whose file system identity is cred's: fsuid,
// fsgid and supplementary groups are per thread on Linux when set with raw
// system calls, so the rest of the process keeps running as root. The
// thread is handed back to the scheduler only once root's identity is
// restored; if restoring fails the thread stays locked and dies with its
// goroutine.
func Do(cred Credential, fn func() error) error {
	if cred.UID == 0 && os.Geteuid() == 0 {
		return fn()
	}
	orig, err := unix.Getgroups()
	if err != nil {
		return fmt.Errorf("read groups: %w", err)
	}
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		err := withIdentity(cred, fn)
		if restoreErr := restoreRoot(orig); restoreErr != nil {
			errc <- errors.Join(err, restoreErr)
			return // the thread exits still locked
		}
		runtime.UnlockOSThread()
		errc <- err
	}()
	return <-errc
}

func withIdentity(cred Credential, fn func() error) error {
	groups := make([]int, len(cred.Groups))
	for i, g := range cred.Groups {
		groups[i] = int(g)
	}
	if err := unix.Setgroups(groups); err != nil {
		return fmt.Errorf("set groups of uid %d: %w", cred.UID, err)
	}
	// setfs[ug]id report the previous id, not errors; read back to check.
	_ = unix.Setfsgid(int(cred.GID))
	_ = unix.Setfsuid(int(cred.UID))
	if got, _ := unix.SetfsuidRetUid(-1); got != int(cred.UID) {
		return fmt.Errorf("set file system uid %d: refused", cred.UID)
	}
	return fn()
}

func restoreRoot(groups []int) error {
	_ = unix.Setfsuid(0)
	_ = unix.Setfsgid(0)
	if got, _ := unix.SetfsuidRetUid(-1); got != 0 {
		return errors.New("restore file system uid 0: refused")
	}
	if err := unix.Setgroups(groups); err != nil {
		return fmt.Errorf("restore groups: %w", err)
	}
	return nil
}
