package agent

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/client"
	"github.com/loamhpc/loam/pkg/isolation"
	"github.com/loamhpc/loam/pkg/isolation/cgroup"
	"github.com/loamhpc/loam/pkg/logging"
)

// Agent is one node daemon.
type Agent struct {
	opts Options
	// nc is the configuration the daemon started with: its identity,
	// addresses and spool, which only a restart changes. What a
	// reconfigure may change is read through conf() (reload.go).
	nc         *nodeConfig
	confPath   string
	log        *logrus.Entry
	logFile    *logging.File // nil: standard error
	hw         hardware
	spool      *spool.Spool
	iso        isolation.Isolator
	verifier   *auth.Verifier
	minter     *auth.Minter
	ctld       *client.Client
	cgroupRoot string
	self       string
	addr       string
	started0   time.Time
	ctx        context.Context

	// stopReq is closed by scontrol shutdown (admin.go).
	stopReq  chan struct{}
	stopOnce sync.Once

	mu   sync.Mutex
	jobs map[uint32]*jobEntry
	out  *outbox
	cpus *cpuSet

	// live is the configuration in force, replaced whole by a reconfigure
	// (reload.go); health runs its HealthCheckProgram (healthcheck.go),
	// nil when unset.
	live   atomic.Pointer[settings]
	health atomic.Pointer[healthChecker]
	// reload serializes rereads and holds the controller's configuration
	// generation last applied; reregister wakes talk for a registration.
	reload     reloadState
	reregister chan struct{}
}

// New prepares a node daemon: it reads the configuration and the cluster
// key, opens the spool and finds the node's hardware. It starts nothing.
func New(o Options, log *logrus.Entry) (*Agent, error) {
	nc, err := resolve(o)
	if err != nil {
		return nil, err
	}
	logFile, err := nc.setUpLog(o, log) // config.go
	if err != nil {
		return nil, err
	}
	key, err := auth.LoadKey(auth.KeyPath(nc.keyFile))
	if err != nil {
		return nil, err
	}
	sp, err := spool.Open(nc.spool)
	if err != nil {
		return nil, err
	}
	if o.PidsMax == 0 {
		o.PidsMax = DefaultPidsMax
	}
	a := &Agent{opts: o, nc: nc, confPath: nc.confPathAbs(o.ConfPath), log: log.WithField("node", nc.node.Name), logFile: logFile,
		spool: sp, verifier: auth.NewVerifier(key), minter: auth.NewMinter(key, nc.node.Name),
		cgroupRoot: o.CgroupRoot, started0: time.Now(), jobs: map[uint32]*jobEntry{}, out: newOutbox(),
		stopReq: make(chan struct{}), reregister: make(chan struct{}, 1)}
	if a.cgroupRoot == "" {
		a.cgroupRoot = "loam/" + nc.node.Name
	}
	a.live.Store(&settings{cfg: nc.cfg, node: nc.node})
	a.health.Store(newHealthChecker(nc.cfg.Scripts, nc.node.Name, a.log)) // healthcheck.go
	if a.self, err = os.Executable(); err != nil {
		return nil, err
	}
	a.ctld, err = client.New(client.Options{CtldAddr: nc.ctldAddr, Signer: auth.NewSigner(key, nc.node.Name), Timeout: time.Minute})
	if err != nil {
		return nil, err
	}
	a.hw = detect(nc, o)
	a.cpus = newCPUSet(nc.node.CPUs, a.hw.hostCPUs)
	a.cpus.reserve(nc.node.SpecCPUs) // CoreSpecCount/CPUSpecList
	if a.iso, err = cgroup.New(); err != nil {
		a.hw.problems = append(a.hw.problems, "cgroups unavailable: "+err.Error())
	}
	if os.Geteuid() != 0 {
		a.hw.problems = append(a.hw.problems, "loam-noded is not running as root: jobs cannot run as their users")
	}
	return a, nil
}

// SetIsolator replaces the cgroup isolator (tests, hosts without cgroups).
func (a *Agent) SetIsolator(iso isolation.Isolator) { a.iso = iso }

// Run serves until ctx ends. Running jobs are left to their supervisors.
func (a *Agent) Run(ctx context.Context) error {
	a.ctx = ctx
	go logging.ReopenOnUSR2(ctx, a.logFile, a.log)
	a.reloadOnHUP(ctx) // reload.go
	a.logHardware()
	if err := a.recover(ctx); err != nil {
		return fmt.Errorf("recover spool %s: %w", a.spool.Root, err)
	}
	tcp, err := net.Listen("tcp", a.nc.listen)
	if err != nil {
		return err
	}
	a.addr = a.nc.addr(tcp.Addr())
	uln, err := listenUnix(a.nc.socket)
	if err != nil {
		tcp.Close()
		return err
	}
	tsrv := &http.Server{Handler: a.tcpHandler(), ReadHeaderTimeout: 30 * time.Second}
	usrv := &http.Server{Handler: a.unixHandler(a.minter), ConnContext: auth.ConnContext, ReadHeaderTimeout: 30 * time.Second}
	errc := make(chan error, 2)
	go func() { errc <- tsrv.Serve(tcp) }()
	go func() { errc <- usrv.Serve(uln) }()
	a.log.WithField("addr", a.addr).WithField("socket", a.nc.socket).WithField("spool", a.spool.Root).Info("loam-noded ready")

	if a.opts.Ready != nil {
		a.opts.Ready()
	}
	if h := a.health.Load(); h != nil {
		// As slurmd: once before registering, then every interval.
		h.run(ctx)
		go h.loop(ctx)
	}
	// Ends that happened while no daemon ran are sent before registering.
	a.flushNow(ctx, 5*time.Second)
	go a.sendEvents(ctx)
	go a.talk(ctx)

	select {
	case <-ctx.Done():
	case <-a.stopReq:
		a.log.Info("stopping: shutdown ordered by the controller")
	case err = <-errc:
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = tsrv.Shutdown(sctx)
	_ = usrv.Shutdown(sctx)
	_ = os.Remove(a.nc.socket)
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// Addr is where the controller reaches this daemon, once Run listens.
func (a *Agent) Addr() string { return a.addr }

func (a *Agent) logHardware() {
	l := a.log.WithField("cpus", a.hw.cpus).WithField("memory_mb", a.hw.memoryMB).
		WithField("gpus", len(a.hw.gpus)).WithField("gpu_source", a.hw.gpuSource)
	for _, n := range a.hw.notes {
		l = l.WithField("gpu_fallback", n)
	}
	l.Info("hardware")
	if h := a.hw.health(); !h.OK {
		a.log.WithField("reason", h.Message).Error("node unhealthy")
	}
}
