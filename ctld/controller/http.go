package controller

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
)

// handler is one API endpoint: it gets the caller's identity and the raw
// body and returns the answer (a value to encode as JSON, or []byte of
// ready JSON) or an error.
type handler func(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error)

// route is an endpoint with its method and who may call it.
type route struct {
	method string
	daemon bool // node daemons only (HMAC)
	h      handler
}

// routes maps paths to endpoints.
func (c *Controller) routes() map[string]route {
	m := map[string]route{
		api.PathPing:          {http.MethodGet, false, c.handlePing},
		api.PathSubmit:        {http.MethodPost, false, c.handleSubmit},
		api.PathJobs:          {http.MethodPost, false, c.handleJobs},
		api.PathJobTable:      {http.MethodPost, false, c.handleJobTable},
		api.PathCancel:        {http.MethodPost, false, c.handleCancel},
		api.PathHold:          {http.MethodPost, false, c.handleHold},
		api.PathRelease:       {http.MethodPost, false, c.handleRelease},
		api.PathUpdate:        {http.MethodPost, false, c.handleUpdate},
		api.PathRequeue:       {http.MethodPost, false, c.handleRequeue},
		api.PathSuspend:       {http.MethodPost, false, c.handleSuspend},
		api.PathTop:           {http.MethodPost, false, c.handleTop},
		api.PathNotify:        {http.MethodPost, false, c.handleNotify},
		api.PathNodes:         {http.MethodPost, false, c.handleNodes},
		api.PathNodeUpdate:    {http.MethodPost, false, c.handleNodeUpdate},
		api.PathPartitions:    {http.MethodGet, false, c.handlePartitions},
		api.PathConfig:        {http.MethodGet, false, c.handleConfig},
		api.PathReconfigure:   {http.MethodPost, false, c.handleReconfigure},
		api.PathAccounting:    {http.MethodPost, false, c.handleAccounting},
		api.PathSuggestions:   {http.MethodGet, false, c.handleSuggestions},
		api.PathWebToken:      {http.MethodPost, false, c.handleWebToken},
		api.PathStats:         {http.MethodPost, false, c.handleStats},
		api.PathNodeRegister:  {http.MethodPost, true, c.handleRegister},
		api.PathNodeHeartbeat: {http.MethodPost, true, c.handleHeartbeat},
		api.PathNodeEvents:    {http.MethodPost, true, c.handleEvents},

		// Partition administration (partition_admin.go).
		api.PathPartitionUpdate: {http.MethodPost, false, c.handlePartitionUpdate},
		api.PathPartitionDelete: {http.MethodPost, false, c.handlePartitionDelete},

		// Steps and interactive allocations (step.go, step_alloc.go).
		api.PathStepCreate:        {http.MethodPost, false, c.handleStepCreate},
		api.PathStepComplete:      {http.MethodPost, false, c.handleStepComplete},
		api.PathStepStat:          {http.MethodPost, false, c.handleStepStat}, // usage.go
		api.PathSteps:             {http.MethodPost, false, c.handleSteps},
		api.PathAllocate:          {http.MethodPost, false, c.handleAllocate},
		api.PathAllocationWait:    {http.MethodPost, false, c.handleAllocationWait},
		api.PathAllocationRelease: {http.MethodPost, false, c.handleAllocationRelease},
		api.PathNoticeWait:        {http.MethodPost, false, c.handleNoticeWait},

		// scontrol write batch_script, setdebug, shutdown (admin_ops.go).
		api.PathJobScript: {http.MethodPost, false, c.handleJobScript},
		api.PathSetDebug:  {http.MethodPost, false, c.handleSetDebug},
		api.PathShutdown:  {http.MethodPost, false, c.handleShutdown},

		// sbcast's grants (sbcast.go).
		api.PathSbcast: {http.MethodPost, false, c.handleSbcast},
	}
	for path, rt := range c.liveRoutes() {
		m[path] = rt
	}
	for path, rt := range c.advResvRoutes() {
		m[path] = rt
	}
	for path, rt := range c.triggerRoutes() { // trigger.go
		m[path] = rt
	}
	return m
}

// Handler returns the API as an http.Handler. Unix-socket servers must set
// ConnContext to auth.ConnContext so callers are identified by
// SO_PEERCRED.
func (c *Controller) Handler() http.Handler {
	routes := c.routes()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ar := &afterReply{}
		defer c.sendAfterReply(w, ar) // after recoverPanic's answer (after_reply.go)
		defer c.recoverPanic(w, r)
		if h := c.observeHandler(r.URL.Path); h != nil {
			h.ServeHTTP(w, r)
			return
		}
		rt, ok := routes[r.URL.Path]
		if !ok || r.Method != rt.method {
			writeError(w, api.Errorf(api.CodeNotFound, "%s %s", r.Method, r.URL.Path))
			return
		}
		if c.draining.Load() {
			writeError(w, api.NewError(api.CodeShuttingDown))
			return
		}
		c.obs.m.apiInFlight.Inc()
		defer c.obs.m.apiInFlight.Dec()
		body, aerr := readBody(w, r)
		if aerr != nil {
			writeError(w, aerr)
			return
		}
		id, aerr := c.authenticate(r, body)
		if aerr != nil {
			writeError(w, aerr)
			return
		}
		if rt.daemon && id.Via != auth.ViaDaemon {
			writeError(w, api.Errorf(api.CodeAccessDenied, "%s is for node daemons", r.URL.Path))
			return
		}
		defer c.served(r.URL.Path, id, time.Now())
		out, aerr := rt.h(context.WithValue(withPeerAddr(r), afterReplyKey{}, ar), id, body) // alloc_node.go
		if aerr != nil {
			writeError(w, aerr)
			return
		}
		writeJSON(w, out)
	})
}

