package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
)

// ControllerSender is the sender name loam-ctld signs its requests with;
// the daemon takes orders from no one else.
const ControllerSender = "loam-ctld"

// tcpHandler serves the controller: every path but ping must be signed by
// the controller with the cluster key.
func (a *Agent) tcpHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+api.PathNodedPing, a.servePing)
	// sbcast's chunks come from the user's command, with a grant the
	// controller signed (sbcast.go).
	mux.HandleFunc("POST "+api.PathNodedSbcast, newSbcastServer(a).serve)
	signed := func(path string, h func(context.Context, []byte) (any, *api.Error)) {
		mux.HandleFunc("POST "+path, func(w http.ResponseWriter, r *http.Request) { a.serveSigned(w, r, h) })
	}
	signed(api.PathLaunch, func(ctx context.Context, body []byte) (any, *api.Error) {
		var req api.LaunchRequest
		if err := decode(body, &req); err != nil {
			return nil, err
		}
		return a.launch(ctx, &req)
	})
	signed(api.PathSignal, func(ctx context.Context, body []byte) (any, *api.Error) {
		var req api.SignalRequest
		if err := decode(body, &req); err != nil {
			return nil, err
		}
		if req.Signal < 0 { // one above 64 is ignored, as Slurm's daemons do
			return nil, api.Errorf(api.CodeBadRequest, "signal %d out of range", req.Signal)
		}
		return a.signal(ctx, &req)
	})
	signed(api.PathNotifyJob, func(ctx context.Context, body []byte) (any, *api.Error) {
		var req api.NotifyRequest
		if err := decode(body, &req); err != nil {
			return nil, err
		}
		return a.notify(ctx, &req) // notify.go
	})
	signed(api.PathTerminate, func(ctx context.Context, body []byte) (any, *api.Error) {
		var req api.TerminateRequest
		if err := decode(body, &req); err != nil {
			return nil, err
		}
		return a.terminate(ctx, &req)
	})
	signed(api.PathTimeLimit, func(ctx context.Context, body []byte) (any, *api.Error) {
		var req api.TimeLimitRequest
		if err := decode(body, &req); err != nil {
			return nil, err
		}
		return a.timeLimit(ctx, &req)
	})
	signed(api.PathNodedSuspend, func(ctx context.Context, body []byte) (any, *api.Error) {
		var req api.NodeSuspendRequest
		if err := decode(body, &req); err != nil {
			return nil, err
		}
		return a.suspend(ctx, &req) // suspend.go
	})
	signed(api.PathStepLaunch, func(ctx context.Context, body []byte) (any, *api.Error) {
		var req api.StepLaunchRequest
		if err := decode(body, &req); err != nil {
			return nil, err
		}
		return a.launchStep(ctx, &req) // step.go
	})
	signed(api.PathNodedStepUsage, func(ctx context.Context, body []byte) (any, *api.Error) {
		var req api.NodedUsageRequest
		if err := decode(body, &req); err != nil {
			return nil, err
		}
		return a.stepUsage(ctx, &req) // usage.go
	})
	signed(api.PathNodedShutdown, func(context.Context, []byte) (any, *api.Error) {
		a.stopNow() // admin.go: scontrol shutdown
		return &api.NodedResponse{}, nil
	})
	signed(api.PathNodedReconfigure, func(_ context.Context, body []byte) (any, *api.Error) {
		var req api.NodedReconfigureRequest
		if err := decode(body, &req); err != nil {
			return nil, err
		}
		return a.reconfigure(&req) // reload.go
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, api.Errorf(api.CodeNotFound, "%s %s", r.Method, r.URL.Path))
	})
	return a.recovering(mux) // recover.go
}

// serveSigned verifies the request's signature, then runs h.
func (a *Agent) serveSigned(w http.ResponseWriter, r *http.Request, h func(context.Context, []byte) (any, *api.Error)) {
	body, err := io.ReadAll(io.LimitReader(r.Body, api.MaxRequestBytes+1))
	if err != nil {
		writeError(w, api.Errorf(api.CodeBadRequest, "read body: %v", err))
		return
	}
	if len(body) > api.MaxRequestBytes {
		writeError(w, api.Errorf(api.CodeTooLarge, "body over %d bytes", api.MaxRequestBytes))
		return
	}
	sender, err := a.verifier.Verify(r, body)
	if err == nil && sender != ControllerSender {
		err = fmt.Errorf("sender %q is not the controller", sender)
	}
	if err != nil {
		a.log.WithError(err).WithField("path", r.URL.Path).Warn("refused request")
		writeError(w, api.Errorf(api.CodeProtocolAuth, "%v", err))
		return
	}
	out, aerr := h(r.Context(), body)
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	writeJSON(w, out)
}

func (a *Agent) servePing(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, api.PingResponse{Daemon: "loam-noded", Host: a.nc.node.Name, Version: Version,
		Now: time.Now().Unix(), StartTime: a.started0.Unix()})
}

// Version is loam-noded's version, reported by ping and registration.
var Version = "0.1.0"

// decode reads a strict JSON body: unknown fields are an error naming
// them, as pkg/api's contract says.
func decode(body []byte, v any) *api.Error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return api.Errorf(api.CodeBadRequest, "%v", err)
	}
	return nil
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", api.ContentType)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, e *api.Error) {
	w.Header().Set("Content-Type", api.ContentType)
	w.WriteHeader(e.Code.HTTPStatus())
	_ = json.NewEncoder(w).Encode(api.ErrorResponse{Error: *e})
}

// unixHandler serves local users: credentials minted from SO_PEERCRED,
// and ping.
func (a *Agent) unixHandler(minter *auth.Minter) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("POST "+api.PathCredential, minter.Handler())
	mux.HandleFunc("GET "+api.PathNodedPing, a.servePing)
	mux.HandleFunc("POST "+api.PathNodedPids, a.servePids) // pids.go: scontrol listpids
	return a.recovering(mux)
}

// listenUnix listens on the node's socket, refusing to take over one a
// live daemon still serves. The socket is world-writable: every local
// user may ask for a credential, which is bound to their own uid.
func listenUnix(path string) (net.Listener, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
		c.Close()
		return nil, fmt.Errorf("%s is served by a running daemon", path)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return nil, err
	}
	if err := os.Chmod(path, 0o666); err != nil {
		ln.Close()
		return nil, err
	}
	return ln, nil
}
