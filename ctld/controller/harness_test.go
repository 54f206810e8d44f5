package controller

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/store"
	"github.com/loamhpc/loam/test/clustertest"
)

// harness is one controller with the fake engine, a temporary store, a fake
// clock and its API on an httptest server. Cycles and housekeeping run only
// when the test calls them.
type harness struct {
	t     *testing.T
	c     *Controller
	eng   *FIFO
	key   auth.Key
	srv   *httptest.Server
	dir   string
	conf  string
	clock *fakeClock
	hc    *http.Client
}

type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (f *fakeClock) Now() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.now }

func (f *fakeClock) Advance(d time.Duration) { f.mu.Lock(); f.now = f.now.Add(d); f.mu.Unlock() }

const testConf = `ClusterName=unit
SlurmctldHost=localhost(127.0.0.1)
StateSaveLocation=%[1]s/state
LoamKeyFile=%[1]s/loam.key
LoamCtldSocket=%[1]s/ctld.sock
SlurmUser=root
KillWait=2
SlurmdTimeout=60
ReturnToService=1
MinJobAge=300
MaxJobCount=50
MaxArraySize=1001
DefMemPerCPU=100
GresTypes=gpu
NodeName=n[01-02] NodeAddr=127.0.0.1 CPUs=8 RealMemory=16000 Gres=gpu:4 Port=[%[2]d,%[3]d]
PartitionName=normal Nodes=ALL Default=YES MaxTime=2-00:00:00 DefaultTime=01:00:00 State=UP PriorityTier=2
PartitionName=batch Nodes=ALL MaxTime=UNLIMITED State=UP PriorityTier=1
`

