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
	// The controller's counter, not the database's: the store records the
	// next id as a write behind, and array tasks take ids when they start.
	c.mu.RLock()
	rt.NextJobID = c.eng.PeekNextID()
	c.mu.RUnlock()
	rt.Debug = c.admin.runtimeDebug(c.confNow().conf) // admin_ops.go
	rt.UID = func(name string) (int, bool) {
		uid, ok := c.users.uidOf(name)
		return int(uid), ok
	}
	return rt
}
