//go:build integration

package test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestNodePrologSrunS18N: with real daemons, srun whose job's node Prolog
// fails prints what the peer's srun prints (Slurm 22.05.8, Prolog exiting
// 1, srun -w cpu002 true) and exits 182, not "Job is not running" and 1.
func TestNodePrologSrunS18N(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "prolog.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	lc := startLive(t, clustertest.Spec{Nodes: 1, Extra: fmt.Sprintf("Prolog=%s\n", script)}, "")
	resp, err := lc.cl.Nodes(context.Background(), &api.NodeQuery{})
	if err != nil {
		t.Fatal(err)
	}
	node := resp.Nodes[0].Name
	code, _, stderr := lc.runTool("srun", "true")
	if code != 182 {
		t.Errorf("srun exit status %d, want 182; stderr:\n%s", code, stderr)
	}
	want := "srun: Prolog failure on node " + node + "\n" +
		"srun: error: Task launch for StepId=1.0 failed on node " + node + ": Job prolog failed\n" +
		"srun: error: Application launch failed: Job prolog failed\nsrun: Job step aborted\n"
	if diff := cmp.Diff(want, stderr); diff != "" {
		t.Errorf("srun's stderr (-want +got):\n%s", diff)
	}
}
