package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	logtest "github.com/sirupsen/logrus/hooks/test"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/test/absurd"
)

// nodedRequestTypes are the bodies the daemon's signed routes decode.
var nodedRequestTypes = []any{
	api.LaunchRequest{}, api.SignalRequest{}, api.NotifyRequest{}, api.TerminateRequest{}, api.TimeLimitRequest{},
	api.NodeSuspendRequest{}, api.StepLaunchRequest{}, api.NodedUsageRequest{}, api.PidsRequest{},
}

// TestRobustNodedAPIAbsurdRequests sends the daemon's TCP API, signed by
// the controller, bodies that are not requests and every request type
// filled with absurd values, plus unknown paths, wrong methods and bad
// signatures. Each answer is a JSON error or a result, never an internal
// error or a dropped connection; nothing panics, and the daemon still
// serves and runs its job afterwards.
func TestRobustNodedAPIAbsurdRequests(t *testing.T) {
	needRoot(t)
	if testing.Short() {
		t.Skip("sends thousands of requests")
	}
	h := startAgent(t, newCluster(t))
	hook := logtest.NewLocal(h.agent.log.Logger)
	h.launch(h.job(7, "sleep 600"))
	h.startedJob(7)
	signer := auth.NewSigner(h.cl.Key, ControllerSender)
	send := func(method, path string, body []byte, sign bool) (int, api.Error) {
		req, _ := http.NewRequest(method, "http://"+h.node.Addr+path, bytes.NewReader(body))
		if sign {
			if err := signer.Sign(req, body); err != nil {
				t.Fatal(err)
			}
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Errorf("%s %s: %v", method, path, err)
			return 0, api.Error{}
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		var er api.ErrorResponse
		if resp.StatusCode/100 != 2 && json.Unmarshal(data, &er) != nil {
			t.Errorf("%s %s: status %d with a body that is not a JSON error: %q", method, path, resp.StatusCode, data)
		}
		return resp.StatusCode, er.Error
	}
	// Step launches for a job the node does not know wait for its launch a
	// few seconds: the requests run 16 at a time.
	type probe struct {
		what, path string
		body       []byte
	}
	var probes []probe
	for _, path := range []string{api.PathSignal, api.PathNotifyJob, api.PathTerminate, api.PathTimeLimit,
		api.PathNodedSuspend, api.PathStepLaunch, api.PathNodedStepUsage, api.PathLaunch} {
		for name, body := range absurd.Generic {
			probes = append(probes, probe{name, path, body})
		}
		for _, typ := range nodedRequestTypes {
			for _, kind := range absurd.Kinds {
				probes = append(probes, probe{fmt.Sprintf("%T %s", typ, kind), path, absurd.Body(typ, kind)})
			}
		}
	}
	work := make(chan probe)
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for p := range work {
				if status, e := send("POST", p.path, p.body, true); status >= 500 {
					t.Errorf("%s %s: %d %s %s", p.path, p.what, status, e.Code, e.Detail)
				}
			}
		})
	}
	for _, p := range probes {
		work <- p
	}
	close(work)
	wg.Wait()
	tests := map[string]struct {
		method, path string
		body         []byte
		sign         bool
		wantStatus   int
	}{
		"an unknown path":         {"POST", "/v1/nope", nil, true, 404},
		"a wrong method":          {"GET", api.PathLaunch, nil, true, 404},
		"no signature":            {"POST", api.PathTerminate, []byte(`{"job_id":7}`), false, 401},
		"a body over the limit":   {"POST", api.PathTerminate, make([]byte, api.MaxRequestBytes+1), true, 413},
		"a launch of job id 0":    {"POST", api.PathLaunch, []byte(`{"job_id":0}`), true, 400},
		"a signal of job 2^32":    {"POST", api.PathSignal, []byte(`{"job_id":4294967296,"signal":9}`), true, 400},
		"a negative signal":       {"POST", api.PathSignal, []byte(`{"job_id":7,"signal":-9}`), true, 400},
		"a signal beyond signals": {"POST", api.PathSignal, []byte(`{"job_id":7,"signal":4096}`), true, 200}, // ignored

	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if status, e := send(tc.method, tc.path, tc.body, tc.sign); status != tc.wantStatus {
				t.Errorf("status %d (%s %s), want %d", status, e.Code, e.Detail, tc.wantStatus)
			}
		})
	}
	for _, e := range hook.AllEntries() {
		if strings.Contains(e.Message, "panicked") {
			t.Errorf("a request panicked: %v %v", e.Data["path"], e.Data["panic"])
		}
	}
	if status, _ := send("GET", api.PathNodedPing, nil, false); status != 200 {
		t.Fatalf("ping after the requests: %d", status)
	}
	// The absurd launches that were valid orders started jobs: end them
	// all, job 7 last, which must still be running.
	h.agent.mu.Lock()
	var ids []uint32
	for id := range h.agent.jobs {
		if id != 7 {
			ids = append(ids, id)
		}
	}
	h.agent.mu.Unlock()
	for _, id := range append(ids, 7) {
		resp, err := h.cl.Ctld.Terminate(context.Background(), h.node.Addr, &api.TerminateRequest{JobID: id, Reason: api.TerminateCancel})
		if err != nil || resp.Unknown {
			t.Errorf("job %d after the requests: %+v, %v", id, resp, err)
			continue
		}
		h.ended(id)
	}
}

