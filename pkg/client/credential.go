package client

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/loamhpc/loam/pkg/api"
)

// headerCredential carries a user credential on a request to the
// controller: auth.HeaderCredential, spelled out here so that the commands
// do not link package auth (and with it net/http). A test keeps the two
// equal.
const headerCredential = "X-Loam-Credential"

// bindingFor is auth.BindingFor: a credential is bound to one request's
// method, path and the hex SHA-256 of its body. A test keeps the two equal.
func bindingFor(method, path string, body []byte) api.CredentialRequest {
	d := sha256.Sum256(body)
	return api.CredentialRequest{Method: method, Path: path, BodySHA256: hex.EncodeToString(d[:])}
}
