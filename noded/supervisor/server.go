package supervisor

import (
	"errors"
	"net"
	"sync"
	"time"
)

// server serves the control socket: one goroutine per connection.
type server struct {
	ln       net.Listener
	ctl      *control
	conns    sync.WaitGroup
	accepted chan struct{} // closed when the accept loop returned
}

func serve(ln net.Listener, ctl *control) *server {
	s := &server{ln: ln, ctl: ctl, accepted: make(chan struct{})}
	go s.accept()
	return s
}

func (s *server) accept() {
	defer close(s.accepted)
	for {
		conn, err := s.ln.Accept()
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil {
			// Out of descriptors and the like: try again shortly.
			time.Sleep(10 * time.Millisecond)
			continue
		}
		if !peerAllowed(conn) {
			conn.Close()
			continue
		}
		s.conns.Add(1)
		go func() {
			defer s.conns.Done()
			s.ctl.serveConn(conn)
		}()
	}
}

// close stops accepting and waits up to timeout for the requests being
// answered (a daemon waiting for the job's end reads its result).
func (s *server) close(timeout time.Duration) {
	_ = s.ln.Close()
	<-s.accepted
	done := make(chan struct{})
	go func() {
		s.conns.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(timeout):
	}
}
