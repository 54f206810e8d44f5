package client

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

func testKey(t *testing.T) auth.Key {
	k, err := auth.NewKey([]byte(strings.Repeat("k", 32)))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// serveUnix serves h on a new Unix socket with peer credentials in context.
func serveUnix(t *testing.T, h http.Handler) string {
	t.Helper()
	sock := filepath.Join(t.TempDir(), "s.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, ConnContext: auth.ConnContext}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return sock
}

// fakeCtld answers ping with who it thinks the caller is.
func fakeCtld(t *testing.T, key auth.Key) http.Handler {
	creds := auth.NewCredentialVerifier(key)
	daemons := auth.NewVerifier(key)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var who string
		switch {
		case auth.Signed(r):
			sender, err := daemons.Verify(r, body)
			if err != nil {
				http.Error(w, `{"error":{"code":"SLURM_PROTOCOL_AUTHENTICATION_ERROR","error":"Protocol authentication error"}}`, http.StatusUnauthorized)
				return
			}
			who = "daemon:" + sender
		case r.Header.Get(auth.HeaderCredential) != "":
			c, err := creds.Verify(r.Header.Get(auth.HeaderCredential), auth.BindingFor(r.Method, r.URL.RequestURI(), body))
			if err != nil {
				w.WriteHeader(401)
				json.NewEncoder(w).Encode(api.ErrorResponse{Error: *api.Errorf(api.CodeAuthCredInvalid, "%v", err)})
				return
			}
			who = "credential:" + c.Issuer
		default:
			if _, ok := auth.PeerFrom(r.Context()); !ok {
				w.WriteHeader(401)
				json.NewEncoder(w).Encode(api.ErrorResponse{Error: *api.NewError(api.CodeProtocolAuth)})
				return
			}
			who = "peercred"
		}
		if r.URL.Path == api.PathCancel {
			w.WriteHeader(422)
			json.NewEncoder(w).Encode(api.ErrorResponse{Error: *api.NewError(api.CodeInvalidJobID)})
			return
		}
		json.NewEncoder(w).Encode(api.PingResponse{Daemon: "loam-ctld", Host: who})
	})
}

func TestTransports(t *testing.T) {
	key := testKey(t)
	ctldSock := serveUnix(t, fakeCtld(t, key))
	tcp := httptest.NewServer(fakeCtld(t, key))
	t.Cleanup(tcp.Close)
	addr := strings.TrimPrefix(tcp.URL, "http://")
	nodedSock := serveUnix(t, auth.NewMinter(key, "login1").Handler())

	tests := map[string]struct {
		opts      Options
		wantHost  string
		wantLocal bool
	}{
		"local unix socket uses SO_PEERCRED": {opts: Options{CtldSocket: ctldSock, CtldAddr: addr}, wantHost: "peercred", wantLocal: true},
		"tcp fetches a credential":           {opts: Options{CtldSocket: "/nonexistent.sock", CtldAddr: addr, NodedSocket: nodedSock}, wantHost: "credential:login1"},
		"daemon signs with the key":          {opts: Options{CtldSocket: ctldSock, CtldAddr: addr, Signer: auth.NewSigner(key, "gpu01")}, wantHost: "daemon:gpu01"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c, err := New(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if c.Local() != tc.wantLocal {
				t.Errorf("Local() = %v", c.Local())
			}
			for i := 0; i < 3; i++ { // fresh credential / nonce each time
				p, err := c.Ping(context.Background())
				if err != nil {
					t.Fatalf("ping %d: %v", i, err)
				}
				if p.Host != tc.wantHost {
					t.Errorf("server saw %q, want %q", p.Host, tc.wantHost)
				}
			}
		})
	}
}

