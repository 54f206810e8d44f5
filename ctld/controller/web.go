package controller

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
)

// observeHandler returns the handler of the non-JSON paths: Prometheus
// metrics and the dashboard; nil for every other path.
func (c *Controller) observeHandler(path string) http.Handler {
	switch {
	case path == api.PathMetrics:
		return c.obs.metricsHandler()
	case path == strings.TrimSuffix(api.PathDashboard, "/"):
		return http.RedirectHandler(api.PathDashboard, http.StatusMovedPermanently)
	case strings.HasPrefix(path, api.PathDashboard):
		return c.obs.web.Load()
	}
	return nil
}

// handleWebToken mints a dashboard token for the caller (scontrol token);
// an operator may mint one for another user.
func (c *Controller) handleWebToken(_ context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var req api.WebTokenRequest
	if err := decode(body, &req); err != nil {
		return nil, err
	}
	if id.Via == auth.ViaDaemon {
		return nil, api.Errorf(api.CodeAccessDenied, "node daemons get no dashboard token")
	}
	if req.Lifespan < 0 {
		return nil, api.Errorf(api.CodeBadRequest, "lifespan %d: must be a positive number of seconds", req.Lifespan)
	}
	uid, name := id.UID, id.User
	if req.User != "" && req.User != id.User {
		if err := c.requireOperator(id, "a token for another user"); err != nil {
			return nil, err
		}
		u, ok := c.users.uidOf(req.User)
		if !ok {
			return nil, api.Errorf(api.CodeUserIDMissing, "Invalid user: %s", req.User)
		}
		uid, name = u, req.User
	}
	if err := c.privateDashboard(uid); err != nil { // privatedata.go
		return nil, err
	}
	tokens := c.obs.tokens()
	if tokens == nil {
		return nil, api.Errorf(api.CodeError, "dashboard tokens are unavailable (see loam-ctld's log)")
	}
	tok, exp := tokens.Mint(uid, name, time.Now(), time.Duration(req.Lifespan)*time.Second)
	return &api.WebTokenResponse{Token: tok, Expires: exp.Unix(), Path: api.PathDashboard}, nil
}
