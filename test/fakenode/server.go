package fakenode

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// handler serves the controller's signed orders as loam-noded does.
func (n *Node) handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == api.PathNodedPing { // unsigned, as loam-noded's
			if n.opts.PingGate != nil {
				select {
				case <-n.opts.PingGate:
				case <-n.stop:
				}
			}
			reply(w, 200, api.PingResponse{Daemon: "loam-noded", Host: n.Name})
			return
		}
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
			n.noteChange()
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
			n.noteChange()
			n.mu.Unlock()
			reply(w, 200, api.NodedResponse{})
		case api.PathNodedReconfigure:
			var req api.NodedReconfigureRequest
			json.Unmarshal(body, &req)
			n.mu.Lock()
			n.reconfs = append(n.reconfs, req)
			n.noteChange()
			n.mu.Unlock()
			reply(w, 200, api.NodedResponse{})
			go n.Register() // as loam-noded does once it reread its files
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

func (n *Node) launch(req *api.LaunchRequest) *api.Error {
	if n.Refuse != nil {
		if aerr := n.Refuse(req); aerr != nil {
			return aerr
		}
	}
	n.mu.Lock()
	n.launches = append(n.launches, *req)
	n.running[req.JobID] = req
	n.noteChange()
	n.mu.Unlock()
	if n.opts.OnLaunch != nil {
		n.opts.OnLaunch(req)
	}
	if !req.Batch {
		return nil
	}
	go n.send(api.JobEvent{JobID: req.JobID, Run: &req.Restarts, Kind: api.EventStarted, Time: time.Now().Unix()})
	if n.opts.RunFor != nil {
		if d := n.opts.RunFor(req); d > 0 {
			time.AfterFunc(d, func() { n.endOwn(req) })
		}
	}
	return nil
}

// endOwn ends a job that ran its RunFor, unless it ended otherwise
// (terminated, or requeued and launched again: another run).
func (n *Node) endOwn(req *api.LaunchRequest) {
	n.mu.Lock()
	l, ok := n.running[req.JobID]
	n.mu.Unlock()
	if ok && l == req {
		_ = n.End(req.JobID, job.ExitCode{})
	}
}

func (n *Node) terminate(req api.TerminateRequest) bool {
	n.mu.Lock()
	n.terms = append(n.terms, req)
	l, ok := n.running[req.JobID]
	auto, ignore := n.AutoEnd, n.IgnoreTerminate
	n.noteChange()
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
