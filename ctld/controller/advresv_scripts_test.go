package controller

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/ctld/trigger"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/test/clustertest"
)

// resvRecorder records the reservation scripts; each ends at once.
type resvRecorder struct {
	mu   sync.Mutex
	runs []string
}

func (f *resvRecorder) Run(e trigger.Exec) (<-chan error, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.runs = append(f.runs, fmt.Sprintf("%s %v env=%d", e.Path, e.Argv, len(e.Env)))
	ch := make(chan error, 1)
	ch <- nil
	return ch, nil
}

func (f *resvRecorder) waitRuns(t *testing.T, n int) []string {
	t.Helper()
	var out []string
	clustertest.Eventually(t, 10*time.Second, fmt.Sprintf("%d script runs", n), func() error {
		f.mu.Lock()
		defer f.mu.Unlock()
		if len(f.runs) < n {
			return fmt.Errorf("%d runs", len(f.runs))
		}
		out = append([]string(nil), f.runs...)
		return nil
	})
	return out
}

// TestResvScripts: as on the peer (ResvProlog=/tmp/peerM/rprolog), the
// prolog runs once when reservation M-r3 starts and the epilog once when
// it ends, each with the name as its one argument and an empty
// environment; a reservation deleted before its start or end gets no
// script (the peer's M-r2).
func TestResvScripts(t *testing.T) {
	h, _ := scriptsHarness(t, "ResvProlog=/bin/rprolog\nResvEpilog=/bin/repilog\n")
	f := &resvRecorder{}
	h.c.trig.scripts = f
	h.node("n01")
	check := func() {
		h.c.mu.Lock()
		h.c.checkAdvScripts(h.clock.Now())
		h.c.mu.Unlock()
	}
	h.mkResv("M-r3", time.Minute)
	h.mkResv("M-r2", time.Minute, func(s *api.AdvResvSpec) { s.Start += 3600; s.End += 3600; s.Nodes = "n02" })
	check()
	check() // the same window: nothing more
	if got, want := f.waitRuns(t, 1), []string{"/bin/rprolog [rprolog M-r3] env=0"}; !cmp.Equal(want, got) {
		t.Errorf("at the start (-want +got):\n%s", cmp.Diff(want, got))
	}
	if err := h.call(0, api.PathAdvResvDelete, api.AdvResvDelete{Name: "M-r2"}, nil); err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(61 * time.Second)
	check()
	check()
	want := []string{"/bin/rprolog [rprolog M-r3] env=0", "/bin/repilog [repilog M-r3] env=0"}
	if got := f.waitRuns(t, 2); !cmp.Equal(want, got) {
		t.Errorf("at the end (-want +got):\n%s", cmp.Diff(want, got))
	}
	h.clock.Advance(2 * time.Hour)
	check()
	if got := f.waitRuns(t, 2); !cmp.Equal(want, got) {
		t.Errorf("after the deleted one's window (-want +got):\n%s", cmp.Diff(want, got))
	}
}
