package cgroup

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/containerd/cgroups/v3/cgroup2"

	"github.com/loamhpc/loam/pkg/isolation"
)

// V2 is the cgroup v2 isolator. Processes live only in leaf groups, as v2
// requires once controllers are enabled below a group.
type V2 struct {
	mount string
}

var _ isolation.Isolator = (*V2)(nil)

// NewV2 returns a v2 isolator over the unified hierarchy at mount (empty:
// /sys/fs/cgroup).
func NewV2(mount string) (*V2, error) {
	if mount == "" {
		mount = "/sys/fs/cgroup"
	}
	if _, err := os.Stat(filepath.Join(mount, "cgroup.controllers")); err != nil {
		return nil, fmt.Errorf("no cgroup v2 hierarchy at %s: %w", mount, err)
	}
	return &V2{mount: mount}, nil
}

// Create implements isolation.Isolator.
func (v *V2) Create(s isolation.Spec) (isolation.Group, error) {
	if err := isolation.ValidName(s.Name); err != nil {
		return nil, err
	}
	g := &v2Group{dir: filepath.Join(v.mount, s.Name), name: s.Name}
	if pids, err := g.Pids(); err == nil {
		if len(pids) > 0 {
			return nil, fmt.Errorf("create group %s: it exists and holds %d processes", s.Name, len(pids))
		}
		if err := g.Delete(); err != nil {
			return nil, err
		}
	}
	devs, err := deviceRules(s.DenyDevices)
	if err != nil {
		return nil, fmt.Errorf("create group %s: %w", s.Name, err)
	}
	res := &cgroup2.Resources{Devices: devs}
	if s.MemoryBytes > 0 {
		limit, noSwap := s.MemoryBytes, int64(0)
		res.Memory = &cgroup2.Memory{Max: &limit, Swap: &noSwap}
	}
	if s.PidsMax > 0 {
		res.Pids = &cgroup2.Pids{Max: s.PidsMax}
	}
	if s.CPUs != "" {
		res.CPU = &cgroup2.CPU{Cpus: s.CPUs}
	}
	m, err := cgroup2.NewManager(v.mount, "/"+s.Name, res)
	if err != nil {
		return nil, fmt.Errorf("create group %s: %w", s.Name, err)
	}
	g.m = m
	return g, nil
}

// Load implements isolation.Isolator.
func (v *V2) Load(name string) (isolation.Group, error) {
	if err := isolation.ValidName(name); err != nil {
		return nil, err
	}
	dir := filepath.Join(v.mount, name)
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("group %s: %w", name, isolation.ErrNotExist)
	}
	m, err := cgroup2.Load("/"+name, cgroup2.WithMountpoint(v.mount))
	if err != nil {
		return nil, fmt.Errorf("load group %s: %w", name, err)
	}
	return &v2Group{dir: dir, name: name, m: m}, nil
}

type v2Group struct {
	dir  string
	name string
	m    *cgroup2.Manager
}

func (g *v2Group) Name() string { return g.name }

func (g *v2Group) Add(pid int) error {
	if err := g.m.AddProc(uint64(pid)); err != nil {
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
	return killLoop(g.name, func() (int, error) {
		pids, err := g.Pids()
		if errors.Is(err, isolation.ErrNotExist) || err == nil && len(pids) == 0 {
			return 0, nil
		}
		if err != nil {
			return 0, err
		}
		if err := os.WriteFile(filepath.Join(g.dir, "cgroup.kill"), []byte("1"), 0); err == nil {
			return len(pids), nil
		}
		_ = os.WriteFile(filepath.Join(g.dir, "cgroup.freeze"), []byte("1"), 0)
		err = signalAll(pids, syscall.SIGKILL)
		_ = os.WriteFile(filepath.Join(g.dir, "cgroup.freeze"), []byte("0"), 0)
		return len(pids), err
	})
}

// OOMKills reads oom_kill from memory.events.
func (g *v2Group) OOMKills() (uint64, error) {
	n, err := keyValue(filepath.Join(g.dir, "memory.events"), "oom_kill")
	if err != nil {
		return 0, fmt.Errorf("group %s: %w", g.name, err)
	}
	return n, nil
}

func (g *v2Group) Delete() error {
	pids, err := g.Pids()
	if err != nil && !errors.Is(err, isolation.ErrNotExist) {
		return err
	}
	if len(pids) > 0 {
		return fmt.Errorf("delete group %s: %d processes remain", g.name, len(pids))
	}
	return removeTree(g.dir)
}
