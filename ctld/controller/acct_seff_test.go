package controller

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/job"
)

// TestSeffAcctMemoryRequest: the accounting record carries the job's
// memory request as asked, per CPU or per node (Slurm's req_mem and its
// per-CPU flag), which seff divides by; the cluster's DefMemPerCPU counts
// as a per-CPU request.
func TestSeffAcctMemoryRequest(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	def := h.c.confNow().conf.DefMemPerCPU
	type mem struct{ PerCPU, PerNode int64 }
	cases := map[string]struct {
		req  func(r *job.Request)
		want mem
	}{
		"--mem":         {func(r *job.Request) { r.MemPerNode = new(int64(1024)) }, mem{PerNode: 1024}},
		"--mem-per-cpu": {func(r *job.Request) { r.MemPerCPU = new(int64(500)) }, mem{PerCPU: 500}},
		"no request":    {func(*job.Request) {}, mem{PerCPU: def}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true; tc.req(r) }))
			h.c.mu.RLock()
			a := h.c.acctJob(h.c.jobs[id], 0)
			h.c.mu.RUnlock()
			if diff := cmp.Diff(tc.want, mem{a.MemPerCPU, a.MemPerNode}); diff != "" {
				t.Errorf("memory request (-want +got):\n%s", diff)
			}
		})
	}
}
