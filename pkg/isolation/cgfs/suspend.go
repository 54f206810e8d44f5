package cgfs

import (
	"fmt"
	"path/filepath"
)

// Freeze stops every process of the group, children included, for
// scontrol suspend. It does not wait for the kernel to finish: a process
// caught in the kernel freezes when it leaves, and the caller has nothing
// to do meanwhile.
func (g *v1Group) Freeze() error { return g.freeze("FROZEN") }

// Thaw lets a frozen group's processes go on.
func (g *v1Group) Thaw() error { return g.freeze("THAWED") }

// Freeze writes cgroup.freeze (kernels from 5.2), as v1's Freeze.
func (g *v2Group) Freeze() error { return g.setFreeze("1") }

// Thaw clears cgroup.freeze.
func (g *v2Group) Thaw() error { return g.setFreeze("0") }

func (g *v2Group) setFreeze(v string) error {
	if err := writeFile(filepath.Join(g.dir, "cgroup.freeze"), v); err != nil {
		return fmt.Errorf("group %s: cgroup.freeze %s: %w", g.name, v, err)
	}
	return nil
}
