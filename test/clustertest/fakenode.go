package clustertest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/client"
	"github.com/loamhpc/loam/pkg/job"
)

// FakeNode is a node daemon that speaks the protocol without running
// anything: it records launches, signals and terminations, answers them
// like loam-noded, and reports job ends when the test says so (or at once
// for terminations, AutoEnd).
type FakeNode struct {
	Name string
	// Refuse, when set, decides per launch whether to refuse it.
	Refuse func(*api.LaunchRequest) *api.Error
	// AutoEnd reports a job ended as soon as the controller terminates
	// it (default true).
	AutoEnd bool
	// IgnoreTerminate records terminations and keeps the job running, as
	// a node daemon does that never received the order.
	IgnoreTerminate bool

	t        testing.TB
	ctl      *client.Client
	verifier *auth.Verifier
	srv      *http.Server
	addr     string
	mu       sync.Mutex
	sendMu   sync.Mutex // held from numbering an event to its delivery
	seq      uint64
	running  map[uint32]*api.LaunchRequest
	launches []api.LaunchRequest
	signals  []api.SignalRequest
	terms    []api.TerminateRequest
	limits   []api.TimeLimitRequest
	reconfs  []api.NodedReconfigureRequest
	stop     chan struct{}
	stopped  bool
}

// StartNode starts fake node i of the cluster and registers it with d.
func (c *Cluster) StartNode(t testing.TB, d *Ctld, i int) *FakeNode {
	t.Helper()
	name := NodeName(i)
	return NewFakeNode(t, c.Key, d.Addr(), name, fmt.Sprintf("127.0.0.1:%d", c.NodePorts[name]))
}

// NewFakeNode starts a fake node daemon called name listening on addr and
// registers it with the controller at ctldAddr.
func NewFakeNode(t testing.TB, key auth.Key, ctldAddr, name, addr string) *FakeNode {
	t.Helper()
	ctl, err := client.New(client.Options{CtldAddr: ctldAddr, Signer: auth.NewSigner(key, name), Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	n := &FakeNode{Name: name, AutoEnd: true, t: t, ctl: ctl, verifier: auth.NewVerifier(key),
		running: map[uint32]*api.LaunchRequest{}, stop: make(chan struct{}), addr: addr}
	ln, err := net.Listen("tcp", n.addr)
	if err != nil {
		t.Fatal(err)
	}
	n.srv = &http.Server{Handler: n.handler()}
	go n.srv.Serve(ln)
	t.Cleanup(n.Stop)
	n.Register()
	go n.heartbeats()
	return n
}

// Register (re)sends the node's registration with the jobs it runs.
func (n *FakeNode) Register() *api.RegisterResponse {
	n.t.Helper()
	resp, err := n.register()
	if err != nil {
		n.t.Fatalf("register %s: %v", n.Name, err)
	}
	return resp
}

func (n *FakeNode) register() (*api.RegisterResponse, error) {
	n.mu.Lock()
	req := &api.RegisterRequest{Node: n.Name, Hostname: "localhost", Addr: n.addr, CPUs: 1 << 10, RealMemory: 1 << 30,
		Health: api.Health{OK: true}, StartTime: time.Now().Unix(), Version: "fake"}
	for i := 0; i < 64; i++ {
		req.GPUs = append(req.GPUs, api.GPU{Index: i, Model: "fake", Device: fmt.Sprintf("/dev/null%d", i)})
	}
	for id, l := range n.running {
		req.Running = append(req.Running, api.RunningJob{JobID: id, StartTime: l.StartTime})
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
	n.mu.Unlock()
	return resp, nil
}

func (n *FakeNode) heartbeats() {
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-n.stop:
			return
		case <-tick.C:
			n.mu.Lock()
			req := &api.HeartbeatRequest{Node: n.Name, Health: api.Health{OK: true}, Now: time.Now().Unix()}
			for id := range n.running {
				req.Running = append(req.Running, id)
			}
			n.mu.Unlock()
			resp, err := n.ctl.Heartbeat(context.Background(), req)
			if err == nil && resp.Reregister {
				n.register()
			}
		}
	}
}

// Stop makes the node go silent: no heartbeats, no answers.
func (n *FakeNode) Stop() {
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

func (n *FakeNode) handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if _, err := n.verifier.Verify(r, body); err != nil {
			reply(w, 401, api.ErrorResponse{Error: *api.Errorf(api.CodeProtocolAuth, "%v", err)})
			return
		}
		switch r.URL.Path {
		case api.PathLaunch:
			var req api.LaunchRequest
			json.Unmarshal(body, &req)
			if aerr := n.launch(&req); aerr != nil {
				reply(w, aerr.Code.HTTPStatus(), api.ErrorResponse{Error: *aerr})
				return
			}
			reply(w, 200, api.LaunchResponse{Pid: os.Getpid()})
		case api.PathSignal:
			var req api.SignalRequest
			json.Unmarshal(body, &req)
			n.mu.Lock()
			n.signals = append(n.signals, req)
			_, ok := n.running[req.JobID]
			n.mu.Unlock()
			reply(w, 200, api.NodedResponse{Unknown: !ok})
		case api.PathTerminate:
			var req api.TerminateRequest
			json.Unmarshal(body, &req)
			reply(w, 200, api.NodedResponse{Unknown: !n.terminate(req)})
		case api.PathTimeLimit:
			var req api.TimeLimitRequest
			json.Unmarshal(body, &req)
			n.mu.Lock()
			n.limits = append(n.limits, req)
			n.mu.Unlock()
			reply(w, 200, api.NodedResponse{})
		case api.PathNodedReconfigure:
			var req api.NodedReconfigureRequest
			json.Unmarshal(body, &req)
			n.mu.Lock()
			n.reconfs = append(n.reconfs, req)
			n.mu.Unlock()
			reply(w, 200, api.NodedResponse{})
		default:
			reply(w, 404, api.ErrorResponse{Error: *api.NewError(api.CodeNotFound)})
		}
	})
}

func reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", api.ContentType)
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (n *FakeNode) launch(req *api.LaunchRequest) *api.Error {
	if n.Refuse != nil {
		if aerr := n.Refuse(req); aerr != nil {
			return aerr
		}
	}
	n.mu.Lock()
	n.launches = append(n.launches, *req)
	n.running[req.JobID] = req
	n.mu.Unlock()
	if req.Batch {
		go n.send(api.JobEvent{JobID: req.JobID, Run: &req.Restarts, Kind: api.EventStarted, Time: time.Now().Unix()})
	}
	return nil
}

func (n *FakeNode) terminate(req api.TerminateRequest) bool {
	n.mu.Lock()
	n.terms = append(n.terms, req)
	l, ok := n.running[req.JobID]
	auto, ignore := n.AutoEnd, n.IgnoreTerminate
	n.mu.Unlock()
	if ignore {
		return ok
	}
	if ok && auto && l.Batch {
		sig := req.Signal
		if sig == 0 {
			sig = 15
		}
		go n.End(req.JobID, job.ExitCode{Signal: sig}, func(e *api.JobEvent) { e.Terminated = req.Reason })
	} else if ok {
		n.mu.Lock()
		delete(n.running, req.JobID)
		n.mu.Unlock()
	}
	return ok
}

// End reports that job id's batch script ended with exit; opts adjust the
// event (OOM, TimedOut...).
func (n *FakeNode) End(id uint32, exit job.ExitCode, opts ...func(*api.JobEvent)) error {
	n.mu.Lock()
	run := n.runOf(id)
	delete(n.running, id)
	n.mu.Unlock()
	ev := api.JobEvent{JobID: id, Run: run, Kind: api.EventEnded, Time: time.Now().Unix(), ExitCode: exit}
	for _, o := range opts {
		o(&ev)
	}
	return n.send(ev)
}

// LaunchFailed reports that job id could not be started.
func (n *FakeNode) LaunchFailed(id uint32, msg string) error {
	n.mu.Lock()
	run := n.runOf(id)
	delete(n.running, id)
	n.mu.Unlock()
	return n.send(api.JobEvent{JobID: id, Run: run, Kind: api.EventLaunchFailed, Time: time.Now().Unix(), Message: msg, ExitCode: job.ExitCode{Status: 0, Signal: 53}})
}

// runOf is the run of job id this node was given (nil when it runs no
// such job: the event then carries none). The caller holds n.mu.
func (n *FakeNode) runOf(id uint32) *int {
	if l := n.running[id]; l != nil {
		run := l.Restarts
		return &run
	}
	return nil
}

// send delivers ev with the next sequence number. Numbering and delivery
// happen under one lock, as in the real node daemon, so events never reach
// the controller out of order (it drops a lower number as a replay).
func (n *FakeNode) send(ev api.JobEvent) error {
	n.sendMu.Lock()
	defer n.sendMu.Unlock()
	n.mu.Lock()
	n.seq++
	ev.Seq = n.seq
	n.mu.Unlock()
	_, err := n.ctl.JobEvents(context.Background(), &api.JobEventsRequest{Node: n.Name, Events: []api.JobEvent{ev}})
	return err
}

// Launch returns the launch of job id this node received, waiting up to
// timeout.
func (n *FakeNode) Launch(t testing.TB, id uint32, timeout time.Duration) api.LaunchRequest {
	t.Helper()
	var got api.LaunchRequest
	Eventually(t, timeout, fmt.Sprintf("launch of job %d on %s", id, n.Name), func() error {
		n.mu.Lock()
		defer n.mu.Unlock()
		for _, l := range n.launches {
			if l.JobID == id {
				got = l
				return nil
			}
		}
		return fmt.Errorf("%d launches, none of job %d", len(n.launches), id)
	})
	return got
}

// Running returns the ids of the jobs the node runs.
func (n *FakeNode) Running() []uint32 {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []uint32
	for id := range n.running {
		out = append(out, id)
	}
	return out
}

// Terminations returns the terminate requests received.
func (n *FakeNode) Terminations() []api.TerminateRequest {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]api.TerminateRequest(nil), n.terms...)
}

// Signals returns the signal requests received.
func (n *FakeNode) Signals() []api.SignalRequest {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]api.SignalRequest(nil), n.signals...)
}

// TimeLimits returns the time-limit updates received.
func (n *FakeNode) TimeLimits() []api.TimeLimitRequest {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]api.TimeLimitRequest(nil), n.limits...)
}

// Reconfigures returns the reconfigure orders received.
func (n *FakeNode) Reconfigures() []api.NodedReconfigureRequest {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]api.NodedReconfigureRequest(nil), n.reconfs...)
}
