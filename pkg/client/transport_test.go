package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestExchange runs the hand-written HTTP/1.1 exchange against Go's own
// server, which both daemons are, in each way it frames an answer.
func TestExchange(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", 64<<10) // 1 MiB: chunked
	mux := http.NewServeMux()
	mux.HandleFunc("/small", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, r.Method+" "+string(body)+" "+r.Header.Get("X-Test"))
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i < len(big); i += 100 << 10 {
			io.WriteString(w, big[i:min(i+100<<10, len(big))])
			w.(http.Flusher).Flush()
		}
	})
	mux.HandleFunc("/empty", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	mux.HandleFunc("/refused", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnprocessableEntity)
		io.WriteString(w, `{"error":{}}`)
	})
	sock := serveUnix(t, mux)

	tests := map[string]struct {
		uri, method string
		body        string
		limit       int64
		wantStatus  int
		wantBody    string
		wantErr     error
	}{
		"a body with Content-Length, and headers sent": {uri: "/small", method: methodPost, body: `{"a":1}`, wantStatus: 200, wantBody: `POST {"a":1} yes`},
		"a GET with no body":                           {uri: "/small", method: methodGet, wantStatus: 200, wantBody: "GET  yes"},
		"a chunked body of 1 MiB":                      {uri: "/big", method: methodGet, wantStatus: 200, wantBody: big},
		"no content":                                   {uri: "/empty", method: methodGet, wantStatus: 204},
		"an error status keeps its body":               {uri: "/refused", method: methodPost, body: "{}", wantStatus: 422, wantBody: `{"error":{}}`},
		"an answer over the limit is refused":          {uri: "/big", method: methodGet, limit: 1 << 10, wantErr: errBodyTooLarge},
		"a Content-Length over the limit is refused":   {uri: "/small", method: methodPost, body: "x", limit: 3, wantErr: errBodyTooLarge},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			x := &exchange{network: "unix", addr: sock, host: "test", method: tc.method, uri: tc.uri,
				body: []byte(tc.body), hasBody: tc.body != "", timeout: 10 * time.Second, limit: tc.limit,
				header: [][2]string{{"X-Test", "yes"}}}
			if x.limit == 0 {
				x.limit = maxResponseBytes
			}
			status, body, err := x.do(context.Background())
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("error = %v, want %v", err, tc.wantErr)
			}
			if tc.wantErr != nil {
				return
			}
			if status != tc.wantStatus {
				t.Errorf("status = %d, want %d", status, tc.wantStatus)
			}
			if diff := cmp.Diff(tc.wantBody, string(body)); diff != "" {
				t.Errorf("body (-want +got):\n%.300s", diff)
			}
		})
	}
}

func TestExchangeCancelled(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	sock := serveUnix(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-release }))
	ctx, cancel := context.WithCancel(context.Background())
	x := &exchange{network: "unix", addr: sock, host: "test", method: methodGet, uri: "/", timeout: time.Minute, limit: 10}
	done := make(chan error, 1)
	go func() {
		_, _, err := x.do(ctx)
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want context.Canceled", err)
	}
}

func TestParseStatusLine(t *testing.T) {
	tests := map[string]struct {
		line    string
		want    int
		wantErr bool
	}{
		"ok":                   {line: "HTTP/1.1 200 OK", want: 200},
		"no reason phrase":     {line: "HTTP/1.0 503", want: 503},
		"not HTTP":             {line: "SSH-2.0-OpenSSH", wantErr: true},
		"a status that is bad": {line: "HTTP/1.1 2x0 OK", wantErr: true},
		"empty":                {line: "", wantErr: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := parseStatusLine(tc.line)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("parseStatusLine(%q) = %d, %v; want %d, error %v", tc.line, got, err, tc.want, tc.wantErr)
			}
		})
	}
}
