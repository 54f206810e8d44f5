package command

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestKillInvalidDependLine: scontrol show job prints
// KillOInInvalidDependent= only for a job that asked either way, as on the
// Slurm 22.05 peer ("   Power=\n   KillOInInvalidDependent=No").
func TestKillInvalidDependLine(t *testing.T) {
	tests := map[string]struct {
		yes, no bool
		want    []string
	}{
		"--kill-on-invalid-dep=yes": {true, false, []string{"   KillOInInvalidDependent=Yes"}},
		"--kill-on-invalid-dep=no":  {false, true, []string{"   KillOInInvalidDependent=No"}},
		"not asked":                 {false, false, nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			j := &api.Job{JobID: 5, JobState: job.Pending, KillInvDep: tc.yes, NoKillInvDep: tc.no}
			var got []string
			for _, l := range strings.Split(string((&jobFormatter{}).appendJob(nil, j)), "\n") {
				if strings.Contains(l, "KillOInInvalidDependent") {
					got = append(got, l)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
		})
	}
}
