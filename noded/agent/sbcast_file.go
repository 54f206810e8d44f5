package agent

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/loamhpc/loam/noded/asuser"
	"golang.org/x/sys/unix"
)

// sbcastFile is one file sbcast is writing on this node: a temporary file
// next to the destination, created and moved with the job user's file
// system identity, so the kernel decides what the user may write and the
// file is the user's, never root's.
type sbcastFile struct {
	cred    asuser.Credential
	dest    string
	tmp     string
	f       *os.File
	written int64
}

// createSbcastFile creates the temporary file of dest (mode 0600, the
// user's). Without force an existing dest is refused at once, as slurmd
// does on the first block.
func createSbcastFile(cred asuser.Credential, dest, tag string, force bool) (*sbcastFile, error) {
	if !filepath.IsAbs(dest) || strings.ContainsRune(dest, 0) {
		return nil, fmt.Errorf("destination %q: %w", dest, syscall.EINVAL)
	}
	sf := &sbcastFile{cred: cred, dest: dest,
		tmp: filepath.Join(filepath.Dir(dest), "."+filepath.Base(dest)+".sbcast."+tag)}
	err := asuser.Do(cred, func() error {
		if !force {
			if _, err := os.Lstat(dest); err == nil {
				return syscall.EEXIST
			}
		}
		f, err := os.OpenFile(sf.tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
		sf.f = f
		return err
	})
	if err != nil {
		return nil, err
	}
	return sf, nil
}

// write appends data, which must start where the file ends.
func (sf *sbcastFile) write(offset int64, data []byte) error {
	if offset != sf.written {
		return fmt.Errorf("chunk at offset %d, file has %d bytes: %w", offset, sf.written, syscall.EINVAL)
	}
	n, err := sf.f.Write(data)
	sf.written += int64(n)
	return err
}

// sbcastAttrs are what the last chunk applies: the mode always, the times
// with -p.
type sbcastAttrs struct {
	mode         os.FileMode
	preserve     bool
	atime, mtime time.Time
}

// finish syncs the file, applies attrs and moves it into place: over an
// existing file only with force (rename is atomic, so a reader sees the
// old file or the new one, never a part). Without force the move refuses
// an existing destination (EEXIST), atomically too.
func (sf *sbcastFile) finish(attrs sbcastAttrs, force bool) error {
	err := errors.Join(sf.f.Sync(), sf.f.Close())
	sf.f = nil
	if err != nil {
		return err
	}
	perm := attrs.mode & 0o777
	if attrs.preserve {
		perm = attrs.mode & (os.ModePerm | os.ModeSetuid | os.ModeSetgid | os.ModeSticky)
	}
	return asuser.Do(sf.cred, func() error {
		if err := os.Chmod(sf.tmp, perm); err != nil {
			return err
		}
		if attrs.preserve {
			if err := os.Chtimes(sf.tmp, attrs.atime, attrs.mtime); err != nil {
				return err
			}
		}
		if force {
			// rename(2) itself: os.Rename answers EEXIST for a directory
			// where slurmd reports EISDIR.
			if err := unix.Rename(sf.tmp, sf.dest); err != nil {
				return &os.LinkError{Op: "rename", Old: sf.tmp, New: sf.dest, Err: err}
			}
			return nil
		}
		return renameNoReplace(sf.tmp, sf.dest)
	})
}

// renameNoReplace moves from to to unless to exists; file systems without
// RENAME_NOREPLACE get a hard link and an unlink, atomic as well.
func renameNoReplace(from, to string) error {
	err := unix.Renameat2(unix.AT_FDCWD, from, unix.AT_FDCWD, to, unix.RENAME_NOREPLACE)
	if !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOSYS) {
		return err
	}
	if err := os.Link(from, to); err != nil {
		return err
	}
	return os.Remove(from)
}

// abort closes and removes the temporary file.
func (sf *sbcastFile) abort() {
	if sf.f != nil {
		sf.f.Close()
		sf.f = nil
	}
	_ = asuser.Do(sf.cred, func() error { return os.Remove(sf.tmp) })
}

// errnoOf returns the system error number in err and its text as
// strerror writes it ("File exists"), or 0 when err has none.
func errnoOf(err error) (int, string) {
	var en syscall.Errno
	if !errors.As(err, &en) {
		return 0, ""
	}
	text := en.Error()
	if text != "" {
		text = strings.ToUpper(text[:1]) + text[1:]
	}
	return int(en), text
}
