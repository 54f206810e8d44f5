package cgfs

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/loamhpc/loam/pkg/isolation"
)

// unifiedMount is where a host mounts its cgroup file system.
const unifiedMount = "/sys/fs/cgroup"

// New returns the loader for the host's cgroup version, chosen as
// containerd/cgroups/v3's Mode does: v2 when /sys/fs/cgroup is the
// unified hierarchy, else the v1 controllers (legacy and hybrid hosts).
func New() (isolation.Loader, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(unifiedMount, &st); err != nil {
		return nil, fmt.Errorf("no cgroup file system is mounted: %w", os.NewSyscallError("statfs", err))
	}
	if st.Type == unix.CGROUP2_SUPER_MAGIC {
		return load(NewV2(unifiedMount))
	}
	return load(NewV1(""))
}

// load returns l as a Loader, or a nil Loader with err.
func load[L isolation.Loader](l L, err error) (isolation.Loader, error) {
	if err != nil {
		return nil, err
	}
	return l, nil
}

// V1Controllers are the v1 controllers a job's group is made in, in the
// order processes join them (containerd's default hierarchy order), and
// all of them required: without them a job could exceed its memory or
// process count, run on other jobs' CPUs, reach other jobs' GPUs or
// outlive a kill. The cpu and cpuacct controllers are left out: no job
// has a CPU quota (cpuset confines it) and nothing reads their
// accounting, and each hierarchy a group is made in costs every job a
// directory created, a process moved and a directory removed.
var V1Controllers = []string{"freezer", "pids", "cpuset", "memory", "devices"}

// V1 holds groups in the cgroup v1 controllers mounted under one root.
type V1 struct {
	root  string
	ctrls []string
	kill  time.Duration // Kill's bound; 0: DefaultKillTimeout
}

var _ isolation.Loader = (*V1)(nil)

// NewV1 finds the v1 controllers mounted under root; empty root finds it
// in /proc/self/mountinfo (usually /sys/fs/cgroup).
func NewV1(root string) (*V1, error) {
	if root == "" {
		r, err := v1Root()
		if err != nil {
			return nil, err
		}
		root = r
	}
	for _, c := range V1Controllers {
		if _, err := os.Lstat(filepath.Join(root, c)); err != nil {
			return nil, fmt.Errorf("cgroup v1 controller %s is not mounted under %s", c, root)
		}
	}
	return &V1{root: root, ctrls: V1Controllers}, nil
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

// SetKillTimeout bounds how long its groups' Kill waits for their
// processes to go (UnkillableStepTimeout for a job's supervisor).
func (v *V1) SetKillTimeout(d time.Duration) { v.kill = d }

func (v *V1) killWithin() time.Duration { return orDefault(v.kill) }

// orDefault is d, or DefaultKillTimeout when d is not set.
func orDefault(d time.Duration) time.Duration {
	if d <= 0 {
		return DefaultKillTimeout
	}
	return d
}

// Root is the directory holding one mount per controller.
func (v *V1) Root() string { return v.root }

// Controllers are the controllers groups are made in (V1Controllers).
func (v *V1) Controllers() []string { return v.ctrls }

// Group returns the group called name, whether it exists or not (for its
// creator, and for cleaning up).
func (v *V1) Group(name string) isolation.Group { return &v1Group{v: v, name: name} }

// Load implements isolation.Loader: the group must exist in the memory
// controller.
func (v *V1) Load(name string) (isolation.Group, error) {
	if err := isolation.ValidName(name); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(v.root, "memory", name)); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("group %s: %w", name, isolation.ErrNotExist)
	} else if err != nil {
		return nil, fmt.Errorf("load group %s: %w", name, err)
	}
	return v.Group(name), nil
}

// V2 holds groups in the unified hierarchy. Processes live only in leaf
// groups, as v2 requires once controllers are enabled below a group.
type V2 struct {
	mount string
	kill  time.Duration // Kill's bound; 0: DefaultKillTimeout
}

var _ isolation.Loader = (*V2)(nil)

// NewV2 returns the groups of the unified hierarchy at mount (empty:
// /sys/fs/cgroup).
func NewV2(mount string) (*V2, error) {
	if mount == "" {
		mount = unifiedMount
	}
	if _, err := os.Stat(filepath.Join(mount, "cgroup.controllers")); err != nil {
		return nil, fmt.Errorf("no cgroup v2 hierarchy at %s: %w", mount, err)
	}
	return &V2{mount: mount}, nil
}

// SetKillTimeout bounds how long its groups' Kill waits (see V1's).
func (v *V2) SetKillTimeout(d time.Duration) { v.kill = d }

// Mount is the unified hierarchy's mount point.
func (v *V2) Mount() string { return v.mount }

// Group returns the group called name, whether it exists or not.
func (v *V2) Group(name string) isolation.Group {
	return &v2Group{dir: filepath.Join(v.mount, name), name: name, within: orDefault(v.kill)}
}

// Load implements isolation.Loader.
func (v *V2) Load(name string) (isolation.Group, error) {
	if err := isolation.ValidName(name); err != nil {
		return nil, err
	}
	g := v.Group(name)
	if _, err := os.Stat(g.(*v2Group).dir); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("group %s: %w", name, isolation.ErrNotExist)
	} else if err != nil {
		return nil, fmt.Errorf("load group %s: %w", name, err)
	}
	return g, nil
}
