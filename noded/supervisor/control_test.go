package supervisor

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// serveTest serves a control socket for a job directory of the test's and
// returns a client for it.
func serveTest(t *testing.T) (*control, *Client, string) {
	t.Helper()
	dir := t.TempDir()
	ln, err := listenControl(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctl := newControl()
	srv := serve(ln, ctl)
	t.Cleanup(func() { srv.close(time.Second) })
	return ctl, NewClient(dir), dir
}

func TestControlOverTheSocket(t *testing.T) {
	ctl, c, _ := serveTest(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if st, err := c.Status(ctx); err != nil || st.State != Starting {
		t.Fatalf("Status = %+v, %v; want starting", st, err)
	}
	running := make(chan Status, 1)
	go func() {
		st, err := c.Wait(ctx, Running)
		if err != nil {
			t.Error(err)
		}
		running <- st
	}()
	start := time.Unix(1700000000, 5).UTC()
	ctl.setRunning(start, 42)
	if st := <-running; st.State != Running || !st.Start.Equal(start) || st.Pid != 42 {
		t.Errorf("Wait(running) = %+v", st)
	}
	// The loop takes orders while the job runs.
	got := make(chan request, 3)
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			select {
			case req := <-ctl.reqs:
				got <- req
				close(req.done)
			case <-stop:
				return
			}
		}
	}()
	if resp, err := c.Signal(ctx, api.SignalRequest{JobID: 1, Signal: 10, Full: true}); err != nil || resp.Unknown {
		t.Fatalf("Signal = %+v, %v", resp, err)
	}
	if req := <-got; req.signal == nil || req.signal.Signal != 10 || !req.signal.Full {
		t.Errorf("signal order = %+v", req)
	}
	if _, err := c.Terminate(ctx, api.TerminateRequest{JobID: 1, Reason: api.TerminatePreempt, Grace: 30}); err != nil {
		t.Fatal(err)
	}
	if req := <-got; req.terminate == nil || req.terminate.Reason != api.TerminatePreempt || req.terminate.Grace != 30 {
		t.Errorf("terminate order = %+v", req)
	}
	if _, err := c.TimeLimit(ctx, api.TimeLimitRequest{JobID: 1, TimeLimit: 120}); err != nil {
		t.Fatal(err)
	}
	if req := <-got; req.timeLimit == nil || req.timeLimit.TimeLimit != 120 {
		t.Errorf("time limit order = %+v", req)
	}
	close(stop) // the loop has returned: the job ended
	<-stopped
	res := &api.JobEvent{JobID: 1, Kind: api.EventEnded, OOM: true}
	ctl.setEnded(res)
	st, err := c.Wait(ctx, Ended)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(res, st.Result); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	// An ended job answers orders as one this node does not run.
	if resp, err := c.Signal(ctx, api.SignalRequest{JobID: 1, Signal: 15}); err != nil || !resp.Unknown {
		t.Errorf("Signal after the end = %+v, %v; want unknown", resp, err)
	}
}

func TestControlBadRequests(t *testing.T) {
	_, c, dir := serveTest(t)
	tests := map[string]struct {
		line string
		want string
	}{
		"not json":            {line: "hello\n", want: "bad request"},
		"unknown operation":   {line: `{"op":"reboot"}` + "\n", want: `operation "reboot"`},
		"order without body":  {line: `{"op":"signal"}` + "\n", want: `operation "signal"`},
		"wait for no state":   {line: `{"op":"wait","state":"sleeping"}` + "\n", want: `unknown state "sleeping"`},
		"wait without states": {line: `{"op":"wait"}` + "\n", want: `unknown state ""`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			conn, err := net.Dial("unix", controlAddr(dir))
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := conn.Write([]byte(tc.line)); err != nil {
				t.Fatal(err)
			}
			line, err := bufio.NewReader(conn).ReadBytes('\n')
			var rep wireReply
			if err == nil {
				err = json.Unmarshal(line, &rep)
			}
			if err != nil || !strings.Contains(rep.Error, tc.want) {
				t.Errorf("reply = %q, %v; want an error containing %q", line, err, tc.want)
			}
		})
	}
	// A client that gives up ends its wait.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.Wait(ctx, Ended); err == nil || ctx.Err() == nil {
		t.Errorf("Wait past its context = %v", err)
	}
}

func TestControlAddr(t *testing.T) {
	short := "/var/spool/loam/jobs/12"
	long := "/" + strings.Repeat("d", 200) + "/jobs/12"
	tests := map[string]struct {
		dir, want string
	}{
		"a short directory names the socket": {dir: short, want: addrPrefix + short},
		"a relative one is made absolute":    {dir: "jobs/12", want: addrPrefix + mustAbs(t, "jobs/12")},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := controlAddr(tc.dir); got != tc.want {
				t.Errorf("controlAddr(%q) = %q, want %q", tc.dir, got, tc.want)
			}
		})
	}
	a, b := controlAddr(long), controlAddr(long+"3")
	if len(a) > maxAddr || !strings.HasPrefix(a, addrPrefix) || a == b {
		t.Errorf("long directories: %q and %q, want distinct names of at most %d bytes", a, b, maxAddr)
	}
}
