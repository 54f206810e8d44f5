package schedengine

import (
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/job"
)

// TestPartitionStateReasons: the partition's live State (as scontrol
// update PartitionName=... State= sets it) reaches the scheduler through
// Reconfigure: DOWN keeps jobs pending with PartitionDown, INACTIVE with
// PartitionInactive (as the peer shows them), DRAIN starts queued jobs.
func TestPartitionStateReasons(t *testing.T) {
	tests := map[string]struct {
		state      string
		wantReason job.Reason
		wantStart  bool
	}{
		"down":     {state: "DOWN", wantReason: job.ReasonPartitionDown},
		"inactive": {state: "INACTIVE", wantReason: job.ReasonPartitionInactive},
		"drain":    {state: "DRAIN", wantStart: true},
		"up":       {state: "UP", wantStart: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			e := newEngine(t)
			next := *e.conf
			next.Partitions = slices.Clone(e.conf.Partitions)
			next.Partitions[0].State = tc.state
			if err := e.Reconfigure(&next); err != nil {
				t.Fatal(err)
			}
			j := ej(e)
			if err := e.Submit(j); err != nil {
				t.Fatal(err)
			}
			res := e.Cycle(time.Unix(2000, 0))
			var reason job.Reason
			for _, p := range res.Pending {
				if p.JobID == j.ID {
					reason = p.Reason
				}
			}
			got := []any{len(res.Launches) == 1, reason}
			if diff := cmp.Diff([]any{tc.wantStart, tc.wantReason}, got); diff != "" {
				t.Errorf("State=%s (-want +got):\n%s", tc.state, diff)
			}
		})
	}
}
