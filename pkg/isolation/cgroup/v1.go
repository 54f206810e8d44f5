package cgroup

import (
	"os"
	"path/filepath"
	"time"

	"fmt"

	"github.com/containerd/cgroups/v3/cgroup1"
	specs "github.com/opencontainers/runtime-spec/specs-go"

	"github.com/loamhpc/loam/pkg/isolation"
	"github.com/loamhpc/loam/pkg/isolation/cgfs"
)

// V1 is the cgroup v1 isolator: containerd creates each group in every
// mounted controller; package cgfs works on it afterwards.
type V1 struct {
	fs   *cgfs.V1
	subs []cgroup1.Subsystem
	swap bool // the memory controller accounts swap (memory.memsw.*)
}

var _ isolation.Isolator = (*V1)(nil)

// NewV1 returns a v1 isolator over the controllers mounted under root;
// empty root finds it in /proc/self/mountinfo (usually /sys/fs/cgroup).
func NewV1(root string) (*V1, error) {
	fsys, err := cgfs.NewV1(root)
	if err != nil {
		return nil, err
	}
	root = fsys.Root()
	v := &V1{fs: fsys}
	for _, c := range fsys.Controllers() {
		v.subs = append(v.subs, subsystem(root, c))
	}
	_, err = os.Stat(filepath.Join(root, "memory", "memory.memsw.limit_in_bytes"))
	v.swap = err == nil
	return v, nil
}

// subsystem is containerd's subsystem for controller name.
func subsystem(root, name string) cgroup1.Subsystem {
	switch cgroup1.Name(name) {
	case cgroup1.Freezer:
		return cgroup1.NewFreezer(root)
	case cgroup1.Pids:
		return cgroup1.NewPids(root)
	case cgroup1.Cpuset:
		return cgroup1.NewCpuset(root)
	case cgroup1.Cpu:
		return cgroup1.NewCpu(root)
	case cgroup1.Cpuacct:
		return cgroup1.NewCpuacct(root)
	case cgroup1.Memory:
		return cgroup1.NewMemory(root)
	}
	return cgroup1.NewDevices(root)
}

func (v *V1) hierarchy() ([]cgroup1.Subsystem, error) { return v.subs, nil }

// Create implements isolation.Isolator.
func (v *V1) Create(s isolation.Spec) (isolation.Group, error) {
	if err := isolation.ValidName(s.Name); err != nil {
		return nil, err
	}
	g := v.fs.Group(s.Name)
	if err := clearLeftover(g); err != nil {
		return nil, err
	}
	res, err := v.resources(s)
	if err != nil {
		return nil, fmt.Errorf("create group %s: %w", s.Name, err)
	}
	if _, err := cgroup1.New(cgroup1.StaticPath("/"+s.Name), res, cgroup1.WithHierarchy(v.hierarchy)); err != nil {
		_ = g.Delete()
		return nil, fmt.Errorf("create group %s: %w", s.Name, err)
	}
	return g, nil
}

func (v *V1) resources(s isolation.Spec) (*specs.LinuxResources, error) {
	devs, err := deviceRules(s.DenyDevices)
	if err != nil {
		return nil, err
	}
	res := &specs.LinuxResources{Devices: devs}
	if s.MemoryBytes > 0 {
		limit := s.MemoryBytes
		res.Memory = &specs.LinuxMemory{Limit: &limit}
		if v.swap {
			// memory+swap equal to memory: the job may not swap.
			res.Memory.Swap = &limit
		}
	}
	if s.PidsMax > 0 {
		pids := s.PidsMax
		res.Pids = &specs.LinuxPids{Limit: &pids}
	}
	if s.CPUs != "" {
		res.CPU = &specs.LinuxCPU{Cpus: s.CPUs}
	}
	return res, nil
}

// Load implements isolation.Isolator.
func (v *V1) Load(name string) (isolation.Group, error) { return v.fs.Load(name) }

// SetKillTimeout bounds how long its groups' Kill waits for their
// processes to go (UnkillableStepTimeout for a step process).
func (v *V1) SetKillTimeout(d time.Duration) { v.fs.SetKillTimeout(d) }