// readBody reads the whole body within api.MaxRequestBytes.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, *api.Error) {
	if r.ContentLength > api.MaxRequestBytes {
		return nil, api.Errorf(api.CodeTooLarge, "body of %d bytes exceeds the limit of %d", r.ContentLength, api.MaxRequestBytes)
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, api.MaxRequestBytes))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return nil, api.Errorf(api.CodeTooLarge, "body exceeds the limit of %d bytes", api.MaxRequestBytes)
	case err != nil:
		return nil, api.Errorf(api.CodeBadRequest, "read body: %v", err)
	}
	return body, nil
}

// authenticate establishes who sent r: SO_PEERCRED on the Unix socket, a
// daemon's HMAC, or a user credential on TCP.
func (c *Controller) authenticate(r *http.Request, body []byte) (auth.Identity, *api.Error) {
	if auth.Signed(r) {
		sender, err := c.verifier.Verify(r, body)
		if err != nil {
			c.log.WithError(err).WithField("node", r.Header.Get(auth.HeaderSender)).Warn("refused signed request")
			return auth.Identity{}, authError(err)
		}
		return auth.Identity{Daemon: sender, Via: auth.ViaDaemon}, nil
	}
	if tok := r.Header.Get(auth.HeaderCredential); tok != "" {
		cred, err := c.creds.Verify(tok, auth.BindingFor(r.Method, r.URL.RequestURI(), body))
		if err != nil {
			c.log.WithError(err).Warn("refused credential")
			return auth.Identity{}, authError(err)
		}
		return cred.Identity(), nil
	}
	if p, ok := auth.PeerFrom(r.Context()); ok {
		return c.users.identity(p.UID, p.GID, c.now()), nil
	}
	return auth.Identity{}, api.Errorf(api.CodeProtocolAuth, "no credential: requests over TCP need one from the local loam-noded")
}

func authError(err error) *api.Error {
	switch {
	case errors.Is(err, auth.ErrExpired), errors.Is(err, auth.ErrStale):
		return api.Errorf(api.CodeAuthExpired, "%v", err)
	case errors.Is(err, auth.ErrReplayed):
		return api.Errorf(api.CodeAuthReplayed, "%v", err)
	case errors.Is(err, auth.ErrBadCredential), errors.Is(err, auth.ErrWrongRequest), errors.Is(err, auth.ErrBadSignature):
		return api.Errorf(api.CodeAuthCredInvalid, "%v", err)
	}
	return api.Errorf(api.CodeProtocolAuth, "%v", err)
}

// recoverPanic turns a handler panic into an internal error and logs it
// with its stack; the daemon keeps serving.
func (c *Controller) recoverPanic(w http.ResponseWriter, r *http.Request) {
	if v := recover(); v != nil {
		if v == http.ErrAbortHandler {
			panic(v)
		}
		c.log.WithField("path", r.URL.Path).WithField("panic", fmt.Sprint(v)).
			WithField("stack", string(debug.Stack())).Error("request panicked")
		writeError(w, api.Errorf(api.CodeInternal, "the request failed inside loam-ctld; see its log"))
	}
}

// decode reads body into v strictly (api.DecodeStrict, as loam-noded
// does): unknown fields, trailing data and type mismatches are errors
// naming what is wrong.
func decode(body []byte, v any) *api.Error { return api.DecodeStrict(body, v) }

// writeJSON answers v (or ready JSON bytes) with its Content-Length, so
// clients never see a chunked body.
func writeJSON(w http.ResponseWriter, v any) {
	data, ok := v.([]byte)
	if !ok {
		var err error
		if data, err = json.Marshal(v); err != nil {
			writeError(w, api.Errorf(api.CodeInternal, "encode answer: %v", err))
			return
		}
		data = append(data, '\n')
	}
	writeBody(w, http.StatusOK, data)
}

func writeError(w http.ResponseWriter, e *api.Error) {
	data, _ := json.Marshal(api.ErrorResponse{Error: *e})
	writeBody(w, e.Code.HTTPStatus(), append(data, '\n'))
}

func writeBody(w http.ResponseWriter, status int, data []byte) {
	w.Header().Set("Content-Type", api.ContentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(data)))
	w.WriteHeader(status)
	w.Write(data)
}

// serverTimeouts bound how long one connection may hold the server, so
// slow or stuck clients cannot pile up.
func newServer(h http.Handler, connContext func(context.Context, netConn) context.Context) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      120 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ConnContext:       connContext,
		ErrorLog:          nil,
	}
}
