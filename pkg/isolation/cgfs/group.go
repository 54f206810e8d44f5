package cgfs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/loamhpc/loam/pkg/isolation"
)

type v1Group struct {
	v    *V1
	name string
}

func (g *v1Group) Name() string { return g.name }

func (g *v1Group) dir(ctrl string) string { return filepath.Join(g.v.root, ctrl, g.name) }

// Add moves pid into the group of every controller, as containerd's
// AddProc does.
func (g *v1Group) Add(pid int) error {
	for _, c := range g.v.ctrls {
		if err := writeFile(filepath.Join(g.dir(c), "cgroup.procs"), strconv.Itoa(pid)); err != nil {
			return fmt.Errorf("add pid %d to group %s: %w", pid, g.name, err)
		}
	}
	return nil
}

// Pids reads the freezer hierarchy: the one Kill relies on.
func (g *v1Group) Pids() ([]int, error) { return readProcs(g.dir("freezer")) }

func (g *v1Group) Signal(sig syscall.Signal) error {
	return signalListed(readProcs, g.dir("freezer"), sig)
}

func (g *v1Group) SignalChildren(sig syscall.Signal) error {
	return signalListed(readChildProcs, g.dir("freezer"), sig)
}

func (g *v1Group) Kill() error {
	return killLoop(g, g.v.killWithin(), func([]int) (int, error) {
		if err := g.freeze("FROZEN"); err != nil {
			return 0, err
		}
		// List again while frozen: nothing can fork past this list.
		pids, err := g.Pids()
		if err == nil {
			err = signalAll(pids, syscall.SIGKILL)
		}
		// Thaw even after an error: frozen tasks cannot die.
		if terr := g.freeze("THAWED"); err == nil {
			err = terr
		}
		return len(pids), err
	})
}

// freeze writes the freezer state without waiting for it (containerd's
// Freeze waits for FROZEN in a loop without a bound; a kill must not hang
// on it).
func (g *v1Group) freeze(state string) error {
	if err := writeFile(filepath.Join(g.dir("freezer"), "freezer.state"), state); err != nil {
		return fmt.Errorf("freezer %s: %w", state, err)
	}
	return nil
}

// OOMKills reads oom_kill from memory.oom_control (kernels from 4.13).
func (g *v1Group) OOMKills() (uint64, error) {
	return oomKills(g.name, filepath.Join(g.dir("memory"), "memory.oom_control"))
}

// Delete removes the group from every controller, children first.
func (g *v1Group) Delete() error {
	if err := checkEmpty(g); err != nil {
		return err
	}
	var errs []error
	for _, c := range g.v.ctrls {
		if err := removeGroupDir(g.dir(c)); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

type v2Group struct {
	dir    string
	name   string
	within time.Duration // Kill's bound
}

func (g *v2Group) Name() string { return g.name }

func (g *v2Group) Add(pid int) error {
	if err := writeFile(filepath.Join(g.dir, "cgroup.procs"), strconv.Itoa(pid)); err != nil {
		return fmt.Errorf("add pid %d to group %s: %w", pid, g.name, err)
	}
	return nil
}

func (g *v2Group) Pids() ([]int, error) { return readProcs(g.dir) }

func (g *v2Group) Signal(sig syscall.Signal) error { return signalListed(readProcs, g.dir, sig) }

func (g *v2Group) SignalChildren(sig syscall.Signal) error {
	return signalListed(readChildProcs, g.dir, sig)
}

// Kill writes cgroup.kill where the kernel has it (5.14+), else freezes
// and signals like v1.
func (g *v2Group) Kill() error {
	return killLoop(g, g.within, func(pids []int) (int, error) {
		if err := writeFile(filepath.Join(g.dir, "cgroup.kill"), "1"); err == nil {
			return len(pids), nil
		}
		_ = g.Freeze()
		err := signalAll(pids, syscall.SIGKILL)
		_ = g.Thaw()
		return len(pids), err
	})
}

// OOMKills reads oom_kill from memory.events.
func (g *v2Group) OOMKills() (uint64, error) {
	return oomKills(g.name, filepath.Join(g.dir, "memory.events"))
}

// oomKills reads the oom_kill count from the memory file of group name.
func oomKills(name, file string) (uint64, error) {
	n, err := keyValue(file, "oom_kill")
	if err != nil {
		return 0, fmt.Errorf("group %s: %w", name, err)
	}
	return n, nil
}

func (g *v2Group) Delete() error {
	if err := checkEmpty(g); err != nil {
		return err
	}
	return removeGroupDir(g.dir)
}

// checkEmpty refuses to delete a group that holds processes.
func checkEmpty(g isolation.Group) error {
	pids, err := g.Pids()
	if err != nil && !errors.Is(err, isolation.ErrNotExist) {
		return err
	}
	if len(pids) > 0 {
		return fmt.Errorf("delete group %s: %d processes remain", g.Name(), len(pids))
	}
	return nil
}

// writeFile writes one value to a kernel file that exists, retrying when
// a signal interrupts the write (the Go runtime's preemption signals can).
func writeFile(path, value string) error {
	for {
		err := os.WriteFile(path, []byte(value), 0)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}
