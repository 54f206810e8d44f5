package supervisor

import (
	"context"
	"errors"
	"syscall"
	"time"

	"github.com/loamhpc/loam/noded/lifecycle"
	"github.com/loamhpc/loam/pkg/api"
)

// Suspend freezes (req.Resume false) or thaws the job's processes.
func (c *Client) Suspend(ctx context.Context, req api.NodeSuspendRequest) (api.NodedResponse, error) {
	return c.order(ctx, wireRequest{Op: opSuspend, Suspend: &req})
}

// suspendActions turns a suspend or resume order into lifecycle actions:
// the time limit's timer stops while the job is suspended.
func suspendActions(m *lifecycle.Machine, now time.Time, req *api.NodeSuspendRequest) []lifecycle.Action {
	if req.Resume {
		return m.Resume(now)
	}
	return m.Suspend(now)
}

// freezer is a cgroup that can stop all its processes at once, children
// included, so that none escapes by forking (package cgfs's groups).
type freezer interface {
	Freeze() error
	Thaw() error
}

// setFrozen freezes or thaws the job's cgroup, steps included; a group
// that cannot freeze gets SIGSTOP or SIGCONT instead, as Slurm does
// without a freezer.
func (s *Supervisor) setFrozen(frozen bool) error {
	if s.group == nil {
		return errors.New("no cgroup to freeze")
	}
	if f, ok := s.group.(freezer); ok {
		if frozen {
			return f.Freeze()
		}
		return f.Thaw()
	}
	if frozen {
		return s.group.Signal(syscall.SIGSTOP)
	}
	return s.group.Signal(syscall.SIGCONT)
}
