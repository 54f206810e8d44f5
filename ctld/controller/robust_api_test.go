package controller

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/batchscript"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/absurd"
)

// requestTypes are the bodies the controller's routes decode.
var requestTypes = []any{
	api.AcctQuery{}, api.AllocateRequest{}, api.AllocationReleaseRequest{}, api.AllocationWaitRequest{},
	api.CancelRequest{}, api.HeartbeatRequest{}, api.HoldRequest{}, api.JobEventsRequest{}, api.JobLogQuery{},
	api.JobQuery{}, api.JobScriptRequest{}, api.NodeQuery{}, api.NodeUpdateRequest{}, api.NoticeWaitRequest{},
	api.NotifyRequest{}, api.PrioQuery{}, api.RegisterRequest{}, api.ReleaseRequest{}, api.ReportQuery{},
	api.RequeueRequest{}, api.ResvQuery{}, api.SbcastRequest{}, api.SetDebugRequest{}, api.SharesQuery{},
	api.StatsRequest{}, api.StepCompleteRequest{}, api.StepCreateRequest{}, api.StepQuery{},
	api.StepStatRequest{}, api.SubmitRequest{}, api.SuspendRequest{}, api.TopRequest{}, api.UpdateRequest{},
	api.WebTokenRequest{},
}

// TestRobustAPIAbsurdRequests drives every route of the real handlers with
// malformed bodies and with every request type filled with absurd values,
// as root, as a user and (for node daemon routes) signed as a node. Each
// answer is a JSON error or a result, never an internal error, no request
// panics (a recovered panic is logged as one), and the controller keeps
// its jobs and keeps serving.
func TestRobustAPIAbsurdRequests(t *testing.T) {
	if testing.Short() {
		t.Skip("sends thousands of requests")
	}
	h := newHarness(t)
	hook := logtest.NewLocal(h.c.log.Logger)
	ids := []uint32{h.mustSubmit(54321, simpleJob()), h.mustSubmit(54321, simpleJob())}
	routes := h.c.routes()
	paths := make([]string, 0, len(routes))
	for p := range routes {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	bodies := map[reflect.Type]map[absurd.Kind][]byte{}
	for _, typ := range requestTypes {
		bodies[reflect.TypeOf(typ)] = map[absurd.Kind][]byte{}
		for _, kind := range absurd.Kinds {
			bodies[reflect.TypeOf(typ)][kind] = absurd.Body(typ, kind)
		}
	}
	signer := auth.NewSigner(h.key, "n01")
	// send posts body as root and, when both, also as a user.
	send := func(path string, rt route, body []byte, both bool) []*api.Error {
		var errs []*api.Error
		if rt.daemon {
			req, _ := http.NewRequest(rt.method, h.srv.URL+path, bytes.NewReader(body))
			if err := signer.Sign(req, body); err != nil {
				t.Fatal(err)
			}
			return append(errs, h.send(req, nil))
		}
		errs = append(errs, h.raw(0, rt.method, path, body, nil))
		if both {
			errs = append(errs, h.raw(54321, rt.method, path, body, nil))
		}
		return errs
	}
	check := func(what string, errs []*api.Error) {
		for _, e := range errs {
			switch {
			case e == nil:
			case e.Code == api.CodeInternal:
				t.Errorf("%s: %s %s", what, e.Code, e.Detail)
			case e.Code.HTTPStatus() >= 500:
				t.Logf("%s: %s %s", what, e.Code, abbrevDetail(e.Detail))
			}
		}
	}
	for _, path := range paths {
		rt := routes[path]
		if path == api.PathShutdown || path == api.PathNodeRegister || path == api.PathNodeHeartbeat {
			continue // they stop the controller or take a node over: below
		}
		for name, body := range absurd.Generic {
			check(path+" "+name, send(path, rt, body, false))
		}
		for _, typ := range requestTypes {
			tt := reflect.TypeOf(typ)
			for _, kind := range absurd.Kinds {
				errs := send(path, rt, bodies[tt][kind], kind != absurd.Zero)
				check(path+" "+tt.Name()+" "+kind.String(), errs)
				if kind == absurd.Zero && decodeRefused(errs) {
					break // the route does not take this type
				}
			}
		}
	}
	// A node's registration and heartbeats last: absurd ones may change
	// what the controller thinks runs on n01.
	for _, path := range []string{api.PathNodeHeartbeat, api.PathNodeRegister} {
		for name, body := range absurd.Generic {
			check(path+" "+name, send(path, routes[path], body, false))
		}
		for _, typ := range []any{api.RegisterRequest{}, api.HeartbeatRequest{}} {
			for _, kind := range absurd.Kinds {
				check(path+" "+reflect.TypeOf(typ).Name()+" "+kind.String(), send(path, routes[path], absurd.Body(typ, kind), false))
			}
		}
	}
	// Whatever was accepted must also pass through scheduling and
	// housekeeping.
	h.cycle()
	h.tick(10 * time.Minute)
	h.cycle()
	for _, e := range hook.AllEntries() {
		if strings.Contains(e.Message, "panicked") {
			t.Errorf("a request panicked: %v %v", e.Data["path"], e.Data["panic"])
		}
	}
	var all api.JobsResponse
	if err := h.call(0, api.PathJobs, api.JobQuery{}, &all); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d jobs after the requests", len(all.Jobs))
	for _, id := range ids {
		if j := h.job(strconv.FormatUint(uint64(id), 10)); j.JobID != id {
			t.Errorf("job %d lost: %+v", id, j)
		}
	}
	if _, err := h.submit(54321, simpleJob()); err != nil {
		t.Errorf("the controller stopped serving: %v", err)
	}
}

// decodeRefused reports whether every answer is the strict decoder's
// refusal of the body's shape.
func decodeRefused(errs []*api.Error) bool {
	for _, e := range errs {
		if e == nil || e.Code != api.CodeBadRequest || !strings.Contains(e.Detail, "field") && !strings.Contains(e.Detail, "cannot unmarshal") {
			return false
		}
	}
	return true
}

func abbrevDetail(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// TestRobustAPIBodyLimits: a body over the limit is refused with 413
// whether or not it says its length, without the server reading it all.
func TestRobustAPIBodyLimits(t *testing.T) {
	h := newHarness(t)
	tests := map[string]struct {
		stream  int64  // bytes of zeros sent, when body is nil
		length  int64  // Content-Length: -1 unknown, 0 the body's
		body    []byte // a submission
		wantErr string
	}{
		"100 MB with its length":    {stream: 100 << 20, length: 100 << 20, wantErr: "exceeds the limit"},
		"100 MB without a length":   {stream: 100 << 20, length: -1, wantErr: "exceeds the limit"},
		"one byte over the limit":   {stream: api.MaxRequestBytes + 1, length: -1, wantErr: "exceeds the limit"},
		"a script over 4 MiB":       {body: submitBody(batchscript.MaxScriptBytes + 1), wantErr: "Pathname of a file, directory or other parameter too long"},
		"a script of exactly 4 MiB": {body: submitBody(batchscript.MaxScriptBytes)},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var r io.Reader = io.LimitReader(zeros{}, tc.stream)
			if tc.body != nil {
				r = bytes.NewReader(tc.body)
			}
			req, _ := http.NewRequest("POST", h.srv.URL+api.PathSubmit, r)
			req.ContentLength = tc.length
			if tc.body != nil {
				req.ContentLength = int64(len(tc.body))
			}
			tok, _, _ := auth.NewMinter(h.key, "login").Mint(auth.Peer{UID: 54321, GID: 54321}, auth.BindingFor("POST", api.PathSubmit, tc.body))
			auth.SetCredential(req, tok)
			err := h.send(req, nil)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("refused: %+v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("error %+v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// submitBody is a submission whose script is n bytes long.
func submitBody(n int) []byte {
	r := simpleJob()
	r.Script = "#!/bin/sh\n" + strings.Repeat("#", n-len("#!/bin/sh\n"))
	data, _ := json.Marshal(api.SubmitRequest{Job: r})
	return data
}

// TestRobustRecoveredPanicIsLogged: a handler that panics answers an
// internal error and the panic is logged with its stack, never hidden.
func TestRobustRecoveredPanicIsLogged(t *testing.T) {
	h := newHarness(t)
	hook := logtest.NewLocal(h.c.log.Logger)
	w := httptest.NewRecorder()
	r := httptest.NewRequest("POST", "/v1/boom", nil)
	func() {
		defer h.c.recoverPanic(w, r)
		panic("a handler's bug")
	}()
	if w.Code != http.StatusInternalServerError || !strings.Contains(w.Body.String(), string(api.CodeInternal)) {
		t.Errorf("answer %d %s, want 500 with %s", w.Code, w.Body, api.CodeInternal)
	}
	e := hook.LastEntry()
	if e == nil || e.Message != "request panicked" || !strings.Contains(e.Data["stack"].(string), "robust_api_test.go") ||
		e.Data["path"] != "/v1/boom" {
		t.Errorf("panic not logged as a bug: %+v", e)
	}
}

// TestRobustAPISubmitOneAbsurdField submits a valid job with one field at
// a time set to an absurd value, so each value reaches admission,
// scheduling and the launch: every answer is a job id or a clear error,
// nothing panics, and each accepted job is scheduled and cancelled.
func TestRobustAPISubmitOneAbsurdField(t *testing.T) {
	if testing.Short() {
		t.Skip("submits hundreds of jobs")
	}
	h := newHarness(t)
	hook := logtest.NewLocal(h.c.log.Logger)
	h.node("n01")
	h.node("n02")
	accepted, refused := 0, map[string]int{}
	absurd.Fields(simpleJob(), func(field string, kind absurd.Kind, jobJSON []byte) {
		body := []byte(`{"job":` + string(jobJSON) + `}`)
		var out api.SubmitResponse
		if err := h.raw(54321, "POST", api.PathSubmit, body, &out); err != nil {
			refused[string(err.Code)]++
			if err.Code == api.CodeInternal {
				t.Errorf("%s %s: %s", field, kind, err.Detail)
			}
			return
		}
		accepted++
		h.cycle()
		id := strconv.FormatUint(uint64(out.JobID), 10)
		if err := h.call(0, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{id}}}, nil); err != nil {
			t.Errorf("%s %s: cancel job %s: %v", field, kind, id, err)
		}
		h.cycle()
		h.tick(301 * time.Second) // past MinJobAge: MaxJobCount is 50
	})
	h.tick(10 * time.Minute)
	for _, e := range hook.AllEntries() {
		if strings.Contains(e.Message, "panicked") {
			t.Errorf("a request panicked: %v %v", e.Data["path"], e.Data["panic"])
		}
	}
	if accepted == 0 {
		t.Error("no submission was accepted: the test reaches nothing past decoding")
	}
	t.Logf("%d submissions accepted, refused: %v", accepted, refused)
}

// TestRobustAPIOneAbsurdField sends operator requests valid but for one
// field (nested fields included) set to an absurd value, against a
// pending and a running job: every answer is a result or a clear error,
// nothing panics, and the jobs then schedule, end and are purged.
func TestRobustAPIOneAbsurdField(t *testing.T) {
	if testing.Short() {
		t.Skip("sends hundreds of requests")
	}
	h := newHarness(t)
	hook := logtest.NewLocal(h.c.log.Logger)
	h.node("n01")
	h.node("n02")
	running := strconv.FormatUint(uint64(h.mustSubmit(54321, simpleJob())), 10)
	h.cycle()
	pending := strconv.FormatUint(uint64(h.mustSubmit(54321, simpleJob(func(r *job.Request) { r.Hold = true }))), 10)
	tests := map[string]struct {
		path string
		base any
	}{
		"update a pending job":  {api.PathUpdate, api.UpdateRequest{JobIDs: []string{pending}}},
		"update a running job":  {api.PathUpdate, api.UpdateRequest{JobIDs: []string{running}}},
		"signal a running job":  {api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{running}}, Signal: 10}},
		"update a node":         {api.PathNodeUpdate, api.NodeUpdateRequest{Nodes: "n02", State: "RESUME"}},
		"query jobs":            {api.PathJobs, api.JobQuery{JobIDs: []string{running}}},
		"notify a running job":  {api.PathNotify, api.NotifyRequest{JobID: 1, Message: "hi"}},
		"suspend a running job": {api.PathSuspend, api.SuspendRequest{JobIDs: []string{running}}},
	}
	for name, tc := range tests {
		absurd.Fields(tc.base, func(field string, kind absurd.Kind, body []byte) {
			if err := h.raw(0, "POST", tc.path, body, nil); err != nil && err.Code == api.CodeInternal {
				t.Errorf("%s: %s %s: %s", name, field, kind, err.Detail)
			}
		})
		h.cycle()
	}
	h.tick(time.Hour)
	h.cycle()
	for _, e := range hook.AllEntries() {
		if strings.Contains(e.Message, "panicked") {
			t.Errorf("a request panicked: %v %v", e.Data["path"], e.Data["panic"])
		}
	}
	if _, err := h.submit(54321, simpleJob()); err != nil && err.Code == api.CodeInternal {
		t.Errorf("the controller stopped serving: %v", err)
	}
}
