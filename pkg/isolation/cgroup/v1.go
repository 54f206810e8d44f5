package cgroup

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/containerd/cgroups/v3/cgroup1"
	specs "github.com/opencontainers/runtime-spec/specs-go"

	"github.com/loamhpc/loam/pkg/isolation"
)

// Controllers a v1 group must have: without them a job could exceed its
// memory, reach other jobs' GPUs or outlive a kill.
var requiredV1 = []cgroup1.Name{cgroup1.Memory, cgroup1.Devices, cgroup1.Freezer, cgroup1.Cpuset, cgroup1.Pids}

// V1 is the cgroup v1 isolator.
type V1 struct {
	root string // the directory holding one mount per controller
	subs []cgroup1.Subsystem
	swap bool // the memory controller accounts swap (memory.memsw.*)
}

var _ isolation.Isolator = (*V1)(nil)

// NewV1 returns a v1 isolator over the controllers mounted under root;
// empty root finds it in /proc/self/mountinfo (usually /sys/fs/cgroup).
func NewV1(root string) (*V1, error) {
	if root == "" {
		r, err := v1Root()
		if err != nil {
			return nil, err
		}
		root = r
	}
	all := []cgroup1.Subsystem{
		cgroup1.NewFreezer(root), cgroup1.NewPids(root), cgroup1.NewCpuset(root),
		cgroup1.NewCpu(root), cgroup1.NewCpuacct(root), cgroup1.NewMemory(root), cgroup1.NewDevices(root),
	}
	v := &V1{root: root}
	for _, s := range all {
		if _, err := os.Lstat(filepath.Join(root, string(s.Name()))); err == nil {
			v.subs = append(v.subs, s)
		}
	}
	for _, n := range requiredV1 {
		if _, err := os.Lstat(filepath.Join(root, string(n))); err != nil {
			return nil, fmt.Errorf("cgroup v1 controller %s is not mounted under %s", n, root)
		}
	}
	_, err := os.Stat(filepath.Join(root, "memory", "memory.memsw.limit_in_bytes"))
	v.swap = err == nil
	return v, nil
}

// v1Root finds the parent directory of the v1 controller mounts.
func v1Root() (string, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		for i, fld := range fields {
			if fld == "-" && i+1 < len(fields) && fields[i+1] == "cgroup" && len(fields) > 4 {
				return filepath.Dir(fields[4]), nil
			}
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", errors.New("no cgroup v1 controller is mounted")
}

func (v *V1) hierarchy() ([]cgroup1.Subsystem, error) { return v.subs, nil }

// Create implements isolation.Isolator.
func (v *V1) Create(s isolation.Spec) (isolation.Group, error) {
	if err := isolation.ValidName(s.Name); err != nil {
		return nil, err
	}
	if err := v.clearLeftover(s.Name); err != nil {
		return nil, err
	}
	res, err := v.resources(s)
	if err != nil {
		return nil, fmt.Errorf("create group %s: %w", s.Name, err)
	}
	cg, err := cgroup1.New(cgroup1.StaticPath("/"+s.Name), res, cgroup1.WithHierarchy(v.hierarchy))
	if err != nil {
		g := &v1Group{v: v, name: s.Name}
		_ = g.Delete()
		return nil, fmt.Errorf("create group %s: %w", s.Name, err)
	}
	return &v1Group{v: v, name: s.Name, cg: cg}, nil
}

// clearLeftover removes an empty group of the same name (a requeued job
// that ran on this node before); a group with processes is an error.
func (v *V1) clearLeftover(name string) error {
	g := &v1Group{v: v, name: name}
	pids, err := g.Pids()
	if errors.Is(err, isolation.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(pids) > 0 {
		return fmt.Errorf("create group %s: it exists and holds %d processes", name, len(pids))
	}
	return g.Delete()
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
func (v *V1) Load(name string) (isolation.Group, error) {
	if err := isolation.ValidName(name); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(v.root, "memory", name)); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("group %s: %w", name, isolation.ErrNotExist)
	}
	cg, err := cgroup1.Load(cgroup1.StaticPath("/"+name), cgroup1.WithHierarchy(v.hierarchy))
	if errors.Is(err, cgroup1.ErrCgroupDeleted) {
		return nil, fmt.Errorf("group %s: %w", name, isolation.ErrNotExist)
	}
	if err != nil {
		return nil, fmt.Errorf("load group %s: %w", name, err)
	}
	return &v1Group{v: v, name: name, cg: cg}, nil
}

type v1Group struct {
	v    *V1
	name string
	cg   cgroup1.Cgroup // nil for a group only being cleaned up
}

func (g *v1Group) Name() string { return g.name }

func (g *v1Group) dir(sub cgroup1.Name) string { return filepath.Join(g.v.root, string(sub), g.name) }

// Add moves pid into every controller's group.
func (g *v1Group) Add(pid int) error {
	if err := g.cg.AddProc(uint64(pid)); err != nil {
		return fmt.Errorf("add pid %d to group %s: %w", pid, g.name, err)
	}
	return nil
}

// Pids reads the freezer hierarchy: the one Kill relies on.
func (g *v1Group) Pids() ([]int, error) { return readProcs(g.dir(cgroup1.Freezer)) }

func (g *v1Group) Signal(sig syscall.Signal) error {
	return signalListed(readProcs, g.dir(cgroup1.Freezer), sig)
}

func (g *v1Group) SignalChildren(sig syscall.Signal) error {
	return signalListed(readChildProcs, g.dir(cgroup1.Freezer), sig)
}

func (g *v1Group) Kill() error {
	return killLoop(g.name, func() (int, error) {
		pids, err := g.Pids()
		if errors.Is(err, isolation.ErrNotExist) || err == nil && len(pids) == 0 {
			return 0, nil
		}
		if err != nil {
			return 0, err
		}
		if err := g.freeze("FROZEN"); err != nil {
			return 0, err
		}
		// List again while frozen: nothing can fork past this list.
		pids, err = g.Pids()
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

// freeze writes the freezer state directly (containerd's Freeze waits for
// FROZEN in a loop without a bound; a kill must not hang on it).
func (g *v1Group) freeze(state string) error {
	err := os.WriteFile(filepath.Join(g.dir(cgroup1.Freezer), "freezer.state"), []byte(state), 0)
	if err != nil {
		return fmt.Errorf("freezer %s: %w", state, err)
	}
	return nil
}

// OOMKills reads oom_kill from memory.oom_control (kernels from 4.13).
func (g *v1Group) OOMKills() (uint64, error) {
	n, err := keyValue(filepath.Join(g.dir(cgroup1.Memory), "memory.oom_control"), "oom_kill")
	if err != nil {
		return 0, fmt.Errorf("group %s: %w", g.name, err)
	}
	return n, nil
}

// Delete removes the group from every controller, children first.
func (g *v1Group) Delete() error {
	pids, err := g.Pids()
	if err != nil && !errors.Is(err, isolation.ErrNotExist) {
		return err
	}
	if len(pids) > 0 {
		return fmt.Errorf("delete group %s: %d processes remain", g.name, len(pids))
	}
	var errs []error
	for _, s := range g.v.subs {
		if err := removeTree(g.dir(s.Name())); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
