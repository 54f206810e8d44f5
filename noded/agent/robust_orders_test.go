package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
)

// orderPaths are the daemon's signed routes, shutdown left out: a valid
// shutdown stops the daemon under test.
var orderPaths = []string{api.PathLaunch, api.PathSignal, api.PathNotifyJob, api.PathTerminate, api.PathTimeLimit,
	api.PathNodedSuspend, api.PathStepLaunch, api.PathNodedStepUsage, api.PathNodedReconfigure}

// jobOrderPaths are the routes whose request names a job.
var jobOrderPaths = orderPaths[:len(orderPaths)-1]

// answer is what the daemon answered one request.
type answer struct {
	status int
	err    api.Error
	body   string
}

// sender posts bodies to the daemon of h, signed as told.
type sender struct {
	t    *testing.T
	addr string
	sign func(*http.Request, []byte) error // nil: unsigned
}

func (s sender) post(path string, body []byte) answer {
	s.t.Helper()
	req, _ := http.NewRequest("POST", "http://"+s.addr+path, bytes.NewReader(body))
	if s.sign != nil {
		if err := s.sign(req, body); err != nil {
			s.t.Fatal(err)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatalf("POST %s: %v (the daemon dropped the connection)", path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	a := answer{status: resp.StatusCode, body: string(data)}
	if resp.StatusCode/100 != 2 {
		var er api.ErrorResponse
		if err := json.Unmarshal(data, &er); err != nil {
			s.t.Errorf("POST %s: status %d with a body that is not a JSON error: %q", path, resp.StatusCode, data)
		}
		a.err = er.Error
	}
	return a
}

// TestRobustNodedOrders sends each of the controller's orders the ways
// they go wrong: bodies that are not JSON, of the wrong types, with
// unknown or missing fields, too large, unsigned or signed wrongly; jobs
// 0, 2^32-1 and beyond, steps that do not exist, jobs that have ended,
// launches of a job already running, and the same launch many times at
// once. Each gets a status and a message naming what is wrong (or the
// answer an order for an unknown job gets); the daemon keeps serving and
// its running job keeps running.
func TestRobustNodedOrders(t *testing.T) {
	needRoot(t)
	h := startAgent(t, newCluster(t))
	hook := logtest.NewLocal(h.agent.log.Logger)
	running := h.job(7, "sleep 600")
	h.launch(running)
	h.startedJob(7)
	h.launch(h.job(8, "true"))
	h.ended(8)

	ctld := sender{t, h.node.Addr, auth.NewSigner(h.cl.Key, ControllerSender).Sign}
	otherKey, err := auth.NewKey(bytes.Repeat([]byte("k"), 32))
	if err != nil {
		t.Fatal(err)
	}
	senders := map[string]sender{
		"unsigned":                 {t, h.node.Addr, nil},
		"signed with another key":  {t, h.node.Addr, auth.NewSigner(otherKey, ControllerSender).Sign},
		"signed by another sender": {t, h.node.Addr, auth.NewSigner(h.cl.Key, "sbcast").Sign},
		"signed for another body": {t, h.node.Addr, func(r *http.Request, body []byte) error {
			return auth.NewSigner(h.cl.Key, ControllerSender).Sign(r, append(body, ' '))
		}},
	}

	type want struct {
		status int
		code   api.Code
		detail string // a part of the error's detail
	}
	bad := func(detail string) want { return want{400, api.CodeBadRequest, detail} }
	type tcase struct {
		name, path string
		via        sender
		body       string
		want       want
	}
	var tests []tcase
	for _, path := range orderPaths {
		for name, tc := range map[string]struct {
			body string
			want want
		}{
			"half a body":      {`{"job_id":`, bad("malformed JSON: unexpected end of input")},
			"not JSON":         {`job_id=7`, bad("malformed JSON at byte 1")},
			"an array":         {`[7]`, bad("expected")},
			"a string job_id":  {`{"job_id":"7"}`, bad(`field "job_id": expected uint32, got JSON string`)},
			"a negative id":    {`{"job_id":-7}`, bad(`field "job_id": expected uint32, got JSON number -7`)},
			"job 2^32":         {`{"job_id":4294967296}`, bad(`field "job_id": expected uint32`)},
			"an unknown field": {`{"job_id":7,"jobid":7}`, bad(`unknown field "jobid"`)},
			"trailing data":    {`{"job_id":7} {"job_id":8}`, bad("trailing data after the JSON value")},
			"a body too large": {`{"job_id":7,"x":"` + strings.Repeat("x", api.MaxRequestBytes) + `"}`, want{413, api.CodeTooLarge, "body over"}},
		} {
			if path == api.PathNodedReconfigure && strings.Contains(tc.body, "job_id") {
				tc.body = strings.ReplaceAll(tc.body, `"job_id":7`, `"generation":"7"`)
				tc.body = strings.ReplaceAll(tc.body, "job_id", "generation")
				tc.want.detail = strings.ReplaceAll(tc.want.detail, "job_id", "generation")
				tc.want.detail = strings.ReplaceAll(tc.want.detail, "uint32", "string")
				if name == "a string job_id" || name == "job 2^32" || name == "a negative id" {
					continue // a generation is a string
				}
			}
			tests = append(tests, tcase{name, path, ctld, tc.body, tc.want})
		}
		for name, via := range senders {
			tests = append(tests, tcase{name, path, via, `{"job_id":7}`, want{401, api.CodeProtocolAuth, ""}})
		}
	}
	for _, path := range jobOrderPaths {
		tests = append(tests, tcase{"an empty body", path, ctld, ``, bad("job_id is 0")},
			tcase{"no job_id", path, ctld, `{}`, bad("job_id is 0")})
	}
	unknown := want{200, "", `"unknown":true`}
	noTasks := want{200, "", `"tasks":[]`}
	for _, id := range []string{"4294967295", "8"} { // never launched; ended
		for _, path := range []string{api.PathSignal, api.PathNotifyJob, api.PathTerminate, api.PathTimeLimit, api.PathNodedSuspend} {
			tests = append(tests, tcase{"job " + id, path, ctld, `{"job_id":` + id + `}`, unknown})
		}
		tests = append(tests, tcase{"job " + id, api.PathNodedStepUsage, ctld, `{"job_id":` + id + `}`, noTasks},
			tcase{"a step of job " + id, api.PathSignal, ctld, `{"job_id":` + id + `,"step":0,"signal":9}`, unknown})
	}
	tests = append(tests,
		tcase{"a step that does not exist", api.PathSignal, ctld, `{"job_id":7,"step":99,"signal":9}`, unknown},
		tcase{"the usage of a step that does not exist", api.PathNodedStepUsage, ctld, `{"job_id":7,"step":99}`, noTasks},
		tcase{"a step of a job not here", api.PathStepLaunch, ctld, `{"job_id":4294967295,"step_id":0}`,
			want{422, api.CodeJobNotRunning, "job 4294967295 does not run on node1"}},
		tcase{"a batch launch without a script", api.PathLaunch, ctld, `{"job_id":30,"batch":true,"user_name":"root"}`,
			want{422, api.CodeScriptMissing, "has no script"}},
		tcase{"a batch launch without a user", api.PathLaunch, ctld, `{"job_id":30,"batch":true,"script":"#!/bin/sh\n"}`,
			want{422, api.CodeUserIDMissing, "has no user name"}},
		tcase{"a launch for another node", api.PathLaunch, ctld, `{"job_id":30,"alloc":{"node":"node9"}}`,
			want{422, api.CodeInvalidNodeName, "for node node9 reached node1"}},
		tcase{"a launch of a GPU the node lacks", api.PathLaunch, ctld, `{"job_id":30,"alloc":{"node":"node1","gpus":[99]}}`,
			want{422, api.CodeLaunchFailed, "job 30"}},
		tcase{"a negative signal", api.PathSignal, ctld, `{"job_id":7,"signal":-1}`, bad("signal -1 out of range")},
		tcase{"a shutdown with a body", api.PathNodedShutdown, ctld, `{"now":true}`, bad(`unknown field "now"`)},
		tcase{"a shutdown unsigned", api.PathNodedShutdown, senders["unsigned"], `{}`, want{401, api.CodeProtocolAuth, "not signed"}},
	)
	for _, tc := range tests {
		t.Run(tc.path+"/"+tc.name, func(t *testing.T) {
			tc.via.t = t
			got := tc.via.post(tc.path, []byte(tc.body))
			if got.status != tc.want.status || got.err.Code != tc.want.code {
				t.Fatalf("answer %d %s %q, want %d %s", got.status, got.err.Code, got.err.Detail, tc.want.status, tc.want.code)
			}
			if got.status != 200 && got.err.Detail == "" {
				t.Errorf("error %s without a detail", got.err.Code)
			}
			text := got.err.Detail
			if got.status == 200 {
				text = got.body
			}
			if !strings.Contains(text, tc.want.detail) {
				t.Errorf("answer %q does not say %q", text, tc.want.detail)
			}
		})
	}

	t.Run("the same launch again", func(t *testing.T) {
		first := ctld.post(api.PathLaunch, mustJSON(t, running))
		again := ctld.post(api.PathLaunch, mustJSON(t, running))
		if first.status != 200 || first.body != again.body {
			t.Errorf("launches of running job 7 answered %d %s and %d %s, want the same pid twice", first.status, first.body, again.status, again.body)
		}
	})
	t.Run("the same launch many times at once", func(t *testing.T) {
		body := mustJSON(t, h.job(9, "sleep 600"))
		answers := make([]answer, 8)
		var wg sync.WaitGroup
		for i := range answers {
			wg.Go(func() { answers[i] = ctld.post(api.PathLaunch, body) })
		}
		wg.Wait()
		for _, a := range answers {
			if a.status != 200 || a.body != answers[0].body {
				t.Errorf("concurrent launches answered %+v and %+v, want the same pid each time", answers[0], a)
			}
		}
		h.startedJob(9)
		if _, err := h.cl.Ctld.Terminate(context.Background(), h.node.Addr, &api.TerminateRequest{JobID: 9, Reason: api.TerminateCancel}); err != nil {
			t.Fatal(err)
		}
		h.ended(9)
		n := 0
		for _, ev := range h.cl.Ctld.EventsOf(9) {
			if ev.Kind == api.EventStarted {
				n++
			}
		}
		if n != 1 {
			t.Errorf("job 9 started %d times, want once", n)
		}
	})
	t.Run("job 2^32-1", func(t *testing.T) {
		h.launch(h.job(1<<32-1, "exit 3"))
		if ev := h.ended(1<<32 - 1); ev.ExitCode.String() != "3:0" {
			t.Errorf("job 4294967295 ended %s, want 3:0", ev.ExitCode)
		}
	})

	t.Run("the local socket", func(t *testing.T) {
		local := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", h.agent.nc.socket)
		}}}
		for name, tc := range map[string]struct {
			path, body string
			status     int
			detail     string
		}{
			"listpids, half a body":     {api.PathNodedPids, `{"job_id":`, 400, "malformed JSON"},
			"listpids, a string job_id": {api.PathNodedPids, `{"job_id":"x"}`, 400, `expected uint32`},
			"listpids, too large":       {api.PathNodedPids, `{"step":"` + strings.Repeat("x", 1<<16) + `"}`, 413, "body over"},
			"listpids, job 2^32-1":      {api.PathNodedPids, `{"job_id":4294967295}`, 200, `"procs":[]`},
			"a credential, not JSON":    {api.PathCredential, `nope`, 400, ""},
			"an unknown path":           {"/v1/launch", `{}`, 404, ""},
		} {
			resp, err := local.Post("http://noded"+tc.path, api.ContentType, strings.NewReader(tc.body))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			data, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tc.status || !strings.Contains(string(data), tc.detail) {
				t.Errorf("%s: answer %d %s, want %d saying %q", name, resp.StatusCode, data, tc.status, tc.detail)
			}
		}
	})

	for _, e := range hook.AllEntries() {
		if strings.Contains(e.Message, "panicked") {
			t.Errorf("a request panicked: %v %v", e.Data["path"], e.Data["panic"])
		}
	}
	resp, err := h.cl.Ctld.Signal(context.Background(), h.node.Addr, &api.SignalRequest{JobID: 7, Signal: 0})
	if err != nil || resp.Unknown {
		t.Fatalf("job 7 after the requests: %+v, %v", resp, err)
	}
	if _, err := h.cl.Ctld.Terminate(context.Background(), h.node.Addr, &api.TerminateRequest{JobID: 7, Reason: api.TerminateCancel}); err != nil {
		t.Fatal(err)
	}
	h.ended(7)
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// FuzzNodedOrderDecode feeds every signed route's decoder arbitrary
// bytes: none panics, a refusal is a bad request with a detail, and what
// one accepts encodes and decodes again to the same request.
func FuzzNodedOrderDecode(f *testing.F) {
	for _, seed := range []string{``, `{}`, `{"job_id":7}`, `{"job_id":7,"signal":9,"step":2}`, `{"job_id":`, `[]`, `null`,
		`{"job_id":7,"batch":true,"script":"#!/bin/sh\n","user_name":"u","alloc":{"node":"n","cpus":2,"gpus":[0]}}`,
		`{"job_id":1,"step_id":0,"node_index":0}`, `{"generation":"g"}`, `{"job_id":7} x`, `{"job_id":1e3}`} {
		f.Add(seed)
	}
	orders := (&Agent{}).orders()
	f.Fuzz(func(t *testing.T, body string) {
		for path, o := range orders {
			req, aerr := o.decode([]byte(body))
			if aerr != nil {
				if aerr.Code != api.CodeBadRequest || aerr.Detail == "" {
					t.Errorf("%s refused %q with %s %q, want a bad request with a detail", path, body, aerr.Code, aerr.Detail)
				}
				continue
			}
			data, err := json.Marshal(req)
			if err != nil {
				t.Errorf("%s: accepted %q but cannot encode it: %v", path, body, err)
				continue
			}
			again, aerr := o.decode(data)
			if aerr != nil {
				t.Errorf("%s: accepted %q, refused its own encoding %s: %v", path, body, data, aerr)
				continue
			}
			if data2, _ := json.Marshal(again); !bytes.Equal(data, data2) {
				t.Errorf("%s: %q decodes to %s, then to %s", path, body, data, data2)
			}
		}
	})
}
