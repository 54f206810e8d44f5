//go:build integration

package test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/test/clustertest"
)

// rawPost sends one request over the controller's Unix socket and returns
// the status and decoded error.
func rawPost(t *testing.T, sock, path string, body []byte, hdr map[string]string) (int, api.Error) {
	t.Helper()
	conn, err := net.Dial("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	req, _ := http.NewRequest("POST", "http://ctld"+path, bytes.NewReader(body))
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	// Write while reading: the daemon answers an oversized body before
	// reading it and closes, so the write may fail with a broken pipe.
	go req.Write(conn)
	resp, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var er api.ErrorResponse
	data, _ := io.ReadAll(resp.Body)
	json.Unmarshal(data, &er)
	return resp.StatusCode, er.Error
}

// TestCtldBadInput: malformed, oversized and unknown input and bad,
// expired or replayed credentials get clear errors; the daemon keeps
// serving.
func TestCtldBadInput(t *testing.T) {
	c := clustertest.New(t, clustertest.Spec{Nodes: 1})
	d := c.StartCtld(t)
	tests := map[string]struct {
		path       string
		body       []byte
		wantStatus int
		wantCode   api.Code
		wantDetail string
	}{
		"malformed JSON":   {api.PathSubmit, []byte(`{"job":{"name":`), 400, api.CodeBadRequest, "malformed JSON"},
		"unknown field":    {api.PathSubmit, []byte(`{"job":{"name":"x","cpus":4}}`), 400, api.CodeBadRequest, `unknown field "cpus"`},
		"oversized":        {api.PathSubmit, append([]byte(`{"job":{"script":"`), bytes.Repeat([]byte("x"), api.MaxRequestBytes)...), 413, api.CodeTooLarge, "exceeds"},
		"not even JSON":    {api.PathJobs, []byte("\x00\x01\x02"), 400, api.CodeBadRequest, "malformed JSON"},
		"unknown path":     {"/v2/anything", nil, 404, api.CodeNotFound, "/v2/anything"},
		"daemon-only path": {api.PathNodeEvents, []byte(`{"node":"n01","events":[]}`), 403, api.CodeAccessDenied, "node daemons"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			status, e := rawPost(t, c.Socket, tc.path, tc.body, nil)
			if status != tc.wantStatus || e.Code != tc.wantCode || !strings.Contains(e.Detail, tc.wantDetail) {
				t.Errorf("status %d error %+v; want %d %s %q", status, e, tc.wantStatus, tc.wantCode, tc.wantDetail)
			}
		})
	}

	// Garbage that is not HTTP at all: the connection is answered or
	// closed, and the daemon goes on.
	conn, err := net.Dial("unix", c.Socket)
	if err != nil {
		t.Fatal(err)
	}
	conn.Write([]byte("\x16\x03\x01 this is not http\r\n\r\n"))
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	io.ReadAll(conn)
	conn.Close()

	// Credentials over TCP.
	body := []byte(`{}`)
	bind := auth.BindingFor("POST", api.PathJobs, body)
	good, _, _ := auth.NewMinter(c.Key, "login").Mint(auth.Peer{UID: 4242, GID: 4242}, bind)
	expiredM := auth.NewMinter(c.Key, "login")
	expiredM.TTL = -time.Minute
	expired, _, _ := expiredM.Mint(auth.Peer{UID: 4242, GID: 4242}, bind)
	other, _ := auth.NewKey(bytes.Repeat([]byte("z"), 32))
	forged, _, _ := auth.NewMinter(other, "login").Mint(auth.Peer{UID: 0, GID: 0}, bind)
	creds := []struct {
		name, token string
		wantCode    api.Code
	}{
		{"no credential", "", api.CodeProtocolAuth},
		{"forged with another key", forged, api.CodeAuthCredInvalid},
		{"expired", expired, api.CodeAuthExpired},
		{"valid", good, ""},
		{"replayed", good, api.CodeAuthReplayed},
	}
	for _, tc := range creds {
		req, _ := http.NewRequest("POST", "http://"+d.Addr()+api.PathJobs, bytes.NewReader(body))
		if tc.token != "" {
			auth.SetCredential(req, tc.token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var er api.ErrorResponse
		json.NewDecoder(resp.Body).Decode(&er)
		resp.Body.Close()
		if er.Error.Code != tc.wantCode {
			t.Errorf("%s: got %q (%s), want %q", tc.name, er.Error.Code, er.Error.Detail, tc.wantCode)
		}
	}
	if _, err := d.Client().Ping(context.Background()); err != nil {
		t.Fatalf("daemon stopped serving: %v\n%s", err, d.Log())
	}
}

// TestCtld10kConnections: 10,000 clients connect at once and each submits
// a job; every submission is answered (a job id or a clear error), the
// daemon keeps serving, and every acknowledged job exists.
func TestCtld10kConnections(t *testing.T) {
	const n = 10000
	raiseNoFile(t, n+1024)
	c := clustertest.New(t, clustertest.Spec{Nodes: 1})
	d := c.StartCtld(t)
	conns := make([]net.Conn, 0, n)
	for i := 0; i < n; i++ {
		conn, err := dialRetrying(c.Socket, 10*time.Second)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		conns = append(conns, conn)
	}
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		ids     []uint32
		refused = map[string]int{}
	)
	start := make(chan struct{})
	for i, conn := range conns {
		wg.Add(1)
		go func(i int, conn net.Conn) {
			defer wg.Done()
			defer conn.Close()
			<-start
			body, _ := json.Marshal(api.SubmitRequest{Job: clustertest.Job()})
			req, _ := http.NewRequest("POST", "http://ctld"+api.PathSubmit, bytes.NewReader(body))
			conn.SetDeadline(time.Now().Add(3 * time.Minute))
			if err := req.Write(conn); err != nil {
				mu.Lock()
				refused["write: "+err.Error()]++
				mu.Unlock()
				return
			}
			resp, err := http.ReadResponse(bufio.NewReader(conn), req)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				refused["read: "+err.Error()]++
				return
			}
			defer resp.Body.Close()
			if resp.StatusCode != 200 {
				var er api.ErrorResponse
				json.NewDecoder(resp.Body).Decode(&er)
				refused[string(er.Error.Code)]++
				return
			}
			var sr api.SubmitResponse
			json.NewDecoder(resp.Body).Decode(&sr)
			ids = append(ids, sr.JobID)
		}(i, conn)
	}
	t0 := time.Now()
	close(start)
	wg.Wait()
	t.Logf("%d accepted, refused %v, in %s", len(ids), refused, time.Since(t0))
	for why := range refused {
		if !strings.HasPrefix(why, "SLURM") && !strings.HasPrefix(why, "EAGAIN") {
			t.Errorf("unclean refusal %q (%d)", why, refused[why])
		}
	}
	cl := d.Client()
	tbl, err := cl.JobTable(context.Background(), &api.JobQuery{Fields: []string{"job_id"}})
	if err != nil {
		t.Fatalf("daemon stopped serving: %v", err)
	}
	jobs, err := tbl.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, j := range jobs {
		have[fmt.Sprint(j.JobID)] = true
	}
	for _, id := range ids {
		if !have[fmt.Sprint(id)] {
			t.Errorf("acknowledged job %d missing", id)
		}
	}
	if len(ids) < n/2 {
		t.Errorf("only %d of %d submissions accepted", len(ids), n)
	}
}

func raiseNoFile(t *testing.T, want uint64) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if lim.Cur < want {
		lim.Cur = min(want, lim.Max)
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || lim.Cur < want {
			t.Skipf("cannot open %d files (limit %d): %v", want, lim.Max, err)
		}
	}
}

// dialRetrying connects to a Unix socket, retrying while the listen backlog
// is full (EAGAIN), as a real client does under a connection storm; the
// daemon must still accept every connection within the deadline.
func dialRetrying(path string, within time.Duration) (net.Conn, error) {
	deadline := time.Now().Add(within)
	for backoff := time.Millisecond; ; backoff = min(2*backoff, 50*time.Millisecond) {
		conn, err := net.Dial("unix", path)
		if err == nil || !errors.Is(err, syscall.EAGAIN) || time.Now().After(deadline) {
			return conn, err
		}
		time.Sleep(backoff)
	}
}
