package auth

import (
	"encoding/json"
	"io"
	"net/http"

	"github.com/loamhpc/loam/pkg/api"
)

// maxCredentialRequest bounds a credential request body.
const maxCredentialRequest = 4096

// Handler serves api.PathCredential on a daemon's Unix socket: it mints a
// credential for the connection's peer (the http.Server must use
// ConnContext) bound to the request the caller describes.
func (m *Minter) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		peer, ok := PeerFrom(r.Context())
		if !ok {
			writeError(w, api.Errorf(api.CodeAccessDenied, "credentials are only issued on the daemon's unix socket"))
			return
		}
		var req api.CredentialRequest
		dec := json.NewDecoder(io.LimitReader(r.Body, maxCredentialRequest))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil || r.Method != http.MethodPost {
			writeError(w, api.Errorf(api.CodeBadRequest, "credential request: want POST with method, path and body_sha256"))
			return
		}
		tok, exp, err := m.Mint(peer, Binding(req))
		if err != nil {
			writeError(w, api.Errorf(api.CodeInternal, "%v", err))
			return
		}
		w.Header().Set("Content-Type", api.ContentType)
		_ = json.NewEncoder(w).Encode(api.CredentialResponse{Credential: tok, Expires: exp.Unix()})
	})
}

func writeError(w http.ResponseWriter, e *api.Error) {
	w.Header().Set("Content-Type", api.ContentType)
	w.WriteHeader(e.Code.HTTPStatus())
	_ = json.NewEncoder(w).Encode(api.ErrorResponse{Error: *e})
}