func newHarness(t *testing.T) *harness {
	t.Helper()
	dir := t.TempDir()
	h := &harness{t: t, dir: dir, clock: &fakeClock{now: time.Now().Truncate(time.Second)}}
	h.conf = filepath.Join(dir, "slurm.conf")
	text := fmt.Sprintf(testConf, dir, clustertest.FreePort(t), clustertest.FreePort(t))
	if err := os.WriteFile(h.conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	key, err := auth.GenerateKey(filepath.Join(dir, "loam.key"))
	if err != nil {
		t.Fatal(err)
	}
	h.key = key
	h.start()
	return h
}

// start builds the controller on the harness's state and serves it.
func (h *harness) start() {
	t := h.t
	conf, err := LoadConfig(h.conf)
	if err != nil {
		t.Fatal(err)
	}
	log := logrus.New()
	log.SetOutput(t.Output())
	log.SetLevel(logrus.DebugLevel)
	c, err := New(Options{ConfPath: h.conf, Config: conf, Log: logrus.NewEntry(log), Engine: newFIFO,
		Key: h.key, Now: h.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	h.c, h.eng = c, c.eng.(*FIFO)
	c.started = h.clock.Now()
	// Requests come from 127.0.0.1: name it without the host's resolver.
	c.allocNames.lookup = func(context.Context, string) ([]string, error) { return []string{"localhost"}, nil }
	st, err := store.Open(conf.StateSaveLocation, store.Options{Sync: store.SyncNormal})
	if err != nil {
		t.Fatal(err)
	}
	c.store = st
	if err := c.restore(); err != nil {
		t.Fatal(err)
	}
	h.srv = httptest.NewServer(c.Handler())
	h.hc = h.srv.Client()
	t.Cleanup(h.stop)
}

func (h *harness) stop() {
	if h.srv == nil {
		return
	}
	h.srv.Close()
	h.c.inflight.Wait()
	h.c.store.Close()
	h.srv = nil
}

// restart stops the controller and starts a new one on the same state.
func (h *harness) restart() {
	h.stop()
	h.start()
}

// call sends in to path as user uid (root: 0) with a fresh credential and
// decodes the answer into out.
func (h *harness) call(uid uint32, path string, in, out any) *api.Error {
	h.t.Helper()
	body, _ := json.Marshal(in)
	return h.raw(uid, http.MethodPost, path, body, out)
}

func (h *harness) raw(uid uint32, method, path string, body []byte, out any) *api.Error {
	h.t.Helper()
	req, _ := http.NewRequest(method, h.srv.URL+path, bytes.NewReader(body))
	tok, _, err := auth.NewMinter(h.key, "login").Mint(auth.Peer{UID: uid, GID: uid}, auth.BindingFor(method, path, body))
	if err != nil {
		h.t.Fatal(err)
	}
	auth.SetCredential(req, tok)
	return h.send(req, out)
}

func (h *harness) send(req *http.Request, out any) *api.Error {
	h.t.Helper()
	resp, err := h.hc.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		var er api.ErrorResponse
		if err := json.Unmarshal(data, &er); err != nil {
			h.t.Fatalf("status %d, undecodable error body %q", resp.StatusCode, data)
		}
		return &er.Error
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			h.t.Fatalf("decode %s: %v", data, err)
		}
	}
	return nil
}

// submit submits req as uid and returns the job id or the error.
func (h *harness) submit(uid uint32, req job.Request) (uint32, *api.Error) {
	h.t.Helper()
	var out api.SubmitResponse
	if err := h.call(uid, api.PathSubmit, api.SubmitRequest{Job: req}, &out); err != nil {
		return 0, err
	}
	return out.JobID, nil
}

func (h *harness) mustSubmit(uid uint32, req job.Request) uint32 {
	h.t.Helper()
	id, err := h.submit(uid, req)
	if err != nil {
		h.t.Fatalf("submit: %v", err)
	}
	return id
}

// job returns one job's record.
func (h *harness) job(id string) api.Job {
	h.t.Helper()
	var out api.JobsResponse
	if err := h.call(0, api.PathJobs, api.JobQuery{JobIDs: []string{id}}, &out); err != nil {
		h.t.Fatalf("query %s: %v", id, err)
	}
	if len(out.Jobs) == 1 {
		return out.Jobs[0]
	}
	for _, j := range out.Jobs { // an array id names all its records
		if fmt.Sprint(j.JobID) == id {
			return j
		}
	}
	h.t.Fatalf("query %s: %d jobs", id, len(out.Jobs))
	return api.Job{}
}

// cycle runs one scheduling cycle and waits for its sends.
func (h *harness) cycle() {
	h.c.runCycle()
	h.c.inflight.Wait()
}

// tick advances the clock and runs housekeeping.
func (h *harness) tick(d time.Duration) {
	h.clock.Advance(d)
	h.c.housekeeping()
	h.c.inflight.Wait()
}

// node starts a fake node daemon for node name and registers it.
func (h *harness) node(name string) *clustertest.FakeNode {
	h.t.Helper()
	n := h.c.confNow().conf
	nc, _ := n.Node(name)
	addr := fmt.Sprintf("127.0.0.1:%d", nc.Port)
	return clustertest.NewFakeNode(h.t, h.key, strings.TrimPrefix(h.srv.URL, "http://"), name, addr)
}

// waitState polls until job id is in state st.
func (h *harness) waitState(id string, st job.State) api.Job {
	h.t.Helper()
	var j api.Job
	clustertest.Eventually(h.t, 10*time.Second, fmt.Sprintf("job %s to be %s", id, st), func() error {
		j = h.job(id)
		if j.JobState != st {
			return fmt.Errorf("state %s reason %s", j.JobState, j.StateReason)
		}
		return nil
	})
	return j
}

func simpleJob(mods ...func(*job.Request)) job.Request {
	return clustertest.Job(mods...)
}

// runningOnQuietNode starts alice's job (simpleJob with mods) on a node
// that reports no end by itself, so that a stopped job stays COMPLETING
// until the test ends it on the node.
func runningOnQuietNode(t *testing.T, mods ...func(*job.Request)) (*harness, *clustertest.FakeNode, uint32) {
	t.Helper()
	h := newHarness(t)
	n := h.node("n01")
	n.AutoEnd = false
	id := h.mustSubmit(alice, simpleJob(mods...))
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	return h, n, id
}

var _ = context.Background
