package controller

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/job"
)

// TestS16AllocNode: as slurmctld, AllocNode is the request's address
// resolved to a name (the peer shows AllocNode:Sid=localhost:SID for
// commands run on its own host "vm"), the address itself when it does not
// resolve; a request over the Unix socket comes from this host.
func TestS16AllocNode(t *testing.T) {
	names := map[string][]string{"127.0.0.1": {"localhost", "vm"}, "10.0.0.7": {"login7.example."}}
	var lookups int
	c := &Controller{}
	c.allocNames.lookup = func(_ context.Context, addr string) ([]string, error) {
		lookups++
		if n, ok := names[addr]; ok {
			return n, nil
		}
		return nil, errors.New("no such host")
	}
	got := map[string]string{}
	for name, remote := range map[string]string{
		"loopback": "127.0.0.1:40000", "resolved": "10.0.0.7:40001", "unresolved": "10.0.0.9:40002",
		"unix socket": "@", "again": "127.0.0.1:40003",
	} {
		r, _ := http.NewRequest(http.MethodPost, "/", nil)
		r.RemoteAddr = remote
		got[name] = c.allocNode(withPeerAddr(r))
	}
	want := map[string]string{"loopback": "localhost", "resolved": "login7.example", "unresolved": "10.0.0.9",
		"unix socket": "localhost", "again": "localhost"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("alloc node (-want +got):\n%s", diff)
	}
	if lookups != 3 {
		t.Errorf("%d lookups, want 3 (one per address)", lookups)
	}
}

// TestS16AllocNodeOnJob: a submitted job keeps the resolved name as its
// AllocNode and the client's hostname as its SubmitHost.
func TestS16AllocNodeOnJob(t *testing.T) {
	h := newHarness(t) // names 127.0.0.1 localhost
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
	j := h.job(fmt.Sprint(id))
	if j.AllocNode != "localhost" {
		t.Errorf("AllocNode %q, want localhost", j.AllocNode)
	}
}
