package command

import (
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestSrunImmediate: srun --immediate for its own allocation, as the
// peer's srun gives it up while gpu001 is busy and -N40 --exclusive cannot
// start (no "has been revoked" line, unlike salloc): at once with -I,
// after "queued and waiting" with -I3 (here -I2; -I0 waits as without -I:
// TestSrunStepSharingOptions).
func TestSrunImmediate(t *testing.T) {
	pending := api.Allocation{JobID: 7, State: job.Pending}
	tests := map[string]srunCase{
		"-I, busy": {
			args: []string{"-I", "true"}, waits: []api.Allocation{pending},
			wantCode:   1,
			wantStderr: "srun: error: Unable to allocate resources: Requested nodes are busy\n",
		},
		"-I2, busy": {
			args: []string{"--immediate=2", "true"}, waits: []api.Allocation{pending, pending},
			wantCode: 1,
			wantStderr: "srun: job 7 queued and waiting for resources\n" +
				"srun: error: Unable to allocate resources: Requested nodes are busy\n",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) { runSrunCase(t, tc) })
	}
}
