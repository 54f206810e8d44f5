package step

import (
	"errors"
	"fmt"
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// Credential is the job user's identity.
type Credential struct {
	UID    uint32
	GID    uint32
	Groups []uint32
}

// asUser runs fn on an OS thread whose file system identity is cred's, so
// files fn opens or creates are checked against and owned by the job's
// user, while the rest of the step process stays root (the same technique
// as the job supervisor's: fsuid, fsgid and groups are per thread when set
// with raw system calls). A thread whose root identity cannot be restored
// stays locked and dies with its goroutine.
func asUser(cred Credential, fn func() error) error {
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
		if rerr := restoreRoot(orig); rerr != nil {
			errc <- errors.Join(err, rerr)
			return
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

// fileSet opens each distinct output path once, so tasks writing to the
// same file share one descriptor (O_APPEND: their writes never overwrite
// each other).
type fileSet struct {
	cred   Credential
	append bool
	files  map[string]*os.File
}

func newFileSet(cred Credential, appendMode bool) *fileSet {
	return &fileSet{cred: cred, append: appendMode, files: map[string]*os.File{}}
}

// output opens path for writing as the job's user. truncate empties it
// first (unless --open-mode=append).
func (s *fileSet) output(path string, truncate bool) (*os.File, error) {
	if f := s.files[path]; f != nil {
		return f, nil
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	if truncate && !s.append {
		flags |= os.O_TRUNC
	}
	var f *os.File
	err := asUser(s.cred, func() error {
		var err error
		f, err = os.OpenFile(path, flags, 0o644)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.files[path] = f
	return f, nil
}

// input opens path for reading as the job's user.
func (s *fileSet) input(path string) (*os.File, error) {
	var f *os.File
	err := asUser(s.cred, func() error {
		var err error
		f, err = os.Open(path)
		return err
	})
	return f, err
}

// close closes every output file.
func (s *fileSet) close() {
	for _, f := range s.files {
		f.Close()
	}
}
