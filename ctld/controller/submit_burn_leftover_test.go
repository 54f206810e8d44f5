package controller

import (
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// TestRefusalJobIDLife: which refusals use up a job id, as on the Slurm
// 22.05 peer, where jobs were submitted around each refused one: -p
// nosuch (17841 -> 17842), -w nosuch (17824 -> 17825) and --gres=foo:1
// (17810 -> 17811) keep the id; -C nosuchfeature (17832 -> 17834) uses
// one up, as Loam's admission refusals do. Only a request no node
// configuration can hold names the id it used up (the peer's salloc
// --mem=999999999: "Job allocation 22869 has been revoked."; -C
// nosuchfeature prints no id).
func TestRefusalJobIDLife(t *testing.T) {
	tests := map[string]struct {
		req       job.Request
		wantCode  api.Code
		wantNext  uint32
		wantNamed uint32 // the id the refusal carries
	}{
		"unknown partition": {req: simpleJob(func(r *job.Request) { r.Partitions = []string{"nosuch"} }),
			wantCode: api.CodeInvalidPartitionName, wantNext: 2},
		"unknown node": {req: simpleJob(func(r *job.Request) { r.NodeList = "nosuch" }),
			wantCode: api.CodeInvalidNodeName, wantNext: 2},
		"unknown gres": {req: simpleJob(func(r *job.Request) { r.GRES = []resource.GRES{{Name: "foo", Count: 1}} }),
			wantCode: api.CodeInvalidGRES, wantNext: 2},
		"unknown feature": {req: simpleJob(func(r *job.Request) { r.Constraint = "nosuchfeature" }),
			wantCode: api.CodeInvalidFeature, wantNext: 3},
		"more GPUs than a node has": {req: simpleJob(func(r *job.Request) { r.GRES = []resource.GRES{{Name: "gpu", Count: 9}} }),
			wantCode: api.CodeNodeConfigUnavailable, wantNext: 3, wantNamed: 2},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			if first := h.mustSubmit(54321, simpleJob()); first != 1 {
				t.Fatalf("first job id %d, want 1", first)
			}
			_, err := h.submit(54321, tc.req)
			if err == nil || err.Code != tc.wantCode {
				t.Fatalf("submit error %v, want code %s", err, tc.wantCode)
			}
			if err.JobID != tc.wantNamed {
				t.Errorf("refusal names job %d, want %d", err.JobID, tc.wantNamed)
			}
			if next := h.mustSubmit(54321, simpleJob()); next != tc.wantNext {
				t.Errorf("next job id %d, want %d", next, tc.wantNext)
			}
		})
	}
}