func TestErrors(t *testing.T) {
	key := testKey(t)
	c, err := New(Options{CtldSocket: serveUnix(t, fakeCtld(t, key))})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Cancel(context.Background(), &api.CancelRequest{})
	var ae *api.Error
	if !errors.As(err, &ae) || ae.Code != api.CodeInvalidJobID || ae.Error() != "Invalid job id specified" {
		t.Errorf("Cancel error = %#v, want ESLURM_INVALID_JOB_ID", err)
	}

	dead, err := New(Options{CtldAddr: "127.0.0.1:1", Signer: auth.NewSigner(key, "n")})
	if err != nil {
		t.Fatal(err)
	}
	_, err = dead.Ping(context.Background())
	if !errors.As(err, &ae) || ae.Code != api.CodeCtldConnect || !ae.Retry {
		t.Errorf("unreachable controller error = %#v, want connect failure", err)
	}
	if !strings.HasPrefix(err.Error(), "Unable to contact slurm controller (connect failure)") {
		t.Errorf("message %q", err)
	}

	noCred, _ := New(Options{CtldAddr: "127.0.0.1:1"})
	noCred.opts.NodedSocket = ""
	if _, err := noCred.Ping(context.Background()); !errors.As(err, &ae) || ae.Code != api.CodeProtocolAuth {
		t.Errorf("no credential source: %v", err)
	}
	if _, err := New(Options{}); err == nil {
		t.Errorf("New with no address succeeded")
	}
}

func TestConfPath(t *testing.T) {
	t.Setenv(EnvConf, "")
	t.Setenv(EnvSlurmConf, "")
	if ConfPath() != DefaultConfPath {
		t.Errorf("default %q", ConfPath())
	}
	t.Setenv(EnvSlurmConf, "/s/slurm.conf")
	if ConfPath() != "/s/slurm.conf" {
		t.Errorf("SLURM_CONF: %q", ConfPath())
	}
	t.Setenv(EnvConf, "/l/slurm.conf")
	if ConfPath() != "/l/slurm.conf" {
		t.Errorf("LOAM_CONF first: %q", ConfPath())
	}
}

// TestConnectTries: a command tries to reach the controller ConnectTries
// times before it fails, as Slurm's commands try MessageTimeout times, so
// that a controller coming back in that time answers; the failure is
// Slurm's one line, with no detail before it.
func TestConnectTries(t *testing.T) {
	key := testKey(t)
	sock := filepath.Join(t.TempDir(), "ctld.sock")
	c, err := New(Options{CtldAddr: "127.0.0.1:1", Signer: auth.NewSigner(key, "n"), ConnectTries: 3})
	if err != nil {
		t.Fatal(err)
	}
	tries := 0
	c.pause = func(context.Context) error { tries++; return nil }
	_, err = c.Ping(context.Background())
	var ae *api.Error
	if !errors.As(err, &ae) || ae.Code != api.CodeCtldConnect || ae.Detail != "" || tries != 2 {
		t.Errorf("dead controller: %#v after %d pauses, want a connect failure without detail after 2", err, tries)
	}

	// The controller comes back during the second pause.
	c.opts.CtldAddr, c.opts.Signer, c.unix, c.opts.CtldSocket = "", nil, true, sock
	tries = 0
	c.pause = func(context.Context) error {
		if tries++; tries == 2 {
			ln, err := net.Listen("unix", sock)
			if err != nil {
				t.Fatal(err)
			}
			srv := &http.Server{Handler: fakeCtld(t, key), ConnContext: auth.ConnContext}
			go srv.Serve(ln)
			t.Cleanup(func() { srv.Close() })
		}
		return nil
	}
	if _, err := c.Ping(context.Background()); err != nil || tries != 2 {
		t.Errorf("controller back after 2 pauses: %v after %d pauses", err, tries)
	}

	once, _ := New(Options{CtldAddr: "127.0.0.1:1", Signer: auth.NewSigner(key, "n")})
	once.pause = func(context.Context) error { t.Error("a daemon's client paused to try again"); return nil }
	if _, err := once.Ping(context.Background()); err == nil {
		t.Error("dead controller answered")
	}
}

// TestConnectTriesFromConfig: commands try once a second for
// MessageTimeout (the peer's MessageTimeout=30 squeue gave up after 29 s).
func TestConnectTriesFromConfig(t *testing.T) {
	for _, tc := range []struct {
		timeout time.Duration
		want    int
	}{{30 * time.Second, 30}, {10 * time.Second, 10}, {0, 1}} {
		cfg := slurmconf.Default()
		cfg.MessageTimeout = tc.timeout
		if got := OptionsFrom(cfg).ConnectTries; got != tc.want {
			t.Errorf("MessageTimeout=%v: %d tries, want %d", tc.timeout, got, tc.want)
		}
	}
}