// TestRobustNodedLaunchOneAbsurdField sends launches valid but for one
// field at a time set to an absurd value, so each value reaches the
// supervisor: every answer is a result or a clear error, and every job
// that started is then ended and reported.
func TestRobustNodedLaunchOneAbsurdField(t *testing.T) {
	needRoot(t)
	if testing.Short() {
		t.Skip("launches hundreds of jobs")
	}
	h := startAgent(t, newCluster(t))
	hook := logtest.NewLocal(h.agent.log.Logger)
	signer := auth.NewSigner(h.cl.Key, ControllerSender)
	next, statuses := uint32(100), map[int]int{}
	absurd.Fields(*h.job(1, "true"), func(field string, kind absurd.Kind, body []byte) {
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatal(err)
		}
		if field != "job_id" {
			next++
			m["job_id"] = next
		}
		body, _ = json.Marshal(m)
		req, _ := http.NewRequest("POST", "http://"+h.node.Addr+api.PathLaunch, bytes.NewReader(body))
		if err := signer.Sign(req, body); err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", field, kind, err)
		}
		resp.Body.Close()
		statuses[resp.StatusCode]++
		if resp.StatusCode >= 500 {
			t.Errorf("%s %s: status %d", field, kind, resp.StatusCode)
		}
	})
	for _, e := range hook.AllEntries() {
		if strings.Contains(e.Message, "panicked") {
			t.Errorf("a request panicked: %v %v", e.Data["path"], e.Data["panic"])
		}
	}
	h.agent.mu.Lock()
	var ids []uint32
	for id := range h.agent.jobs {
		ids = append(ids, id)
	}
	h.agent.mu.Unlock()
	for _, id := range ids {
		// A job ending on its own as the order comes may answer a
		// connection failure: its end is reported either way.
		_, _ = h.cl.Ctld.Terminate(context.Background(), h.node.Addr, &api.TerminateRequest{JobID: id, Reason: api.TerminateCancel})
		h.ended(id)
	}
	t.Logf("answers by status %v; %d jobs still ran at the end", statuses, len(ids))
}

// TestRobustNodedRecoveredPanicIsLogged: a handler that panics answers an
// internal error in JSON and the panic is logged with its stack.
func TestRobustNodedRecoveredPanicIsLogged(t *testing.T) {
	log, hook := logtest.NewNullLogger()
	a := &Agent{log: log.WithField("node", "n1")}
	w := httptest.NewRecorder()
	a.recovering(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic("a handler's bug")
	})).ServeHTTP(w, httptest.NewRequest("POST", "/v1/boom", nil))
	if w.Code != http.StatusInternalServerError || !strings.Contains(w.Body.String(), string(api.CodeInternal)) {
		t.Errorf("answer %d %s, want 500 with %s", w.Code, w.Body, api.CodeInternal)
	}
	e := hook.LastEntry()
	if e == nil || e.Message != "request panicked" || !strings.Contains(e.Data["stack"].(string), "robust_api_test.go") {
		t.Errorf("panic not logged as a bug: %+v", e)
	}
}
