package controller

import (
	"path/filepath"
	"strings"

	"github.com/loamhpc/loam/pkg/slurmconf"
)

// showContext is what scontrol show config prints beyond the files: when
// this controller started, the next job id, the slurm.conf it read, its
// host's short name (for a SlurmctldHost written "localhost") and uids.
func (c *Controller) showContext() slurmconf.ShowContext {
	rt := slurmconf.ShowContext{BootTime: c.started, ConfPath: c.opts.ConfPath,
		Hostname: strings.SplitN(c.host, ".", 2)[0]}
	if abs, err := filepath.Abs(rt.ConfPath); err == nil && rt.ConfPath != "" {
		rt.ConfPath = abs
	}
	if next, err := c.store.NextJobID(); err == nil {
		rt.NextJobID = next
	}
	rt.UID = func(name string) (int, bool) {
		uid, ok := c.users.uidOf(name)
		return int(uid), ok
	}
	return rt
}
