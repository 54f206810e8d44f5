package controller

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/client"
	"github.com/loamhpc/loam/pkg/slurmconf"
	"github.com/loamhpc/loam/pkg/store"
)

type netConn = net.Conn

// Version is loam-ctld's version, reported by ping.
var Version = "0.1.0"

// Options configure a Controller.
type Options struct {
	// ConfPath is slurm.conf, reread by reconfigure.
	ConfPath string
	// Config is ConfPath already loaded and validated.
	Config *slurmconf.Config
	Log    *logrus.Entry
	// LevelFromConf: the log level follows SlurmctldDebug, at start and
	// at each reconfigure (false when --log-level fixed it).
	LevelFromConf bool
	// Engine builds the scheduling engine for a configuration.
	Engine EngineFactory
	// Key is the cluster key.
	Key auth.Key
	// Sync is the store's durability level (store.SyncFull by default).
	Sync store.Sync
	// ListenAddr overrides ":SlurmctldPort"; Socket overrides
	// LoamCtldSocket ("-" disables the socket).
	ListenAddr string
	Socket     string
	// Now is the clock (the wall clock when nil).
	Now func() time.Time
	// Notify, when set, is told "READY=1", "STOPPING=1" and "WATCHDOG=1"
	// (sd_notify).
	Notify func(state string)
	// Watchdog is the systemd watchdog interval (0: none).
	Watchdog time.Duration
	// Live configures the audit retention and notifications
	// (report_live.go).
	Live LiveOptions
}

// Controller is loam-ctld.
type Controller struct {
	opts      Options
	log       *logrus.Entry
	store     *store.Store
	verifier  *auth.Verifier
	creds     *auth.CredentialVerifier
	users     *userCache
	noded     *client.Noded
	newEngine EngineFactory
	now       func() time.Time
	started   time.Time
	draining  atomic.Bool
	host      string
	// notices are scontrol notify's messages for srun and salloc
	// (notify_board.go); they have their own lock.
	notices noticeBoard
	// admin keeps setdebugflags' flags and scontrol shutdown's signal
	// (admin_ops.go).
	admin adminState

	// mu guards everything below and the engine.
	mu     sync.RWMutex
	conf   atomic.Pointer[confState] // replaced whole by reconfigure
	eng    Engine
	jobs   map[uint32]*jobRecord
	order  []uint32 // live job ids, ascending (ids only grow)
	nodes  map[string]*nodeRec
	deps   depIndex
	arrays map[uint32][]uint32 // array job id -> live records of the array
	// runningByName counts running jobs per user and name (singleton).
	runningByName map[string]int
	// byName lists the live records of each user and name, ascending
	// (singleton: who can hold a job back, without a scan of every job).
	byName map[string][]uint32
	// tasks counts live job records as MaxJobCount does: an array's
	// pending record counts each of its tasks.
	tasks int
	// runningSet, deadlines and endedIDs let housekeeping skip the pending
	// queue: running jobs, jobs with a --deadline, finished jobs in the
	// order they ended.
	runningSet map[uint32]*jobRecord
	deadlines  map[uint32]bool
	endedIDs   []uint32
	resvIDs    []uint32          // jobs holding a scheduler reservation
	adv        advResvs          // administrators' reservations (advresv.go); own lock
	trig       triggers          // event triggers (trigger.go); own lock
	evSeq      map[string]uint64 // last applied event per node daemon
	cycleNo    uint64
	cycleAt    int64 // unix time of the latest scheduling cycle (a pending job's LastSchedEval)

	resvScripts resvScriptsRan // ResvProlog/ResvEpilog started (advresv_scripts.go); under mu

	// steps holds the srun steps of the live jobs (step.go).
	steps map[uint32]*jobSteps

	kick     chan struct{} // coalesced "something changed: schedule"
	inflight sync.WaitGroup
	// allocNames caches the hosts submissions came from (alloc_node.go).
	allocNames allocNameCache
	// agentSlots bounds the calls to node daemons in flight at once: an
	// order for many running jobs (scancel -s of thousands) queues its
	// calls instead of opening a connection for each at the same time.
	agentSlots chan struct{}
	fatal      chan error
	// reconfigs counts reconfigures since start, for the node daemons'
	// configuration generation (reconfigure_nodes.go).
	reconfigs atomic.Uint64
	lastCyc   atomic.Int64 // duration of the last cycle, ns
	ready     chan struct{}
	tcpAddr   string

	obs *observer // metrics, history, estimates, dashboard (observe.go)

	live *liveState // audit, notifications, preemption notices (report_live.go)
}

