// Package fakenode is a node daemon that speaks loam-noded's protocol to a
// real loam-ctld without running anything: a signed registration, heartbeats,
// the launch/signal/terminate/time-limit/reconfigure endpoints over HTTP,
// and numbered job events that it sends until the controller acknowledges
// them, as loam-noded's outbox does. Jobs end when the caller says so (End),
// when the controller terminates them (AutoEnd), or by themselves after
// Options.RunFor.
//
// test/clustertest wraps it for integration tests; bench/ctld starts
// thousands of them in one process to load a controller. It needs no
// testing.TB, so both can use it.
package fakenode

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/client"
)

// Options describe one fake node.
type Options struct {
	Name string
	Key  auth.Key
	// CtldAddr is the controller's TCP address.
	CtldAddr string
	// Addr is where the node listens ("127.0.0.1:0": a port of the
	// kernel's choice), unless Listener is given.
	Addr     string
	Listener net.Listener
	// CPUs, RealMemory (MB) and GPUs are what the node reports (defaults
	// 1024 CPUs, 1 TiB, 64 GPUs: more than any test configures).
	CPUs       int
	RealMemory int64
	GPUs       int
	// Heartbeat is the heartbeat interval; 0 takes the one the controller
	// gives at registration, as loam-noded does.
	Heartbeat time.Duration
	// RunFor, when set, ends each batch job with exit 0 after the time it
	// returns for the job's launch (0: the job runs until ended).
	RunFor func(*api.LaunchRequest) time.Duration
	// OnLaunch, when set, is called for each launch the node accepts.
	OnLaunch func(*api.LaunchRequest)
	// Timeout bounds each request to the controller (default 30 s).
	Timeout time.Duration
	// PingGate, when set, holds each answer to a ping until it is
	// closed.
	PingGate <-chan struct{}
}

// Node is a running fake node daemon.
type Node struct {
	Name string
	// Refuse, when set, decides per launch whether to refuse it.
	Refuse func(*api.LaunchRequest) *api.Error
	// AutoEnd reports a job ended as soon as the controller terminates
	// it (default true).
	AutoEnd bool
	// IgnoreTerminate records terminations and keeps the job running, as
	// a node daemon does that never received the order.
	IgnoreTerminate bool

	opts     Options
	ctl      *client.Client
	verifier *auth.Verifier
	srv      *http.Server
	addr     string
	mu       sync.Mutex
	out      outbox
	interval time.Duration // heartbeat interval in force
	running  map[uint32]*api.LaunchRequest
	// ending are the jobs that ended whose end event the controller has
	// not acknowledged: registration reports them with start time 0.
	ending   map[uint32]uint64
	launches []api.LaunchRequest
	signals  []api.SignalRequest
	terms    []api.TerminateRequest
	limits   []api.TimeLimitRequest
	reconfs  []api.NodedReconfigureRequest
	changed  chan struct{} // closed and replaced at every change
	stop     chan struct{}
	stopped  bool
}

// Start starts a node daemon, registers it and starts its heartbeats.
// When the registration fails the node is stopped and the error returned.
func Start(opts Options) (*Node, error) {
	n, err := listen(opts)
	if err != nil {
		return nil, err
	}
	if _, err := n.Register(); err != nil {
		n.Stop()
		return nil, fmt.Errorf("register %s: %w", n.Name, err)
	}
	go n.heartbeats()
	return n, nil
}

