package nodedtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/client"
)

// Ctld is a fake controller.
type Ctld struct {
	Server *httptest.Server
	key    auth.Key
	ver    *auth.Verifier
	noded  *client.Noded

	mu         sync.Mutex
	registers  []api.RegisterRequest
	heartbeats int
	applied    map[string]uint64 // node -> highest applied event number
	events     []api.JobEvent    // applied, in order
	received   int               // events received, duplicates included
	changed    chan struct{}
	// Kill is answered to the next registration.
	Kill []uint32
	// Reregister is answered to heartbeats while set.
	Reregister bool
	// RefuseEvents makes event requests fail (an unreachable controller).
	RefuseEvents bool
}

// NewCtld starts a fake controller checking signatures with key.
func NewCtld(key auth.Key) *Ctld {
	c := &Ctld{key: key, ver: auth.NewVerifier(key), applied: map[string]uint64{}, changed: make(chan struct{}),
		noded: client.NewNoded(auth.NewSigner(key, "loam-ctld"), 30*time.Second)}
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+api.PathNodeRegister, c.handle(c.register))
	mux.HandleFunc("POST "+api.PathNodeHeartbeat, c.handle(c.heartbeat))
	mux.HandleFunc("POST "+api.PathNodeEvents, c.handle(c.jobEvents))
	c.Server = httptest.NewServer(mux)
	return c
}

// Close stops the server.
func (c *Ctld) Close() { c.Server.Close() }

// Addr is the controller's "host:port".
func (c *Ctld) Addr() string { return c.Server.Listener.Addr().String() }

func (c *Ctld) handle(h func(body []byte) (any, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if _, err := c.ver.Verify(r, body); err != nil {
			w.WriteHeader(http.StatusUnauthorized)
			_ = json.NewEncoder(w).Encode(api.ErrorResponse{Error: *api.Errorf(api.CodeProtocolAuth, "%v", err)})
			return
		}
		out, err := h(body)
		if err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			_ = json.NewEncoder(w).Encode(api.ErrorResponse{Error: *api.Errorf(api.CodeAgain, "%v", err)})
			return
		}
		_ = json.NewEncoder(w).Encode(out)
	}
}

func (c *Ctld) notify() {
	close(c.changed)
	c.changed = make(chan struct{})
}

func (c *Ctld) register(body []byte) (any, error) {
	var req api.RegisterRequest
	if err := strict(body, &req); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.registers = append(c.registers, req)
	kill := c.Kill
	c.Kill = nil
	c.notify()
	return api.RegisterResponse{ClusterName: "test", HeartbeatInterval: 1, Kill: kill, State: "IDLE", Now: time.Now().Unix()}, nil
}

func (c *Ctld) heartbeat(body []byte) (any, error) {
	var req api.HeartbeatRequest
	if err := strict(body, &req); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.heartbeats++
	c.notify()
	return api.HeartbeatResponse{Reregister: c.Reregister, Now: time.Now().Unix()}, nil
}

func (c *Ctld) jobEvents(body []byte) (any, error) {
	var req api.JobEventsRequest
	if err := strict(body, &req); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.RefuseEvents {
		return nil, fmt.Errorf("events refused")
	}
	acked := c.applied[req.Node]
	for _, ev := range req.Events {
		c.received++
		if ev.Seq <= acked {
			continue
		}
		c.events = append(c.events, ev)
		acked = ev.Seq
	}
	c.applied[req.Node] = acked
	c.notify()
	return api.JobEventsResponse{Acked: acked}, nil
}

func strict(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// Until waits, at most timeout, until cond holds over the recorded state
// (called with the lock held), and reports whether it did. It wakes on
// every change, so it never polls.
func (c *Ctld) Until(timeout time.Duration, cond func(*Ctld) bool) bool {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		c.mu.Lock()
		ok, ch := cond(c), c.changed
		c.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-ch:
		case <-deadline.C:
			return false
		}
	}
}

// Events returns the applied events.
func (c *Ctld) Events() []api.JobEvent {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]api.JobEvent(nil), c.events...)
}

// EventsOf returns the applied events of one job (locked by Until's
// caller or not: it takes no lock, use inside Until conditions).
func (c *Ctld) EventsOf(id uint32) []api.JobEvent {
	var out []api.JobEvent
	for _, ev := range c.events {
		if ev.JobID == id {
			out = append(out, ev)
		}
	}
	return out
}

// Ended returns job id's applied end (ended or launch_failed), if any;
// for use inside Until conditions.
func (c *Ctld) Ended(id uint32) (api.JobEvent, bool) {
	for _, ev := range c.EventsOf(id) {
		if ev.Kind == api.EventEnded || ev.Kind == api.EventLaunchFailed {
			return ev, true
		}
	}
	return api.JobEvent{}, false
}

// Started reports whether job id's start was applied; for Until.
func (c *Ctld) Started(id uint32) bool {
	for _, ev := range c.EventsOf(id) {
		if ev.Kind == api.EventStarted {
			return true
		}
	}
	return false
}

// Registers returns the registrations received.
func (c *Ctld) Registers() []api.RegisterRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]api.RegisterRequest(nil), c.registers...)
}

// NumRegisters and NumHeartbeats are for Until conditions.
func (c *Ctld) NumRegisters() int  { return len(c.registers) }
func (c *Ctld) NumHeartbeats() int { return c.heartbeats }

// Received counts the events received, duplicates included.
func (c *Ctld) Received() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.received
}

// SetRefuseEvents makes the events endpoint fail or work again.
func (c *Ctld) SetRefuseEvents(refuse bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.RefuseEvents = refuse
}

// Launch sends a signed launch to the node daemon at addr.
func (c *Ctld) Launch(ctx context.Context, addr string, req *api.LaunchRequest) (*api.LaunchResponse, error) {
	return c.noded.Launch(ctx, addr, req)
}

// Signal sends a signed signal order.
func (c *Ctld) Signal(ctx context.Context, addr string, req *api.SignalRequest) (*api.NodedResponse, error) {
	return c.noded.Signal(ctx, addr, req)
}

// Terminate sends a signed terminate order.
func (c *Ctld) Terminate(ctx context.Context, addr string, req *api.TerminateRequest) (*api.NodedResponse, error) {
	return c.noded.Terminate(ctx, addr, req)
}

// TimeLimit sends a signed time-limit change.
func (c *Ctld) TimeLimit(ctx context.Context, addr string, req *api.TimeLimitRequest) (*api.NodedResponse, error) {
	return c.noded.TimeLimit(ctx, addr, req)
}
