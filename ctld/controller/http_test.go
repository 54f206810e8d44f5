package controller

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
)

// TestBadInput: malformed or unexpected requests get a clear error naming
// what is wrong, and the controller keeps serving.
func TestBadInput(t *testing.T) {
	h := newHarness(t)
	tests := map[string]struct {
		method, path string
		body         []byte
		wantCode     api.Code
		wantDetail   string
	}{
		"malformed JSON":           {"POST", api.PathSubmit, []byte(`{"job":`), api.CodeBadRequest, "malformed JSON"},
		"syntax error":             {"POST", api.PathSubmit, []byte(`{"job":{]}`), api.CodeBadRequest, "malformed JSON at byte"},
		"unknown field":            {"POST", api.PathSubmit, []byte(`{"job":{},"priority":5}`), api.CodeBadRequest, `unknown field "priority"`},
		"unknown nested field":     {"POST", api.PathSubmit, []byte(`{"job":{"scrpt":"x"}}`), api.CodeBadRequest, `unknown field "scrpt"`},
		"wrong type":               {"POST", api.PathSubmit, []byte(`{"job":{"tasks":"many"}}`), api.CodeBadRequest, `field "job.tasks"`},
		"trailing data":            {"POST", api.PathSubmit, []byte(`{"job":{}} {}`), api.CodeBadRequest, "trailing data"},
		"oversized body":           {"POST", api.PathSubmit, bytes.Repeat([]byte(" "), api.MaxRequestBytes+1), api.CodeTooLarge, "exceeds the limit"},
		"unknown path":             {"POST", "/v1/nope", nil, api.CodeNotFound, "/v1/nope"},
		"wrong method":             {"GET", api.PathSubmit, nil, api.CodeNotFound, "GET"},
		"bad job id":               {"POST", api.PathJobs, []byte(`{"job_ids":["12x"]}`), api.CodeInvalidJobID, "Invalid job id 12x"},
		"bad state":                {"POST", api.PathJobs, []byte(`{"states":["WAITING"]}`), api.CodeBadRequest, "invalid job state"},
		"bad table field":          {"POST", api.PathJobTable, []byte(`{"fields":["job_id","bogus"]}`), api.CodeBadRequest, "bogus"},
		"node protocol from users": {"POST", api.PathNodeRegister, []byte(`{"node":"n01"}`), api.CodeAccessDenied, "node daemons"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			err := h.raw(54321, tc.method, tc.path, tc.body, nil)
			if err == nil || err.Code != tc.wantCode || !strings.Contains(err.Detail, tc.wantDetail) {
				t.Errorf("error %+v, want code %s with detail containing %q", err, tc.wantCode, tc.wantDetail)
			}
		})
	}
	if _, err := h.submit(54321, simpleJob()); err != nil {
		t.Errorf("the controller stopped serving: %v", err)
	}
}

// TestCredentials: requests over TCP need a valid, fresh, unused
// credential bound to the request.
func TestCredentials(t *testing.T) {
	h := newHarness(t)
	body, _ := json.Marshal(api.JobQuery{})
	mint := func(k auth.Key, b auth.Binding) string {
		tok, _, err := auth.NewMinter(k, "login").Mint(auth.Peer{UID: 54321, GID: 54321}, b)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	other, _ := auth.NewKey(bytes.Repeat([]byte("o"), 32))
	good := mint(h.key, auth.BindingFor("POST", api.PathJobs, body))
	tests := map[string]struct {
		token    string
		wantCode api.Code
	}{
		"no credential":            {"", api.CodeProtocolAuth},
		"garbage":                  {"abc.def", api.CodeAuthCredInvalid},
		"another cluster's key":    {mint(other, auth.BindingFor("POST", api.PathJobs, body)), api.CodeAuthCredInvalid},
		"bound to another path":    {mint(h.key, auth.BindingFor("POST", api.PathCancel, body)), api.CodeAuthCredInvalid},
		"bound to another body":    {mint(h.key, auth.BindingFor("POST", api.PathJobs, []byte("{}x"))), api.CodeAuthCredInvalid},
		"good the first time":      {good, ""},
		"replayed the second time": {good, api.CodeAuthReplayed},
	}
	for _, name := range []string{"no credential", "garbage", "another cluster's key", "bound to another path",
		"bound to another body", "good the first time", "replayed the second time"} {
		tc := tests[name]
		t.Run(name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", h.srv.URL+api.PathJobs, bytes.NewReader(body))
			if tc.token != "" {
				auth.SetCredential(req, tc.token)
			}
			err := h.send(req, nil)
			switch {
			case tc.wantCode == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.wantCode != "" && (err == nil || err.Code != tc.wantCode):
				t.Errorf("error %v, want %s", err, tc.wantCode)
			}
		})
	}
}

// TestDaemonSignatures: node protocol requests must carry a valid HMAC; a
// replayed or tampered one is refused.
func TestDaemonSignatures(t *testing.T) {
	h := newHarness(t)
	body := []byte(`{"node":"n01","running":[],"health":{"ok":true},"now":0}`)
	sign := func(k auth.Key) *http.Request {
		req, _ := http.NewRequest("POST", h.srv.URL+api.PathNodeHeartbeat, bytes.NewReader(body))
		if err := auth.NewSigner(k, "n01").Sign(req, body); err != nil {
			t.Fatal(err)
		}
		return req
	}
	req := sign(h.key)
	if err := h.send(req, nil); err != nil {
		t.Fatalf("signed heartbeat refused: %v", err)
	}
	replay, _ := http.NewRequest("POST", h.srv.URL+api.PathNodeHeartbeat, bytes.NewReader(body))
	replay.Header = req.Header.Clone()
	if err := h.send(replay, nil); err == nil || err.Code != api.CodeAuthReplayed {
		t.Errorf("replayed heartbeat: %v", err)
	}
	tampered, _ := http.NewRequest("POST", h.srv.URL+api.PathNodeHeartbeat, bytes.NewReader(bytes.Replace(body, []byte("n01"), []byte("n02"), 1)))
	tampered.Header = sign(h.key).Header.Clone()
	if err := h.send(tampered, nil); err == nil || err.Code != api.CodeAuthCredInvalid {
		t.Errorf("tampered heartbeat: %v", err)
	}
	other, _ := auth.NewKey(bytes.Repeat([]byte("o"), 32))
	if err := h.send(sign(other), nil); err == nil || err.Code != api.CodeAuthCredInvalid {
		t.Errorf("foreign key: %v", err)
	}
}

// TestPanicIsRecovered: a handler panic answers an internal error, logs
// the stack and leaves the controller serving.
func TestPanicIsRecovered(t *testing.T) {
	h := newHarness(t)
	h.c.jobs[999] = &jobRecord{ID: 999} // a corrupt record: no request
	h.c.order = append(h.c.order, 999)
	err := h.call(0, api.PathJobs, api.JobQuery{JobIDs: []string{"999"}}, nil)
	if err == nil || err.Code != api.CodeInternal {
		t.Fatalf("error %v, want an internal error", err)
	}
	delete(h.c.jobs, 999)
	h.c.order = h.c.order[:len(h.c.order)-1]
	if _, err := h.submit(54321, simpleJob()); err != nil {
		t.Fatalf("not serving after a panic: %v", err)
	}
	var out api.PingResponse
	if err := h.raw(0, "GET", api.PathPing, nil, &out); err != nil || out.Daemon != "loam-ctld" {
		t.Errorf("ping %+v %v", out, err)
	}
	_ = fmt.Sprint
}