// listen starts the node's server.
func listen(opts Options) (*Node, error) {
	if opts.CPUs == 0 {
		opts.CPUs = 1 << 10
	}
	if opts.RealMemory == 0 {
		opts.RealMemory = 1 << 30
	}
	if opts.GPUs == 0 {
		opts.GPUs = 64
	}
	if opts.Timeout == 0 {
		opts.Timeout = 30 * time.Second
	}
	ctl, err := client.New(client.Options{CtldAddr: opts.CtldAddr, Signer: auth.NewSigner(opts.Key, opts.Name), Timeout: opts.Timeout})
	if err != nil {
		return nil, err
	}
	ln := opts.Listener
	if ln == nil {
		if ln, err = net.Listen("tcp", opts.Addr); err != nil {
			return nil, err
		}
	}
	n := &Node{Name: opts.Name, AutoEnd: true, opts: opts, ctl: ctl, verifier: auth.NewVerifier(opts.Key),
		addr: ln.Addr().String(), interval: opts.Heartbeat, running: map[uint32]*api.LaunchRequest{},
		ending: map[uint32]uint64{}, out: newOutbox(), changed: make(chan struct{}), stop: make(chan struct{})}
	if n.interval == 0 {
		n.interval = 30 * time.Second // until the controller says
	}
	n.srv = &http.Server{Handler: n.handler(), ReadHeaderTimeout: opts.Timeout}
	go n.srv.Serve(ln)
	return n, nil
}

// Addr is where the node listens.
func (n *Node) Addr() string { return n.addr }

// Register (re)sends the node's registration with the jobs it runs,
// after delivering its pending events as loam-noded does.
func (n *Node) Register() (*api.RegisterResponse, error) {
	_ = n.flush() // what cannot be sent now is reported as ended below
	n.mu.Lock()
	req := &api.RegisterRequest{Node: n.Name, Hostname: "localhost", Addr: n.addr, CPUs: n.opts.CPUs, RealMemory: n.opts.RealMemory,
		Health: api.Health{OK: true}, StartTime: time.Now().Unix(), Version: "fake", CPULoad: 0.5, FreeMemory: 1234}
	for i := 0; i < n.opts.GPUs; i++ {
		req.GPUs = append(req.GPUs, api.GPU{Index: i, Model: "fake", Device: fmt.Sprintf("/dev/null%d", i)})
	}
	for id, l := range n.running {
		req.Running = append(req.Running, api.RunningJob{JobID: id, StartTime: l.StartTime})
	}
	for id := range n.ending {
		req.Running = append(req.Running, api.RunningJob{JobID: id})
	}
	n.mu.Unlock()
	resp, err := n.ctl.Register(context.Background(), req)
	if err != nil {
		return nil, err
	}
	n.mu.Lock()
	for _, id := range resp.Kill {
		delete(n.running, id)
	}
	if n.opts.Heartbeat == 0 && resp.HeartbeatInterval > 0 {
		n.interval = time.Duration(resp.HeartbeatInterval) * time.Second
	}
	n.mu.Unlock()
	return resp, nil
}

// heartbeats sends a heartbeat every interval and whatever events wait,
// and registers again when the controller asks.
func (n *Node) heartbeats() {
	for {
		n.mu.Lock()
		every := n.interval
		n.mu.Unlock()
		select {
		case <-n.stop:
			return
		case <-time.After(every):
		}
		_ = n.flush() // events a failed delivery left behind
		n.mu.Lock()
		req := &api.HeartbeatRequest{Node: n.Name, Health: api.Health{OK: true}, Now: time.Now().Unix()}
		for id := range n.running {
			req.Running = append(req.Running, id)
		}
		n.mu.Unlock()
		resp, err := n.ctl.Heartbeat(context.Background(), req)
		if err == nil && resp.Reregister {
			_, _ = n.Register()
		}
	}
}

// Stop makes the node go silent: no heartbeats, no answers.
func (n *Node) Stop() {
	n.mu.Lock()
	if n.stopped {
		n.mu.Unlock()
		return
	}
	n.stopped = true
	close(n.stop)
	n.mu.Unlock()
	n.srv.Close()
}

// Changed returns a channel closed at the node's next change (a launch,
// signal, termination or end), for waits that must not poll blindly.
func (n *Node) Changed() <-chan struct{} {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.changed
}

// noteChange wakes the waiters of Changed. The caller holds n.mu.
func (n *Node) noteChange() {
	close(n.changed)
	n.changed = make(chan struct{})
}
