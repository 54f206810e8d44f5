package auth

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

func TestCredentials(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	key, other := testKey(t, 'k'), testKey(t, 'o')
	bind := BindingFor("POST", api.PathSubmit, []byte(`{"job":{}}`))
	fakeLookup := func(uid, gid uint32) (string, []uint32) { return "alice", []uint32{gid, 27} }
	mint := func(k Key, at time.Time, b Binding) string {
		m := NewMinter(k, "login1")
		m.now = func() time.Time { return at }
		m.lookup = fakeLookup
		tok, _, err := m.Mint(Peer{UID: 1000, GID: 100}, b)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	tamperPayload := func(tok string) string {
		p, sig, _ := strings.Cut(tok, ".")
		raw, _ := base64.RawURLEncoding.DecodeString(p)
		raw = bytes.Replace(raw, []byte(`"uid":1000`), []byte(`"uid":0`), 1)
		return base64.RawURLEncoding.EncodeToString(raw) + "." + sig
	}
	tests := map[string]struct {
		token   string
		bind    Binding
		wantErr error
	}{
		"fresh credential":         {token: mint(key, t0, bind), bind: bind},
		"expired":                  {token: mint(key, t0.Add(-2*time.Minute), bind), bind: bind, wantErr: ErrExpired},
		"issued in the future":     {token: mint(key, t0.Add(5*time.Minute), bind), bind: bind, wantErr: ErrBadCredential},
		"uid rewritten":            {token: tamperPayload(mint(key, t0, bind)), bind: bind, wantErr: ErrBadCredential},
		"signed with another key":  {token: mint(other, t0, bind), bind: bind, wantErr: ErrBadCredential},
		"used for another request": {token: mint(key, t0, bind), bind: BindingFor("POST", api.PathCancel, nil), wantErr: ErrWrongRequest},
		"garbage":                  {token: "not-a-credential", bind: bind, wantErr: ErrBadCredential},
		"empty":                    {token: "", bind: bind, wantErr: ErrNoCredential},
		"signed but empty payload": {token: "e30." + base64.RawURLEncoding.EncodeToString(credMAC(key.derive("user credential"), "e30")), bind: bind, wantErr: ErrExpired},
		"daemon key cannot mint":   {token: forgeWithDaemonKey(t, key, t0, bind), bind: bind, wantErr: ErrBadCredential},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			v := NewCredentialVerifier(key)
			v.SetClock(func() time.Time { return t0 })
			c, err := v.Verify(tc.token, tc.bind)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("Verify error = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			id := c.Identity()
			if id.UID != 1000 || id.GID != 100 || id.User != "alice" || id.Via != ViaCredential || len(id.Groups) != 2 {
				t.Errorf("identity = %+v", id)
			}
		})
	}
}

// forgeWithDaemonKey seals a credential with the daemon-signature subkey,
// which must not verify as a credential.
func forgeWithDaemonKey(t *testing.T, k Key, at time.Time, b Binding) string {
	tok, err := seal(k.derive("daemon request"), Credential{UID: 0, Issued: at.UnixNano(), Expires: at.Add(time.Minute).UnixNano(), Nonce: "n", Bind: b})
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func TestCredentialReplayIsRefused(t *testing.T) {
	key := testKey(t, 'k')
	bind := BindingFor("GET", api.PathPing, nil)
	tok, _, err := NewMinter(key, "n1").Mint(Peer{UID: 1, GID: 1}, bind)
	if err != nil {
		t.Fatal(err)
	}
	v := NewCredentialVerifier(key)
	if _, err := v.Verify(tok, bind); err != nil {
		t.Fatalf("first use: %v", err)
	}
	if _, err := v.Verify(tok, bind); !errors.Is(err, ErrReplayed) {
		t.Fatalf("second use error = %v, want %v", err, ErrReplayed)
	}
}

// TestMinterOverUnixSocket runs the credential handler on a real Unix
// socket: the credential names the test process's own uid and gid, read by
// the kernel, whatever the request says.
func TestMinterOverUnixSocket(t *testing.T) {
	key := testKey(t, 'k')
	sock := filepath.Join(t.TempDir(), "noded.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: NewMinter(key, "n1").Handler(), ConnContext: ConnContext}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })

	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", sock)
	}}}
	bind := BindingFor("POST", api.PathSubmit, []byte("{}"))
	body, _ := json.Marshal(api.CredentialRequest(bind))
	resp, err := hc.Post("http://noded"+api.PathCredential, api.ContentType, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var cr api.CredentialResponse
	if err := json.NewDecoder(resp.Body).Decode(&cr); err != nil || resp.StatusCode != 200 {
		t.Fatalf("status %d, decode %v", resp.StatusCode, err)
	}
	c, err := NewCredentialVerifier(key).Verify(cr.Credential, bind)
	if err != nil {
		t.Fatal(err)
	}
	if c.UID != uint32(os.Getuid()) || c.GID != uint32(os.Getgid()) || c.Issuer != "n1" {
		t.Errorf("credential %+v, want uid %d gid %d", c, os.Getuid(), os.Getgid())
	}

	// Unknown fields in the request are refused.
	resp2, err := hc.Post("http://noded"+api.PathCredential, api.ContentType, strings.NewReader(`{"uid":0}`))
	if err != nil {
		t.Fatal(err)
	}
	resp2.Body.Close()
	if resp2.StatusCode != http.StatusBadRequest {
		t.Errorf("unknown field: status %d, want 400", resp2.StatusCode)
	}
}
