package cluster

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/sched"
)

// A --no-kill job that lost a node keeps the rest: the lost node's CPUs,
// memory and GPUs are free again, the job's running view holds one node,
// and its end frees only what it still held.
func TestDropNodeFreesOnlyThatNode(t *testing.T) {
	c := newTestCluster(t, 2)
	mustSubmit(t, c, spec(1, 4))
	acts := mustApply(t, c, startPlan(at(10), 1, alloc("gpu01", 0, 1), alloc("gpu02", 2, 3)))
	kept := acts[0].Alloc[0] // as the start laid it out
	if kept.Node != "gpu01" || len(acts[0].Alloc) != 2 {
		t.Fatalf("start allocation %+v, want gpu01 then gpu02", acts[0].Alloc)
	}
	if err := c.DropNode(1, "gpu02", at(20)); err != nil {
		t.Fatalf("DropNode: %v", err)
	}
	if u, _ := c.Used("gpu02"); u != (NodeUse{}) {
		t.Errorf("gpu02 used after the drop = %+v, want nothing", u)
	}
	if u, _ := c.Used("gpu01"); u != (NodeUse{CPUs: kept.CPUs, MemMB: kept.MemMB, GPUs: len(kept.GPUs), Jobs: 1}) {
		t.Errorf("gpu01 used after the drop = %+v", u)
	}
	snap := c.Snapshot(at(20))
	if diff := cmp.Diff([]sched.NodeAlloc{kept}, snap.Running[0].Alloc); diff != "" {
		t.Errorf("running allocation (-want +got):\n%s", diff)
	}
	if err := c.End(1, at(30)); err != nil {
		t.Fatalf("End: %v", err)
	}
	for _, n := range []string{"gpu01", "gpu02"} {
		if u, _ := c.Used(n); u != (NodeUse{}) {
			t.Errorf("%s used after the end = %+v, want nothing", n, u)
		}
	}
}

func TestDropNodeRefuses(t *testing.T) {
	tests := map[string]struct {
		job     sched.JobID
		node    string
		wantErr error
	}{
		"a node the job does not hold": {job: 1, node: "gpu02", wantErr: ErrInvalid},
		"the job's only node":          {job: 1, node: "gpu01", wantErr: ErrInvalid},
		"a job that does not run":      {job: 2, node: "gpu01", wantErr: ErrJobState},
		"an unknown job":               {job: 9, node: "gpu01", wantErr: ErrUnknownJob},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := newTestCluster(t, 2)
			mustSubmit(t, c, spec(1, 1))
			mustApply(t, c, startPlan(at(0), 1, alloc("gpu01", 0)))
			mustSubmit(t, c, spec(2, 1))
			if err := c.DropNode(tc.job, tc.node, at(5)); !errors.Is(err, tc.wantErr) {
				t.Fatalf("DropNode = %v, want %v", err, tc.wantErr)
			}
			if u, _ := c.Used("gpu01"); u.CPUs != 1 {
				t.Errorf("gpu01 used = %+v, want job 1's CPU still held", u)
			}
		})
	}
}
