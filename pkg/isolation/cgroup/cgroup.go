package cgroup

import (
	"errors"
	"fmt"
	"os"

	cgroups "github.com/containerd/cgroups/v3"
	specs "github.com/opencontainers/runtime-spec/specs-go"
	"golang.org/x/sys/unix"

	"github.com/loamhpc/loam/pkg/isolation"
)

// New returns the isolator for the host's cgroup version.
func New() (isolation.Isolator, error) {
	switch cgroups.Mode() {
	case cgroups.Legacy, cgroups.Hybrid:
		return NewV1("")
	case cgroups.Unified:
		return NewV2("")
	}
	return nil, errors.New("no cgroup file system is mounted")
}

// deviceRules turns denied device files into rules: allow everything,
// then deny each file's type and major:minor.
func deviceRules(deny []string) ([]specs.LinuxDeviceCgroup, error) {
	rules := []specs.LinuxDeviceCgroup{{Allow: true, Type: "a", Access: "rwm"}}
	for _, path := range deny {
		var st unix.Stat_t
		if err := unix.Stat(path, &st); err != nil {
			return nil, fmt.Errorf("device %s: %w", path, os.NewSyscallError("stat", err))
		}
		typ := ""
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFCHR:
			typ = "c"
		case unix.S_IFBLK:
			typ = "b"
		default:
			return nil, fmt.Errorf("device %s: not a device file", path)
		}
		major, minor := int64(unix.Major(st.Rdev)), int64(unix.Minor(st.Rdev))
		rules = append(rules, specs.LinuxDeviceCgroup{Allow: false, Type: typ, Major: &major, Minor: &minor, Access: "rwm"})
	}
	return rules, nil
}

// clearLeftover removes an empty group g of the same name as one being
// created (a requeued job that ran on this node before); a group with
// processes is an error.
func clearLeftover(g isolation.Group) error {
	pids, err := g.Pids()
	if errors.Is(err, isolation.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(pids) > 0 {
		return fmt.Errorf("create group %s: it exists and holds %d processes", g.Name(), len(pids))
	}
	return g.Delete()
}
