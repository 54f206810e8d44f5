package command

import (
	"bufio"
	"encoding/json"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// ioSession is srun's end of the step's streams (api.StepIO): a listener
// the nodes' step processes connect to, one connection per node.
type ioSession struct {
	env   *Env
	ln    net.Listener
	addr  string
	key   []byte
	input string // the step's standard input mode (api.StepCreateRequest.StdIn)

	events chan nodeEvent
	done   chan struct{}
	once   sync.Once
	mu     sync.Mutex
	conns  []*nodeConn
}

// nodeConn is one node's connection, once it proved it belongs to the
// step.
type nodeConn struct {
	hello api.StepIOHello
	conn  net.Conn
	wmu   sync.Mutex
}

// nodeEvent is a frame from a node, its hello (Kind IOHello), or the end
// of its connection (err set).
type nodeEvent struct {
	c   *nodeConn
	f   api.StepIOFrame
	err error
}

// helloTimeout bounds how long a connection may take to say who it is.
const helloTimeout = 10 * time.Second

// newIOSession listens on an ephemeral port on every interface and
// advertises it at host.
func newIOSession(env *Env, host string) (*ioSession, error) {
	key, err := newIOKey()
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", ":0")
	if err != nil {
		return nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	s := &ioSession{env: env, ln: ln, key: key, addr: net.JoinHostPort(host, strconv.Itoa(port)),
		events: make(chan nodeEvent, 1024), done: make(chan struct{})}
	go s.accept()
	return s, nil
}

func (s *ioSession) accept() {
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			return
		}
		go s.serve(conn)
	}
}

// serve checks a connection's hello and then passes its frames on, in
// order, until it ends.
func (s *ioSession) serve(conn net.Conn) {
	_ = conn.SetReadDeadline(time.Now().Add(helloTimeout))
	br := bufio.NewReaderSize(conn, 64<<10)
	f, err := api.ReadIOFrame(br)
	var h api.StepIOHello
	if err != nil || f.Kind != api.IOHello || json.Unmarshal(f.Data, &h) != nil || !h.Valid(s.key) {
		conn.Close()
		return
	}
	_ = conn.SetReadDeadline(time.Time{})
	nc := &nodeConn{hello: h, conn: conn}
	s.mu.Lock()
	s.conns = append(s.conns, nc)
	s.mu.Unlock()
	if !s.post(nodeEvent{c: nc, f: f}) {
		return
	}
	for {
		f, err := api.ReadIOFrame(br)
		if !s.post(nodeEvent{c: nc, f: f, err: err}) || err != nil {
			return
		}
	}
}

func (s *ioSession) post(ev nodeEvent) bool {
	select {
	case s.events <- ev:
		return true
	case <-s.done:
		return false
	}
}

// close stops listening and drops every connection.
func (s *ioSession) close() {
	s.once.Do(func() {
		close(s.done)
		s.ln.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, c := range s.conns {
			c.conn.Close()
		}
	})
}

// send writes one frame to a node; a node that is gone is ignored (its
// connection's end is reported as an event).
func (c *nodeConn) send(kind api.StepIOKind, task uint32, data []byte) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, _ = c.conn.Write(api.AppendIOFrame(nil, kind, task, data))
}

// connectTimeout bounds how long srun waits for every node of a started
// step to connect.
const connectTimeout = 60 * time.Second

// run drives the step until every node reported its end: output to
// srun's streams, task ends reported as srun does, srun's input and
// signals to the tasks. It returns srun's exit status, the step's exit
// code and state for accounting.
func (s *ioSession) run(resp *api.StepCreateResponse, r *srunRun) (int, job.ExitCode, job.State) {
	st := newStepRun(r, resp)
	st.launchLines() // srun -v: srun_verbose.go
	n := len(resp.Layout.Nodes)
	conns := make([]*nodeConn, n)
	connected, ended := 0, make([]bool, n)
	timeout := time.NewTimer(connectTimeout)
	defer timeout.Stop()
	for left := n; left > 0; {
		select {
		case ev := <-s.events:
			i := ev.c.hello.NodeIndex
			switch {
			case ev.c.hello.StepID != resp.StepID || ev.c.hello.JobID != r.jobID || i < 0 || i >= n:
				ev.c.conn.Close() // not this step's
			case ev.err == nil && ev.f.Kind == api.IOHello && conns[i] == nil:
				conns[i], connected = ev.c, connected+1
				st.conns = conns
				st.joined(ev.c) // the step may have ended before it connected
				st.started(i)
				if connected == n {
					timeout.Stop()
					go s.forwardStdin(conns, resp.Layout)
				}
			case ev.err != nil || ev.f.Kind == api.IODone:
				if !ended[i] {
					ended[i], left = true, left-1
					st.nodeEnded(i, ev.err != nil) // a connection lost before IODone
				}
			default:
				st.frame(i, ev.f)
			}
		case sig := <-r.sigs:
			st.signal(sig)
		case <-st.waitC:
			st.waitOver()
		case <-st.abortC:
			st.abortTimedOut()
			left = 0 // srun gives up on the nodes still silent
		case <-timeout.C:
			left -= st.missing(conns, ended)
		}
	}
	st.finish()
	return st.result()
}

// forwardStdin sends srun's standard input to the tasks the step's input
// mode names (all of them, or one task id), then its end.
func (s *ioSession) forwardStdin(conns []*nodeConn, l api.StepLayout) {
	target := uint32(api.AllTasks)
	var to []*nodeConn
	switch {
	case s.input == "":
		to = conns
	case isDigits(s.input):
		n, _ := strconv.Atoi(s.input)
		for i, node := range l.Nodes {
			for _, t := range node.TaskIDs {
				if t == n {
					to, target = []*nodeConn{conns[i]}, uint32(n)
				}
			}
		}
	}
	if len(to) == 0 {
		return
	}
	buf := make([]byte, 32<<10)
	for {
		k, err := s.env.Stdin.Read(buf)
		if k > 0 {
			for _, c := range to {
				c.send(api.IOStdin, target, buf[:k])
			}
		}
		if err != nil {
			break
		}
		select {
		case <-s.done:
			return
		default:
		}
	}
	for _, c := range to {
		c.send(api.IOStdinEOF, target, nil)
	}
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
