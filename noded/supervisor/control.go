package supervisor

import (
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

// State is where a supervised job is.
type State string

// States, in order.
const (
	Starting State = "starting"
	Running  State = "running"
	Ended    State = "ended"
)

func (s State) rank() int {
	return map[State]int{Starting: 0, Running: 1, Ended: 2}[s]
}

// Status is what the control socket reports.
type Status struct {
	State State `json:"state"`
	// Start is when the script (or allocation) started running; Pid the
	// batch script's pid.
	Start time.Time `json:"start,omitzero"`
	Pid   int       `json:"pid,omitempty"`
	// Result is set once Ended.
	Result *api.JobEvent `json:"result,omitempty"`
}

// Control socket paths.
const (
	pathState     = "/state"
	pathWait      = "/wait"
	pathSignal    = "/signal"
	pathTerminate = "/terminate"
	pathTimeLimit = "/timelimit"
)

// request is an order the loop carries out.
type request struct {
	signal    *api.SignalRequest
	terminate *api.TerminateRequest
	timeLimit *api.TimeLimitRequest
	done      chan struct{}
}

type control struct {
	mu      sync.Mutex
	st      Status
	changed chan struct{} // closed and replaced on every change
	ended   chan struct{} // closed once Ended
	reqs    chan request
}

func newControl() *control {
	return &control{st: Status{State: Starting}, changed: make(chan struct{}), ended: make(chan struct{}), reqs: make(chan request)}
}

func (c *control) update(f func(*Status)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f(&c.st)
	close(c.changed)
	c.changed = make(chan struct{})
}

func (c *control) setRunning(start time.Time, pid int) {
	c.update(func(s *Status) { s.State, s.Start, s.Pid = Running, start, pid })
}

func (c *control) setEnded(res *api.JobEvent) {
	c.update(func(s *Status) { s.State, s.Result = Ended, res })
	close(c.ended)
}

func (c *control) status() (Status, chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.st, c.changed
}

func (c *control) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+pathState, func(w http.ResponseWriter, r *http.Request) {
		st, _ := c.status()
		writeJSON(w, st)
	})
	mux.HandleFunc("GET "+pathWait, c.serveWait)
	mux.HandleFunc("POST "+pathSignal, func(w http.ResponseWriter, r *http.Request) {
		var req api.SignalRequest
		c.order(w, r, &req, request{signal: &req})
	})
	mux.HandleFunc("POST "+pathTerminate, func(w http.ResponseWriter, r *http.Request) {
		var req api.TerminateRequest
		c.order(w, r, &req, request{terminate: &req})
	})
	mux.HandleFunc("POST "+pathTimeLimit, func(w http.ResponseWriter, r *http.Request) {
		var req api.TimeLimitRequest
		c.order(w, r, &req, request{timeLimit: &req})
	})
	return mux
}

// serveWait answers once the job reached ?state= (or the caller gives up).
func (c *control) serveWait(w http.ResponseWriter, r *http.Request) {
	want := State(r.URL.Query().Get("state"))
	for {
		st, changed := c.status()
		if st.State.rank() >= want.rank() {
			writeJSON(w, st)
			return
		}
		select {
		case <-changed:
		case <-r.Context().Done():
			return
		}
	}
}

// order decodes body into v and hands req to the loop; a job that ended
// answers Unknown, as the daemon does for jobs it does not run.
func (c *control) order(w http.ResponseWriter, r *http.Request, v any, req request) {
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(v); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req.done = make(chan struct{})
	select {
	case c.reqs <- req:
		<-req.done
		writeJSON(w, api.NodedResponse{})
	case <-c.ended:
		writeJSON(w, api.NodedResponse{Unknown: true})
	case <-r.Context().Done():
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", api.ContentType)
	_ = json.NewEncoder(w).Encode(v)
}
