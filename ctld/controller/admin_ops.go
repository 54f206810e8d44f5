package controller

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/logging"
	"github.com/loamhpc/loam/pkg/slurmconf"
	"github.com/sirupsen/logrus"
)

// scontrol's administrative requests: write batch_script reads a job's
// script, setdebug and setdebugflags change the log at run time, and
// shutdown stops the controller (and the node daemons) cleanly. As in
// Slurm, only a job's owner or an operator reads its script, and only
// operators change the log or stop the daemons.

// adminState is what these requests keep: the log level and debug flags
// set at run time, and the channel Run waits on for a shutdown. Its zero
// value is ready.
type adminState struct {
	mu    sync.Mutex
	debug *debugState // nil until setdebug or setdebugflags
	once  sync.Once
	stop  chan struct{}
	done  sync.Once
}

// debugState is setdebug's and setdebugflags's run-time values and the
// configuration they started from. As in Slurm they start from the
// file's SlurmctldDebug and DebugFlags, and a reconfigure, which rereads
// the files, drops them.
type debugState struct {
	conf *slurmconf.Config
	slurmconf.RuntimeDebug
}

// debugFor returns the run-time debug state for conf, started from the
// file's values when none was set since conf was loaded. The caller
// holds a.mu.
func (a *adminState) debugFor(conf *slurmconf.Config) *debugState {
	if a.debug == nil || a.debug.conf != conf {
		a.debug = &debugState{conf: conf, RuntimeDebug: conf.FileDebug()}
	}
	return a.debug
}

// runtimeDebug is what show config prints for SlurmctldDebug and
// DebugFlags when setdebug or setdebugflags changed them since conf was
// loaded; nil: the file's values.
func (a *adminState) runtimeDebug(conf *slurmconf.Config) *slurmconf.RuntimeDebug {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.debug == nil || a.debug.conf != conf {
		return nil
	}
	d := a.debug.RuntimeDebug
	d.Flags = slices.Clone(d.Flags)
	return &d
}

// stopped is closed once a shutdown was asked for.
func (a *adminState) stopped() <-chan struct{} {
	a.once.Do(func() { a.stop = make(chan struct{}) })
	return a.stop
}

func (a *adminState) requestStop() {
	a.stopped()
	a.done.Do(func() { close(a.stop) })
}

// handleJobScript is scontrol write batch_script.
func (c *Controller) handleJobScript(_ context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.JobScriptRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	r := c.jobs[in.JobID]
	switch {
	case r == nil:
		return nil, api.Errorf(api.CodeInvalidJobID, "no job %d", in.JobID)
	case !c.canModify(id, r):
		return nil, api.Errorf(api.CodeUserIDMissing, "job %d belongs to %s", r.ID, r.Req.UserName)
	case r.Req.Script == "":
		return nil, api.Errorf(api.CodeScriptMissing, "job %d is an allocation without a batch script", r.ID)
	}
	return api.JobScriptResponse{Script: r.Req.Script}, nil
}

// parseSlurmLevel reads a setdebug level (slurmconf.ParseLogLevel) as logrus's.
func parseSlurmLevel(s string) (string, logrus.Level, bool) {
	name, ok := slurmconf.ParseLogLevel(s)
	if !ok {
		return "", 0, false
	}
	lvl, _ := logging.SlurmLevel(name)
	return name, lvl, true
}

// followFileLevel sets the log level to conf's SlurmctldDebug unless the
// command line fixed it: at start and at a reconfigure, which also drops
// a level setdebug set, as in Slurm.
func (c *Controller) followFileLevel(conf *slurmconf.Config) {
	if !c.opts.LevelFromConf {
		return
	}
	if lvl, ok := logging.SlurmLevel(conf.SlurmctldDebug); ok {
		c.log.Logger.SetLevel(lvl)
	}
}

