package cgfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/loamhpc/loam/pkg/isolation"
)

// DefaultKillTimeout bounds how long Kill waits for a group to empty
// unless SetKillTimeout says otherwise: processes in uninterruptible
// sleep (a hung NFS mount) may take a while to die.
const DefaultKillTimeout = 30 * time.Second

// killLoop kills group g's processes, a round at a time, until the group
// is empty or gone: each round lists them and, when there are some, calls
// kill with the list. Processes left after within are ErrUnkillable.
func killLoop(g isolation.Group, within time.Duration, kill func(pids []int) (left int, err error)) error {
	name := g.Name()
	deadline := time.Now().Add(within)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		pids, err := g.Pids()
		left := 0
		switch {
		case errors.Is(err, isolation.ErrNotExist):
			err = nil
		case err == nil && len(pids) > 0:
			left, err = kill(pids)
		}
		if err != nil {
			return fmt.Errorf("kill group %s: %w", name, err)
		}
		if left == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("kill group %s: %d %w", name, left, isolation.ErrUnkillable)
		}
		time.Sleep(wait)
	}
}

// signalListed sends sig to the processes list finds under dir.
func signalListed(list func(dir string) ([]int, error), dir string, sig syscall.Signal) error {
	pids, err := list(dir)
	if err != nil {
		return err
	}
	return signalAll(pids, sig)
}

// signalAll sends sig to each pid; processes that already exited are not
// an error.
func signalAll(pids []int, sig syscall.Signal) error {
	var errs []error
	for _, pid := range pids {
		if err := unix.Kill(pid, sig); err != nil && !errors.Is(err, unix.ESRCH) {
			errs = append(errs, fmt.Errorf("signal %d to pid %d: %w", sig, pid, err))
		}
	}
	return errors.Join(errs...)
}

// removeGroupDir removes the group directory dir: at once when it has no
// child groups (a job without steps, the common case), else through
// removeTree.
func removeGroupDir(dir string) error {
	err := unix.Rmdir(dir)
	if err == nil || errors.Is(err, unix.ENOENT) {
		return nil
	}
	return removeTree(dir)
}

// removeTree removes dir and every group below it, deepest first. Group
// directories hold only kernel files, which rmdir takes with them.
func removeTree(dir string) error {
	var dirs []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	slices.Reverse(dirs)
	for _, d := range dirs {
		if err := rmdir(d); err != nil {
			return err
		}
	}
	return nil
}

// rmdir removes one group directory, retrying while the kernel still
// reports it busy (its last task is being torn down).
func rmdir(dir string) error {
	var err error
	for wait := time.Millisecond; wait < 2*time.Second; wait *= 2 {
		err = unix.Rmdir(dir)
		if err == nil || errors.Is(err, unix.ENOENT) {
			return nil
		}
		if !errors.Is(err, unix.EBUSY) {
			break
		}
		time.Sleep(wait)
	}
	return fmt.Errorf("remove %s: %w", dir, err)
}

// readChildProcs lists the processes of dir's child groups (recursively),
// not those of dir itself.
func readChildProcs(dir string) ([]int, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", dir, isolation.ErrNotExist)
	}
	if err != nil {
		return nil, err
	}
	var pids []int
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		sub, err := readProcs(filepath.Join(dir, e.Name()))
		if err != nil && !errors.Is(err, isolation.ErrNotExist) { // a step may end meanwhile
			return nil, err
		}
		pids = append(pids, sub...)
	}
	return pids, nil
}

// readProcs lists the pids in dir's cgroup.procs and every child's.
func readProcs(dir string) ([]int, error) {
	var pids []int
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(filepath.Join(p, "cgroup.procs"))
		if err != nil {
			return err
		}
		for _, f := range strings.Fields(string(data)) {
			if pid, err := strconv.Atoi(f); err == nil {
				pids = append(pids, pid)
			}
		}
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", dir, isolation.ErrNotExist)
	}
	return pids, err
}

// keyValue reads one "key value" line of a kernel statistics file.
func keyValue(path, key string) (uint64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, " ")
		if ok && k == key {
			return strconv.ParseUint(strings.TrimSpace(v), 10, 64)
		}
	}
	return 0, nil
}