// New builds a controller; Run starts it.
func New(opts Options) (*Controller, error) {
	if opts.Config == nil || opts.Engine == nil || opts.Log == nil || !opts.Key.Valid() {
		return nil, errors.New("new controller: config, engine, log and key are required")
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	host, _ := os.Hostname()
	c := &Controller{
		opts: opts, log: opts.Log, newEngine: opts.Engine, now: now, host: host,
		verifier: auth.NewVerifier(opts.Key), creds: auth.NewCredentialVerifier(opts.Key),
		users: newUserCache(), noded: client.NewNoded(auth.NewSigner(opts.Key, "loam-ctld"), 30*time.Second),
		jobs: make(map[uint32]*jobRecord), nodes: make(map[string]*nodeRec), evSeq: make(map[string]uint64),
		deps: newDepIndex(), arrays: make(map[uint32][]uint32), runningByName: make(map[string]int), byName: make(map[string][]uint32), agentSlots: make(chan struct{}, maxAgentCalls),
		runningSet: make(map[uint32]*jobRecord), deadlines: make(map[uint32]bool), steps: make(map[uint32]*jobSteps), kick: make(chan struct{}, 1), fatal: make(chan error, 1), ready: make(chan struct{}),
	}
	// Credentials and signatures are checked against the wall clock, not
	// opts.Now: their freshness is about real time, whatever clock the
	// scheduling runs on.
	cs, err := newConfState(opts.Config, now())
	if err != nil {
		return nil, err
	}
	c.conf.Store(cs)
	c.logInvalidScripts(cs)        // ctldscripts.go
	c.followFileLevel(opts.Config) // admin_ops.go
	eng, err := opts.Engine(opts.Config)
	if err != nil {
		return nil, fmt.Errorf("scheduling engine: %w", err)
	}
	c.eng = eng
	c.initNodes()
	c.obs = newObserver(c)
	c.live = newLive(c)
	return c, nil
}

// Run opens the store, restores the state, serves the API and schedules
// until ctx is cancelled, then shuts down cleanly: it stops accepting,
// finishes the requests in flight and their commits, and closes the store.
func (c *Controller) Run(ctx context.Context) error {
	c.started = c.now()
	st, err := store.Open(c.confNow().conf.StateSaveLocation, store.Options{Sync: c.opts.Sync})
	if err != nil {
		return err
	}
	c.store = st
	if err := c.restore(); err != nil {
		st.Close()
		return err
	}
	c.obs.open()
	servers, err := c.listen()
	if err != nil {
		c.obs.close()
		st.Close()
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c.obs.start(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); c.loop(ctx) }()
	wg.Add(1)
	go func() { defer wg.Done(); c.recallNodes(ctx) }() // nodes_recall.go
	c.log.WithField("cluster", c.confNow().conf.ClusterName).Info("loam-ctld ready")
	close(c.ready)
	c.notify("READY=1")
	var runErr error
	select {
	case <-ctx.Done():
	case <-c.admin.stopped(): // scontrol shutdown
	case runErr = <-c.fatal:
		c.log.WithError(runErr).Error("stopping after a fatal error")
	}
	c.notify("STOPPING=1")
	c.shutdown(servers)
	cancel()
	wg.Wait()
	c.inflight.Wait()
	c.obs.stop()
	c.live.notifier.Close()
	return errors.Join(runErr, c.store.Close())
}

// fail stops the controller: memory may no longer match the store.
func (c *Controller) fail(err error) {
	select {
	case c.fatal <- err:
	default:
	}
}

func (c *Controller) notify(state string) {
	if c.opts.Notify != nil {
		c.opts.Notify(state)
	}
}

type server struct {
	srv  *http.Server
	ln   net.Listener
	path string // unix socket to remove
}

// listen opens the TCP port and the Unix socket and starts serving.
func (c *Controller) listen() ([]server, error) {
	conf := c.confNow().conf
	addr := c.opts.ListenAddr
	if addr == "" {
		addr = ":" + strconv.Itoa(conf.SlurmctldPort)
	}
	errLog := log.New(c.log.WriterLevel(logrus.WarnLevel), "", 0)
	var out []server
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	tcp := newServer(c.Handler(), nil)
	tcp.ErrorLog = errLog
	out = append(out, server{srv: tcp, ln: ln})
	c.tcpAddr = ln.Addr().String()
	if sock := c.socketPath(); sock != "" {
		uln, err := listenUnix(sock)
		if err != nil {
			ln.Close()
			return nil, err
		}
		us := newServer(c.Handler(), auth.ConnContext)
		us.ErrorLog = errLog
		out = append(out, server{srv: us, ln: uln, path: sock})
	}
	for _, s := range out {
		go func(s server) {
			if err := s.srv.Serve(s.ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				c.fail(fmt.Errorf("serve %s: %w", s.ln.Addr(), err))
			}
		}(s)
	}
	c.log.WithField("addr", ln.Addr().String()).WithField("socket", c.socketPath()).Info("listening")
	return out, nil
}

func (c *Controller) socketPath() string {
	switch c.opts.Socket {
	case "-":
		return ""
	case "":
		return c.confNow().conf.LoamCtldSocket
	}
	return c.opts.Socket
}

// listenUnix opens the socket world-writable: every user talks to the
// controller, which identifies them by SO_PEERCRED. A stale socket of a
// dead controller is replaced.
func listenUnix(path string) (net.Listener, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("socket directory: %w", err)
	}
	if conn, err := net.Dial("unix", path); err == nil {
		conn.Close()
		return nil, fmt.Errorf("listen on %s: another loam-ctld is serving it", path)
	}
	os.Remove(path)
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o666); err != nil {
		ln.Close()
		return nil, fmt.Errorf("socket %s: %w", path, err)
	}
	return ln, nil
}

// shutdown stops accepting and waits for the requests in flight.
func (c *Controller) shutdown(servers []server) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, s := range servers {
		if err := s.srv.Shutdown(ctx); err != nil {
			c.log.WithError(err).Warn("shutdown: requests still running")
		}
		if s.path != "" {
			os.Remove(s.path)
		}
	}
	c.draining.Store(true)
}

// Ready is closed once the controller serves requests.
func (c *Controller) Ready() <-chan struct{} { return c.ready }

// Addr returns the bound TCP address once Ready is closed.
func (c *Controller) Addr() string { return c.tcpAddr }
