package cgroup

import (
	"fmt"
	"time"

	"github.com/containerd/cgroups/v3/cgroup2"

	"github.com/loamhpc/loam/pkg/isolation"
	"github.com/loamhpc/loam/pkg/isolation/cgfs"
)

// V2 is the cgroup v2 isolator: containerd creates each group (its device
// rules an eBPF program attached to it); package cgfs works on it
// afterwards.
type V2 struct {
	fs *cgfs.V2
}

var _ isolation.Isolator = (*V2)(nil)

// NewV2 returns a v2 isolator over the unified hierarchy at mount (empty:
// /sys/fs/cgroup).
func NewV2(mount string) (*V2, error) {
	fsys, err := cgfs.NewV2(mount)
	if err != nil {
		return nil, err
	}
	return &V2{fs: fsys}, nil
}

// Create implements isolation.Isolator.
func (v *V2) Create(s isolation.Spec) (isolation.Group, error) {
	if err := isolation.ValidName(s.Name); err != nil {
		return nil, err
	}
	g := v.fs.Group(s.Name)
	if err := clearLeftover(g); err != nil {
		return nil, err
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
	if _, err := cgroup2.NewManager(v.fs.Mount(), "/"+s.Name, res); err != nil {
		return nil, fmt.Errorf("create group %s: %w", s.Name, err)
	}
	return g, nil
}

// Load implements isolation.Isolator.
func (v *V2) Load(name string) (isolation.Group, error) { return v.fs.Load(name) }

// SetKillTimeout bounds how long its groups' Kill waits for their
// processes to go (UnkillableStepTimeout for a step process).
func (v *V2) SetKillTimeout(d time.Duration) { v.fs.SetKillTimeout(d) }
