package isolation

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
)

// Spec describes one group.
type Spec struct {
	// Name is the group's path below the cgroup roots, such as
	// "loam/gpu01/job_12": letters, digits, '.', '_', '-' and '/'
	// separators, no ".." element.
	Name string
	// CPUs is the host CPU list the group may run on ("0-3,8"); empty
	// inherits the parent's.
	CPUs string
	// MemoryBytes is the hard memory limit (swap included where the host
	// accounts it); 0 means no limit.
	MemoryBytes int64
	// PidsMax bounds the group's tasks; 0 means no limit.
	PidsMax int64
	// DenyDevices are device files (character or block devices) the
	// group may not open; every other device stays allowed.
	DenyDevices []string
}

// Isolator creates and finds groups.
type Isolator interface {
	// Create makes the group Spec describes. A leftover group of the same
	// name without processes is replaced; one with processes is an error.
	Create(Spec) (Group, error)
	Loader
}

// Loader finds groups that exist: what a job's supervisor needs, since
// the node daemon creates the job's group before starting it.
type Loader interface {
	// Load finds an existing group by name (ErrNotExist when there is
	// none): the job's group for its supervisor, or one to clean up after
	// a supervisor that died.
	Load(name string) (Group, error)
}

// Group is one created group.
type Group interface {
	// Name is the group's path, as in Spec.Name.
	Name() string
	// Add moves process pid (all its threads) into the group.
	Add(pid int) error
	// Pids lists the processes in the group and its children.
	Pids() ([]int, error)
	// Signal sends sig to every process of the group.
	Signal(sig syscall.Signal) error
	// SignalChildren sends sig to the processes of the group's child
	// groups only (a job's steps), not to those of the group itself (the
	// batch script).
	SignalChildren(sig syscall.Signal) error
	// Kill ends every process of the group with SIGKILL and returns once
	// the group is empty, or an error wrapping ErrUnkillable when
	// processes survive past the loader's bound.
	Kill() error
	// OOMKills is how many processes the kernel killed for exceeding the
	// group's memory limit.
	OOMKills() (uint64, error)
	// Delete removes the group and its children; it must be empty.
	Delete() error
}

// ErrUnkillable is wrapped by Kill's error when processes are still in the
// group once its bound ran out (a process frozen elsewhere, or in
// uninterruptible sleep on a hung mount).
var ErrUnkillable = errors.New("processes survive SIGKILL")

// ErrNotExist is returned by Load for a group that does not exist.
var ErrNotExist = errors.New("group does not exist")

// ValidName checks a group name as Spec.Name describes it.
func ValidName(name string) error {
	if name == "" || strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/") {
		return fmt.Errorf("invalid group name %q: want a relative path such as loam/node/job_1", name)
	}
	for _, el := range strings.Split(name, "/") {
		if el == "" || el == "." || el == ".." {
			return fmt.Errorf("invalid group name %q: empty, . or .. element", name)
		}
		for _, c := range el {
			ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
			if !ok {
				return fmt.Errorf("invalid group name %q: character %q", name, c)
			}
		}
	}
	return nil
}
