package agent

import (
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
	for path, route := range a.orders() {
		mux.HandleFunc("POST "+path, func(w http.ResponseWriter, r *http.Request) { a.serveSigned(w, r, route) })
	}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, api.Errorf(api.CodeNotFound, "%s %s", r.Method, r.URL.Path))
	})
	return a.recovering(mux) // recover.go
}

// order is one of the controller's signed requests: decode reads and
// checks its body, knowing nothing of the daemon (so that it can be fuzzed
// alone), and run carries it out.
type order struct {
	decode func(body []byte) (any, *api.Error)
	run    func(ctx context.Context, req any) (any, *api.Error)
}

// newOrder is the order whose body is a T, refused unless check passes
// (nil: no check beyond the decoding).
func newOrder[T any](check func(*T) *api.Error, run func(context.Context, *T) (any, *api.Error)) order {
	return order{
		decode: func(body []byte) (any, *api.Error) {
			req := new(T)
			if aerr := api.DecodeStrict(body, req); aerr != nil {
				return nil, aerr
			}
			if check != nil {
				if aerr := check(req); aerr != nil {
					return nil, aerr
				}
			}
			return req, nil
		},
		run: func(ctx context.Context, req any) (any, *api.Error) { return run(ctx, req.(*T)) },
	}
}

// needJob refuses an order without a job: no job has id 0, and a body
// that lacks job_id decodes as 0.
func needJob(what string, id uint32) *api.Error {
	if id == 0 {
		return api.Errorf(api.CodeBadRequest, "%s: job_id is 0", what)
	}
	return nil
}

// orders are the controller's signed requests by path.
func (a *Agent) orders() map[string]order {
	return map[string]order{
		api.PathLaunch: newOrder(func(r *api.LaunchRequest) *api.Error { return needJob("launch", r.JobID) },
			func(ctx context.Context, r *api.LaunchRequest) (any, *api.Error) { return a.launch(ctx, r) }),
		api.PathSignal: newOrder(func(r *api.SignalRequest) *api.Error {
			if r.Signal < 0 { // one above 64 is ignored, as Slurm's daemons do
				return api.Errorf(api.CodeBadRequest, "signal %d out of range", r.Signal)
			}
			return needJob("signal", r.JobID)
		}, func(ctx context.Context, r *api.SignalRequest) (any, *api.Error) { return a.signal(ctx, r) }),
		api.PathNotifyJob: newOrder(func(r *api.NotifyRequest) *api.Error { return needJob("notify", r.JobID) },
			func(ctx context.Context, r *api.NotifyRequest) (any, *api.Error) { return a.notify(ctx, r) }), // notify.go
		api.PathTerminate: newOrder(func(r *api.TerminateRequest) *api.Error { return needJob("terminate", r.JobID) },
			func(ctx context.Context, r *api.TerminateRequest) (any, *api.Error) { return a.terminate(ctx, r) }),
		api.PathTimeLimit: newOrder(func(r *api.TimeLimitRequest) *api.Error { return needJob("time limit", r.JobID) },
			func(ctx context.Context, r *api.TimeLimitRequest) (any, *api.Error) { return a.timeLimit(ctx, r) }),
		api.PathNodedSuspend: newOrder(func(r *api.NodeSuspendRequest) *api.Error { return needJob("suspend", r.JobID) },
			func(ctx context.Context, r *api.NodeSuspendRequest) (any, *api.Error) { return a.suspend(ctx, r) }), // suspend.go
		api.PathStepLaunch: newOrder(func(r *api.StepLaunchRequest) *api.Error { return needJob("step launch", r.JobID) },
			func(ctx context.Context, r *api.StepLaunchRequest) (any, *api.Error) { return a.launchStep(ctx, r) }), // step.go
		api.PathNodedStepUsage: newOrder(func(r *api.NodedUsageRequest) *api.Error { return needJob("step usage", r.JobID) },
			func(ctx context.Context, r *api.NodedUsageRequest) (any, *api.Error) { return a.stepUsage(ctx, r) }), // usage.go
		api.PathNodedShutdown: newOrder(nil, func(context.Context, *struct{}) (any, *api.Error) {
			a.stopNow() // admin.go: scontrol shutdown
			return &api.NodedResponse{}, nil
		}),
		api.PathNodedReconfigure: newOrder(nil, func(_ context.Context, r *api.NodedReconfigureRequest) (any, *api.Error) {
			return a.reconfigure(r) // reload.go
		}),
	}
}

// serveSigned verifies the request's signature, then decodes and runs o.
func (a *Agent) serveSigned(w http.ResponseWriter, r *http.Request, o order) {
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
	req, aerr := o.decode(body)
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	out, aerr := o.run(r.Context(), req)
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
