package controller

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// startObserver runs the observer as loam-ctld does (history, tokens,
// estimator) until the test ends.
func startObserver(t *testing.T, h *harness) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	h.c.obs.open()
	h.c.obs.start(ctx)
	t.Cleanup(func() { cancel(); h.c.obs.stop() })
}

// page gets a dashboard page with the cookie (empty: none) and returns
// status and body.
func page(t *testing.T, h *harness, path, cookie string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, h.srv.URL+path, nil)
	if cookie != "" {
		req.Header.Set("Cookie", cookie)
	}
	hc := *h.hc
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if c := resp.Cookies(); len(c) == 1 {
		return resp.StatusCode, c[0].Name + "=" + c[0].Value
	}
	return resp.StatusCode, string(b)
}

// login mints a token as uid and trades it for the dashboard's cookie.
func login(t *testing.T, h *harness, uid uint32) string {
	t.Helper()
	var tok api.WebTokenResponse
	if err := h.call(uid, api.PathWebToken, api.WebTokenRequest{Lifespan: 600}, &tok); err != nil {
		t.Fatal(err)
	}
	if tok.Path != "/ui/" || tok.Expires-h.clock.Now().Unix() > 601 {
		t.Errorf("token answer %+v", tok)
	}
	code, cookie := page(t, h, "/ui/queue?token="+tok.Token, "")
	if code != http.StatusSeeOther || !strings.HasPrefix(cookie, "loam_dashboard=") {
		t.Fatalf("login: %d %q", code, cookie)
	}
	return cookie
}

func TestDashboardShowsUsersTheirOwnJobs(t *testing.T) {
	h := newHarness(t)
	startObserver(t, h)
	h.node("n01")
	mine := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Name = "alicejob"; r.Hold = true }))
	theirs := h.mustSubmit(bob, simpleJob(func(r *job.Request) { r.Name = "bobjob"; r.Hold = true }))
	h.cycle()

	if code, _ := page(t, h, "/ui/queue", ""); code != http.StatusUnauthorized {
		t.Errorf("no token: %d, want 401", code)
	}
	alices := login(t, h, alice)
	code, body := page(t, h, "/ui/queue", alices)
	if code != 200 || !strings.Contains(body, "alicejob") || strings.Contains(body, "bobjob") {
		t.Errorf("alice's queue (%d) shows her job %v, bob's %v", code, strings.Contains(body, "alicejob"), strings.Contains(body, "bobjob"))
	}
	if code, _ := page(t, h, "/ui/suggestions", alices); code != http.StatusForbidden {
		t.Errorf("alice's suggestions: %d, want 403", code)
	}
	roots := login(t, h, 0)
	code, body = page(t, h, "/ui/queue", roots)
	if code != 200 || !strings.Contains(body, fmt.Sprint(mine)) || !strings.Contains(body, "bobjob") {
		t.Errorf("root's queue (%d) lacks a job:\n%s", code, body)
	}
	for _, p := range []string{"/ui/", "/ui/quotas", "/ui/waits?span=30d", "/ui/preemptions", "/ui/fragmentation", "/ui/reservations", "/ui/suggestions"} {
		if code, body := page(t, h, p, roots); code != 200 {
			t.Errorf("%s: %d\n%s", p, code, body)
		}
	}
	_ = theirs
}

func TestWebTokenRules(t *testing.T) {
	h := newHarness(t)
	startObserver(t, h)
	tests := map[string]struct {
		uid      uint32
		req      string
		wantCode api.Code
	}{
		"a user for someone else":        {alice, `{"username":"root"}`, api.CodeAccessDenied},
		"a negative lifespan":            {alice, `{"lifespan":-5}`, api.CodeBadRequest},
		"an unknown field":               {alice, `{"lifespan":5,"x":1}`, api.CodeBadRequest},
		"root for a user that is absent": {0, `{"username":"nosuchuser-xyz"}`, api.CodeUserIDMissing},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			err := h.raw(tc.uid, http.MethodPost, api.PathWebToken, []byte(tc.req), nil)
			if err == nil || err.Code != tc.wantCode {
				t.Errorf("got %v, want code %s", err, tc.wantCode)
			}
		})
	}
	var ok api.WebTokenResponse
	if err := h.raw(0, http.MethodPost, api.PathWebToken, []byte(`{"username":"root"}`), &ok); err != nil || ok.Token == "" {
		t.Errorf("root for root: %v", err)
	}
}
