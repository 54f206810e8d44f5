package controller

import (
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestSubmitRefusesWhatCouldNeverRun: through the API, sbatch and
// sbatch --test-only refuse what the peer Slurm accepted and then left
// pending forever or failed at start.
func TestSubmitRefusesWhatCouldNeverRun(t *testing.T) {
	h := newHarness(t)
	tests := map[string]struct {
		mod  func(r *job.Request)
		want api.Code
	}{
		"-N 999":                  {func(r *job.Request) { r.MinNodes, r.NodesSet = 999, true }, api.CodeInvalidNodeCount},
		"-N 0":                    {func(r *job.Request) { r.MinNodes, r.MaxNodes, r.NodesSet = 0, 0, true }, api.CodeInvalidNodeCount},
		"-n 100000":               {func(r *job.Request) { r.NTasks = 100000 }, api.CodeTooManyCPUs},
		"afterok on a missing id": {func(r *job.Request) { r.Dependency = "afterok:99999" }, api.CodeDependency},
		"an unknown QOS":          {func(r *job.Request) { r.QOS = "nosuch" }, api.CodeInvalidQOS},
		"a missing output dir":    {func(r *job.Request) { r.StdOut = "/nonexistent/loam/out-%j" }, api.CodeOutputDirMissing},
		"a missing workdir":       {func(r *job.Request) { r.WorkDir = "/nonexistent/loam" }, api.CodeWorkDirUnusable},
		"a missing --data path":   {func(r *job.Request) { r.DataPaths = []string{"/nonexistent/set"} }, api.CodeDataPathUnusable},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			for _, testOnly := range []bool{false, true} {
				r := simpleJob(tc.mod)
				var out api.SubmitResponse
				err := h.call(alice, api.PathSubmit, api.SubmitRequest{Job: r, TestOnly: testOnly}, &out)
				if err == nil || err.Code != tc.want {
					t.Errorf("test-only %t: %v, want %s", testOnly, err, tc.want)
				}
			}
		})
	}
	if id, err := h.submit(alice, simpleJob()); err != nil || id == 0 {
		t.Errorf("a job that can run: %d %v", id, err)
	}
}
