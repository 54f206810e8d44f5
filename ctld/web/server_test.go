package web

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func newTestServer(t *testing.T, src *fakeSource) (*Server, *Tokens) {
	t.Helper()
	tk, err := NewTokens(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	return New(src, tk), tk
}

func get(s http.Handler, target string, hdr map[string]string) *http.Response {
	r := httptest.NewRequest(http.MethodGet, target, nil)
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w.Result()
}

func body(t *testing.T, r *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestPagesRenderForEachViewer(t *testing.T) {
	tests := map[string]struct {
		peer       Viewer
		path       string
		wantStatus int
		wantText   []string
	}{
		"overview shows usage and the user's queue line": {
			peer: Viewer{UID: 1000, User: "alice"}, path: "/ui/", wantStatus: 200,
			wantText: []string{"40 / 64", "position 3 of 41 in normal, expected start in about 2 h", "train&lt;x&gt;"},
		},
		"queue marks a user's view as their own jobs": {
			peer: Viewer{UID: 1000, User: "alice"}, path: "/ui/queue?partition=normal", wantStatus: 200,
			wantText: []string{"You see your own jobs", "in about 1.5 h", "1 more not shown", "<option selected>normal</option>"},
		},
		"quota heat map draws every cell": {
			peer: Viewer{UID: 0, User: "root", Admin: true}, path: "/ui/quotas?span=30d", wantStatus: 200,
			wantText: []string{"research", "140% of guarantee", "no data", "30 days"},
		},
		"wait distribution":  {peer: Viewer{User: "root", Admin: true}, path: "/ui/waits", wantStatus: 200, wantText: []string{"6 jobs (60%)", "mean wait 1 h"}},
		"preemptions table":  {peer: Viewer{User: "root", Admin: true}, path: "/ui/preemptions", wantStatus: 200, wantText: []string{"12.5"}},
		"fragmentation line": {peer: Viewer{User: "root", Admin: true}, path: "/ui/fragmentation?span=6h", wantStatus: 200, wantText: []string{"Now 30%", "6 hours"}},
		"reservations table": {peer: Viewer{User: "root", Admin: true}, path: "/ui/reservations", wantStatus: 200, wantText: []string{"gpu[01-02]"}},
		"suggestions for an admin": {
			peer: Viewer{User: "root", Admin: true}, path: "/ui/suggestions", wantStatus: 200,
			wantText: []string{"raise AgingRate of partition batch in slurm.conf from 50 to 100", "AgingRate=100"},
		},
		"suggestions are refused to users": {peer: Viewer{UID: 1000, User: "alice"}, path: "/ui/suggestions", wantStatus: 403, wantText: []string{"root and SlurmUser"}},
		"an unknown page":                  {peer: Viewer{User: "alice"}, path: "/ui/nope", wantStatus: 404},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			s, _ := newTestServer(t, &fakeSource{peer: &tc.peer})
			resp := get(s, tc.path, nil)
			text := body(t, resp)
			if resp.StatusCode != tc.wantStatus {
				t.Fatalf("status %d, want %d\n%s", resp.StatusCode, tc.wantStatus, text)
			}
			for _, w := range tc.wantText {
				if !strings.Contains(text, w) {
					t.Errorf("page lacks %q", w)
				}
			}
			if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
				t.Errorf("CSP %q", csp)
			}
		})
	}
}

func TestTokenFlow(t *testing.T) {
	src := &fakeSource{admin: map[uint32]bool{0: true}}
	s, tk := newTestServer(t, src)

	// No identity: the sign-in page, 401.
	if r := get(s, "/ui/queue", nil); r.StatusCode != 401 || !strings.Contains(body(t, r), "scontrol token") {
		t.Fatalf("anonymous: %d", r.StatusCode)
	}
	// A token in the URL sets the cookie and redirects without it.
	tok, _ := tk.Mint(1000, "alice", now0, time.Hour)
	r := get(s, "/ui/waits?span=7d&token="+tok, nil)
	if r.StatusCode != http.StatusSeeOther || r.Header.Get("Location") != "/ui/waits?span=7d" {
		t.Fatalf("login: %d to %q", r.StatusCode, r.Header.Get("Location"))
	}
	c := r.Cookies()
	if len(c) != 1 || c[0].Value != tok || !c[0].HttpOnly || c[0].SameSite != http.SameSiteStrictMode || c[0].Path != "/ui/" {
		t.Fatalf("cookie %+v", c)
	}
	// The cookie then identifies the user; admin is decided now.
	r = get(s, "/ui/suggestions", map[string]string{"Cookie": cookieName + "=" + tok})
	if r.StatusCode != 403 {
		t.Errorf("alice's suggestions: %d, want 403", r.StatusCode)
	}
	rootTok, _ := tk.Mint(0, "root", now0, time.Hour)
	if r := get(s, "/ui/suggestions", map[string]string{"Authorization": "Bearer " + rootTok}); r.StatusCode != 200 {
		t.Errorf("root by bearer: %d", r.StatusCode)
	}
	// Expired, forged and foreign tokens are refused.
	old, _ := tk.Mint(1000, "alice", now0.Add(-2*time.Hour), time.Hour)
	other, _ := NewTokens(bytes.Repeat([]byte{8}, 32))
	forged, _ := other.Mint(0, "root", now0, time.Hour)
	for name, bad := range map[string]string{"expired": old, "other key": forged, "garbage": "abc.def", "no dot": "abc"} {
		if r := get(s, "/ui/?token="+bad, nil); r.StatusCode != 401 {
			t.Errorf("%s token in URL: %d, want 401", name, r.StatusCode)
		}
		if r := get(s, "/ui/", map[string]string{"Cookie": cookieName + "=" + bad}); r.StatusCode != 401 {
			t.Errorf("%s token in cookie: %d, want 401", name, r.StatusCode)
		}
	}
}

func TestReadOnly(t *testing.T) {
	s, _ := newTestServer(t, &fakeSource{peer: &Viewer{User: "root", Admin: true}})
	r := httptest.NewRequest(http.MethodPost, "/ui/", strings.NewReader("x=1"))
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d, want 405", w.Code)
	}
}

func TestTokenLifespan(t *testing.T) {
	tk, _ := NewTokens(bytes.Repeat([]byte{1}, 32))
	tests := map[string]struct {
		ask, want time.Duration
	}{
		"default is 30 minutes":  {0, 30 * time.Minute},
		"as asked":               {2 * time.Hour, 2 * time.Hour},
		"capped at a week":       {30 * 24 * time.Hour, 7 * 24 * time.Hour},
		"negative means default": {-5, 30 * time.Minute},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, exp := tk.Mint(5, "u", now0, tc.ask)
			if got := exp.Sub(now0); got != tc.want {
				t.Errorf("lifespan %v, want %v", got, tc.want)
			}
		})
	}
}

func TestLoadTokensKeepsTheSecret(t *testing.T) {
	dir := t.TempDir()
	a, err := LoadTokens(dir)
	if err != nil {
		t.Fatal(err)
	}
	tok, _ := a.Mint(1, "u", now0, time.Hour)
	b, err := LoadTokens(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.Verify(tok, now0); err != nil {
		t.Errorf("token after reload: %v", err)
	}
}
