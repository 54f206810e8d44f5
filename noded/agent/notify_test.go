package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/client"
)

// TestNotifyWritesToStandardError: scontrol notify's message lands in the
// batch step's error file (its own, here, apart from its output) between
// the script's lines; a job the node does not run answers Unknown.
func TestNotifyWritesToStandardError(t *testing.T) {
	needRoot(t)
	h := startAgent(t, newCluster(t))
	marks := t.TempDir()
	gate, ready := filepath.Join(marks, "gate"), filepath.Join(marks, "ready")
	req := h.job(51, `echo before >&2; touch `+ready+`; while [ ! -e `+gate+` ]; do sleep 0.1; done; echo after >&2`)
	req.StdErr = filepath.Join(req.WorkDir, "err")
	h.launch(req)
	h.startedJob(51)
	waitFile(t, ready)
	ctx := context.Background()
	ctld := client.NewNoded(auth.NewSigner(h.cl.Key, ControllerSender), wait)
	resp, err := ctld.NotifyJob(ctx, h.node.Addr, &api.NotifyRequest{JobID: 51, Message: "hello there"})
	if err != nil || resp.Unknown {
		t.Fatalf("notify = %+v, %v", resp, err)
	}
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	h.ended(51)
	got, err := os.ReadFile(req.StdErr)
	if err != nil {
		t.Fatal(err)
	}
	want := "before\nslurmstepd-" + h.node.Name + ": error: hello there\nafter\n"
	if string(got) != want {
		t.Errorf("error file = %q, want %q", got, want)
	}
	if out := readOut(t, req); out != "" {
		t.Errorf("output file = %q, want nothing", out)
	}
	resp, err = ctld.NotifyJob(ctx, h.node.Addr, &api.NotifyRequest{JobID: 51, Message: "late"})
	if err != nil || !resp.Unknown {
		t.Errorf("notify of an ended job = %+v, %v; want Unknown", resp, err)
	}
}
