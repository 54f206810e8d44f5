package supervisor

import (
	"bufio"
	"encoding/json"
	"errors"
	"net"
	"strconv"
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
	// Completing: the job ended here and the node's epilog runs; Result
	// holds the end it will report.
	Completing State = "completing"
	Ended      State = "ended"
)

// rank orders the states; -1 is not a state.
func (s State) rank() int {
	switch s {
	case Starting:
		return 0
	case Running:
		return 1
	case Completing:
		return 2
	case Ended:
		return 3
	}
	return -1
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

// request is an order the loop carries out.
type request struct {
	signal    *api.SignalRequest
	terminate *api.TerminateRequest
	timeLimit *api.TimeLimitRequest
	notify    *api.NotifyRequest
	suspend   *api.NodeSuspendRequest
	// resp is the answer, which the loop may change (notify.go).
	resp *api.NodedResponse
	done chan struct{}
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

func (c *control) setCompleting(res *api.JobEvent) {
	cp := *res // the epilog may still mark res (nodeprolog.go)
	c.update(func(s *Status) { s.State, s.Result = Completing, &cp })
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

// ioTimeout bounds reading a request and writing a reply: a client that
// stalls must not hold a connection open forever.
const ioTimeout = 10 * time.Second

// serveConn answers one request on conn.
func (c *control) serveConn(conn net.Conn) {
	defer conn.Close()
	_ = conn.SetReadDeadline(time.Now().Add(ioTimeout))
	r := bufio.NewReaderSize(conn, 4096)
	line, err := readLine(r)
	if err != nil {
		return
	}
	_ = conn.SetReadDeadline(time.Time{})
	// The client sends nothing more: a read that returns means it hung up
	// (or this side closed the connection), and a wait can stop.
	gone := make(chan struct{})
	go func() {
		_, _ = r.ReadByte()
		close(gone)
	}()
	var req wireRequest
	rep := &wireReply{}
	if err := json.Unmarshal(line, &req); err != nil {
		rep.Error = "bad request: " + err.Error()
	} else {
		rep = c.answer(&req, gone)
	}
	if rep == nil {
		return
	}
	out, err := json.Marshal(rep)
	if err != nil {
		return
	}
	_ = conn.SetWriteDeadline(time.Now().Add(ioTimeout))
	_, _ = conn.Write(append(out, '\n'))
}

// readLine reads one newline-terminated line of at most maxLine bytes.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxLine {
			return nil, errors.New("line too long")
		}
		if err == nil {
			return line, nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return nil, err
		}
	}
}

// answer carries out req; nil means the client went away first.
func (c *control) answer(req *wireRequest, gone <-chan struct{}) *wireReply {
	switch {
	case req.Op == opState:
		st, _ := c.status()
		return &wireReply{Status: &st}
	case req.Op == opWait:
		return c.wait(req.State, gone)
	case req.Op == opSignal && req.Signal != nil:
		return c.order(request{signal: req.Signal}, gone)
	case req.Op == opTerminate && req.Terminate != nil:
		return c.order(request{terminate: req.Terminate}, gone)
	case req.Op == opTimeLimit && req.TimeLimit != nil:
		return c.order(request{timeLimit: req.TimeLimit}, gone)
	case req.Op == opNotify && req.Notify != nil:
		return c.order(request{notify: req.Notify}, gone)
	case req.Op == opSuspend && req.Suspend != nil:
		return c.order(request{suspend: req.Suspend}, gone)
	}
	return &wireReply{Error: "bad request: operation " + strconv.Quote(req.Op) + " without its arguments or unknown"}
}

// wait answers once the job reached want (or the caller gives up).
func (c *control) wait(want State, gone <-chan struct{}) *wireReply {
	if want.rank() < 0 {
		return &wireReply{Error: "bad request: unknown state " + strconv.Quote(string(want))}
	}
	for {
		st, changed := c.status()
		if st.State.rank() >= want.rank() {
			return &wireReply{Status: &st}
		}
		select {
		case <-changed:
		case <-gone:
			return nil
		}
	}
}

// order hands req to the loop; a job that ended answers Unknown, as the
// daemon does for jobs it does not run.
func (c *control) order(req request, gone <-chan struct{}) *wireReply {
	req.done, req.resp = make(chan struct{}), &api.NodedResponse{}
	select {
	case c.reqs <- req:
		<-req.done
		return &wireReply{Response: req.resp}
	case <-c.ended:
		return &wireReply{Response: &api.NodedResponse{Unknown: true}}
	case <-gone:
		return nil
	}
}