// handleSetDebug is scontrol setdebug and setdebugflags.
func (c *Controller) handleSetDebug(_ context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.SetDebugRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if !c.isOperator(id) {
		return nil, api.Errorf(api.CodeAccessDenied, "changing the log is reserved to root and SlurmUser")
	}
	var name string
	if in.Level != "" {
		var lvl logrus.Level
		var ok bool
		name, lvl, ok = parseSlurmLevel(in.Level)
		if !ok {
			return nil, api.Errorf(api.CodeBadRequest, "invalid debug level %q", in.Level)
		}
		// Log the change at the old level too, so that it shows when the
		// new one is quieter.
		c.log.WithField("debug_level", name).Info("setdebug: log level changed")
		c.log.Logger.SetLevel(lvl)
	}
	conf := c.confNow().conf
	flags, aerr := c.admin.apply(conf, name, in.Flags)
	if aerr != nil {
		return nil, aerr
	}
	if len(in.Flags) > 0 {
		c.log.WithField("debug_flags", strings.Join(flags, ",")).Info("setdebugflags: debug flags changed")
	}
	return api.SetDebugResponse{Level: c.log.Logger.GetLevel().String(), Flags: flags}, nil
}

// apply records level (a Slurm level name; "": unchanged) and adds
// ("+NAME") and removes ("-NAME") debug flags, all or none, starting from
// conf's when nothing was set since it was loaded. It returns the flags
// set, in show config's order.
func (a *adminState) apply(conf *slurmconf.Config, level string, words []string) ([]string, *api.Error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if level == "" && len(words) == 0 {
		if a.debug == nil || a.debug.conf != conf {
			return conf.FileDebug().Flags, nil
		}
		return slices.Clone(a.debug.Flags), nil
	}
	set := map[string]bool{}
	for _, f := range a.debugFor(conf).Flags {
		set[f] = true
	}
	for _, w := range words {
		if w == "" || (w[0] != '+' && w[0] != '-') {
			return nil, api.Errorf(api.CodeBadRequest, "invalid debug flag %q: want +NAME or -NAME", w)
		}
		name, ok := slurmconf.DebugFlagName(w[1:])
		if !ok {
			return nil, api.Errorf(api.CodeBadRequest, "invalid debug flag %q", w[1:])
		}
		set[name] = w[0] == '+'
	}
	var flags []string
	for _, n := range slurmconf.DebugFlags {
		if set[n] {
			flags = append(flags, n)
		}
	}
	d := a.debug
	d.Flags = flags
	if level != "" {
		d.Level = level
	}
	return slices.Clone(flags), nil
}

// shutdownNodeTimeout bounds the order to each node daemon.
const shutdownNodeTimeout = 5 * time.Second

// handleShutdown is scontrol shutdown: the node daemons are told to stop
// first (their jobs' supervisors keep running and are adopted by the next
// daemon, as slurmstepd outlives slurmd), then the controller stops
// after answering, saving its state as on SIGTERM.
func (c *Controller) handleShutdown(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.ShutdownRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if !c.isOperator(id) || id.Via == auth.ViaDaemon {
		return nil, api.Errorf(api.CodeUserIDMissing, "shutdown is reserved to root and SlurmUser")
	}
	var out api.ShutdownResponse
	if !in.ControllerOnly {
		out = c.stopNodeDaemons(ctx)
	}
	c.log.WithField("uid", id.UID).WithField("controller_only", in.ControllerOnly).Info("shutdown requested")
	c.admin.requestStop()
	return out, nil
}

// stopNodeDaemons orders every responding node daemon to stop.
func (c *Controller) stopNodeDaemons(ctx context.Context) api.ShutdownResponse {
	var targets []nodeTarget
	var out api.ShutdownResponse
	c.mu.RLock()
	for name := range c.nodes {
		if t, ok := c.target(name); ok {
			targets = append(targets, t)
		}
	}
	c.mu.RUnlock()
	slices.SortFunc(targets, func(a, b nodeTarget) int { return strings.Compare(a.node, b.node) })
	var wg sync.WaitGroup
	failed := make([]bool, len(targets))
	for i, t := range targets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tctx, cancel := context.WithTimeout(ctx, shutdownNodeTimeout)
			defer cancel()
			if _, err := c.noded.NodedShutdown(tctx, t.addr); err != nil {
				c.log.WithError(err).WithField("node", t.node).Warn("shutdown: node daemon did not answer")
				failed[i] = true
			}
		}()
	}
	wg.Wait()
	for i, t := range targets {
		if failed[i] {
			out.Unreachable = append(out.Unreachable, t.node)
		} else {
			out.Nodes = append(out.Nodes, t.node)
		}
	}
	return out
}
