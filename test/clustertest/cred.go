package clustertest

import (
	"net"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/loamhpc/loam/pkg/auth"
)

// CredentialSocket serves the node daemon's credential endpoint on a Unix
// socket in the cluster's directory, as loam-noded does, and returns its
// path.
func CredentialSocket(t testing.TB, c *Cluster) string {
	t.Helper()
	sock := filepath.Join(c.Dir, "cred.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: auth.NewMinter(c.Key, "login").Handler(), ConnContext: auth.ConnContext}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return sock
}
