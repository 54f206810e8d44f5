package agent

import (
	"context"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/logging"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// settings is the configuration in force: slurm.conf (with the files it
// names and gres.conf) as last read, and this node's line in it. A
// reconfigure replaces it whole; each reader loads it once, so a job's
// launch record is made from one configuration.
type settings struct {
	cfg  *slurmconf.Config
	node slurmconf.Node
}

// conf is the configuration in force.
func (a *Agent) conf() *slurmconf.Config { return a.live.Load().cfg }

// reloadState serializes rereads and remembers the controller's
// configuration generation the daemon last followed.
type reloadState struct {
	run sync.Mutex // held through one reread
	mu  sync.Mutex
	gen string
}

// follow records gen and says whether it moved from a known one: the
// first generation heard is taken as is, since the daemon read its files
// when it started.
func (r *reloadState) follow(gen string) bool {
	if gen == "" {
		return false // a controller that predates generations
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	prev := r.gen
	r.gen = gen
	return prev != "" && prev != gen
}

// reloadOnHUP rereads the configuration on SIGHUP, as slurmd does.
func (a *Agent) reloadOnHUP(ctx context.Context) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	go func() {
		defer signal.Stop(hup)
		for {
			select {
			case <-ctx.Done():
				return
			case <-hup:
				_ = a.Reload("SIGHUP")
			}
		}
	}()
}

// reconfigure is the controller's order after scontrol reconfigure.
func (a *Agent) reconfigure(req *api.NodedReconfigureRequest) (*api.NodedResponse, *api.Error) {
	a.reload.follow(req.Generation)
	if err := a.Reload("scontrol reconfigure"); err != nil {
		return nil, api.Errorf(api.CodeInvalidConfig, "%s keeps its configuration: %v", a.nc.node.Name, err)
	}
	return &api.NodedResponse{}, nil
}

// followGeneration rereads the configuration in the background when a
// registration or heartbeat answer shows that the controller
// reconfigured (or restarted) since the last answer: the order it sent
// did not reach this daemon.
func (a *Agent) followGeneration(ctx context.Context, gen string) {
	if a.reload.follow(gen) && ctx.Err() == nil {
		go func() { _ = a.Reload("controller reconfigured") }()
	}
}

// Reload rereads slurm.conf, the files it names and gres.conf, and
// applies what a running daemon can change (see man loam-noded):
// jobs and steps launched from now on get the new settings, running jobs
// keep theirs. Files that do not load change nothing: the error, which
// names each file and line, is logged and returned, and the daemon goes
// on with the configuration in force (slurmd exits instead). why is the
// cause, for the log.
func (a *Agent) Reload(why string) error {
	a.reload.run.Lock()
	defer a.reload.run.Unlock()
	log := a.log.WithField("reason", why)
	nc, err := resolve(a.opts)
	if err != nil {
		log.WithError(err).Error("reconfigure failed: the configuration in force stays")
		return err
	}
	old := a.live.Load()
	next := &settings{cfg: nc.cfg, node: nc.node}
	for _, key := range restartKeys(a.nc, nc) {
		log.WithField("key", key).Warn("changed in the configuration: takes effect when loam-noded restarts")
	}
	a.live.Store(next)
	a.followLevel(nc.cfg)
	a.followHealthCheck(nc.cfg.Scripts)
	a.followNodeLine(old.node, nc.node)
	a.mu.Lock()
	err = a.hw.measureTmpDisk(nc) // TmpFS may have changed: slurmd measures at each reconfigure too
	a.mu.Unlock()
	if err != nil {
		log.WithError(err).Warn("temporary disk not measured")
	}
	log.WithField("changed", strings.Join(changedKeys(old, next), ",")).
		WithField("files", "/"+strings.Join(nc.cfg.Files, ",/")).Info("reconfigured")
	// As slurmd: register again, with the hardware the node line now
	// describes; the controller checks it there.
	select {
	case a.reregister <- struct{}{}:
	default:
	}
	return nil
}

// followLevel applies SlurmdDebug, unless the command line fixed the
// level. SlurmdLogFile is not followed: slurmd too keeps its log file
// until it restarts.
func (a *Agent) followLevel(cfg *slurmconf.Config) {
	if !a.opts.LevelFromConf {
		return
	}
	if lvl, ok := logging.SlurmLevel(cfg.SlurmdDebug); ok {
		a.log.Logger.SetLevel(lvl)
	}
}

// followHealthCheck replaces the health checker when HealthCheckProgram,
// HealthCheckInterval or HealthCheckNodeState changed. A run under way
// finishes; the next follows the new schedule.
func (a *Agent) followHealthCheck(s slurmconf.Scripts) {
	old := a.health.Load()
	if old.same(s) {
		return
	}
	h := newHealthChecker(s, a.nc.node.Name, a.log)
	h.inherit(old)
	a.health.Store(h)
	old.stop()
	if h != nil && a.ctx != nil {
		go h.loop(a.ctx)
	}
}

// followNodeLine applies the node line's hardware to what the daemon
// reports and hands out: the layout and features always (the daemon
// takes them from slurm.conf), CPUs and memory when emulating. The GPUs
// found at start stay (see restartKeys).
func (a *Agent) followNodeLine(old, n slurmconf.Node) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.hw.boards, a.hw.sockets, a.hw.cores, a.hw.threads = n.Boards, n.Sockets, n.CoresPerSocket, n.ThreadsPerCore
	a.hw.features = n.Features
	if a.opts.Emulate {
		a.hw.cpus, a.hw.memoryMB = n.CPUs, n.RealMemory
	}
	if old.CPUs != n.CPUs || !slices.Equal(old.SpecCPUs, n.SpecCPUs) {
		a.cpus.reshape(n.CPUs, n.SpecCPUs)
	}
}
