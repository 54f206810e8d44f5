package fakenode

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/job"
)

// ctldStub answers registrations, and events until told to fail; it
// records the sequence numbers of each events request.
type ctldStub struct {
	mu      sync.Mutex
	fail    bool
	batches [][]uint64
}

func (s *ctldStub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	defer s.mu.Unlock()
	switch r.URL.Path {
	case api.PathNodeRegister:
		json.NewEncoder(w).Encode(api.RegisterResponse{HeartbeatInterval: 3600})
	case api.PathNodeEvents:
		var in api.JobEventsRequest
		json.Unmarshal(body, &in)
		var seqs []uint64
		for _, ev := range in.Events {
			seqs = append(seqs, ev.Seq)
		}
		s.batches = append(s.batches, seqs)
		if s.fail {
			w.WriteHeader(http.StatusServiceUnavailable)
			json.NewEncoder(w).Encode(api.ErrorResponse{Error: *api.NewError(api.CodeCommunication)})
			return
		}
		json.NewEncoder(w).Encode(api.JobEventsResponse{Acked: seqs[len(seqs)-1]})
	}
}

// TestEventsWaitForTheAck: an event the controller did not take stays
// queued with its number and goes again, before newer ones, at the next
// delivery; once acknowledged it is gone, as in loam-noded's outbox.
func TestEventsWaitForTheAck(t *testing.T) {
	key, err := auth.GenerateKey(filepath.Join(t.TempDir(), "key"))
	if err != nil {
		t.Fatal(err)
	}
	stub := &ctldStub{fail: true}
	srv := httptest.NewServer(stub)
	defer srv.Close()
	n, err := Start(Options{Name: "n1", Key: key, CtldAddr: strings.TrimPrefix(srv.URL, "http://"), Addr: "127.0.0.1:0", Heartbeat: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	if err := n.End(7, job.ExitCode{}); err == nil {
		t.Fatal("End succeeded while the controller failed the request")
	}
	stub.mu.Lock()
	stub.fail = false
	stub.mu.Unlock()
	if err := n.End(8, job.ExitCode{}); err != nil {
		t.Fatal(err)
	}
	if err := n.flush(); err != nil {
		t.Fatal(err)
	}
	stub.mu.Lock()
	defer stub.mu.Unlock()
	if diff := cmp.Diff([][]uint64{{1}, {1, 2}}, stub.batches); diff != "" {
		t.Errorf("events requests' sequence numbers (-want +got)\n%s", diff)
	}
}
