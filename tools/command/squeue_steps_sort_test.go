package command

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
)

// peerSortSteps are the steps of the peer's recording: a job with a batch
// step and step 0, three single-node jobs started a little earlier, and
// two started tasks of array 20140 (raw ids 20152 and 20153).
func peerSortSteps(now int64) []step {
	task := func(n int) *int { return &n }
	mk := func(id uint32, arr uint32, t *int, part, node string, age int64, stepID string) step {
		j := &api.Job{JobID: id, ArrayJobID: arr, ArrayTaskID: t, Partition: part, UserName: "root",
			StartTime: now - age, BatchHost: node}
		return step{j: j, id: stepID, now: now}
	}
	// Listed in an order unlike the controller's, to show the base order.
	return []step{
		mk(20153, 20140, task(1), "normal", "cpu001", 68, "batch"),
		mk(20139, 0, nil, "normal", "cpu001", 68, "0"),
		mk(20143, 0, nil, "normal", "gpu003", 73, "batch"),
		mk(20142, 0, nil, "urgent", "cpu001", 75, "batch"),
		mk(20141, 0, nil, "batch", "cpu001", 73, "batch"),
		mk(20152, 20140, task(0), "normal", "cpu001", 68, "batch"),
		mk(20139, 0, nil, "normal", "cpu001", 68, "batch"),
	}
}

// TestSqueueStepSortPeer: squeue -s orders as the peer did for the same
// steps (its STEPID column, in order).
func TestSqueueStepSortPeer(t *testing.T) {
	cases := map[string]struct {
		spec string
		want []string
	}{
		"default is partition then step id, numbered steps before batch": {"",
			[]string{"20141.batch", "20139.0", "20139.batch", "20143.batch", "20140_0.batch", "20140_1.batch", "20142.batch"}},
		"a key every step shares keeps the controller's order": {"u",
			[]string{"20139.batch", "20139.0", "20140_0.batch", "20141.batch", "20142.batch", "20143.batch", "20140_1.batch"}},
		"cluster keeps the controller's order": {"cluster",
			[]string{"20139.batch", "20139.0", "20140_0.batch", "20141.batch", "20142.batch", "20143.batch", "20140_1.batch"}},
		"unknown letters sort nothing": {"z,b",
			[]string{"20139.batch", "20139.0", "20140_0.batch", "20141.batch", "20142.batch", "20143.batch", "20140_1.batch"}},
		"step id descending": {"-i",
			[]string{"20140_1.batch", "20140_0.batch", "20143.batch", "20142.batch", "20141.batch", "20139.batch", "20139.0"}},
		"both keys descending": {"-P,-i",
			[]string{"20142.batch", "20140_1.batch", "20140_0.batch", "20143.batch", "20139.batch", "20139.0", "20141.batch"}},
		"node list then longest running": {"N,-M",
			[]string{"20142.batch", "20141.batch", "20139.batch", "20139.0", "20140_0.batch", "20140_1.batch", "20143.batch"}},
		"user id then start": {"U,S",
			[]string{"20142.batch", "20141.batch", "20143.batch", "20139.batch", "20139.0", "20140_0.batch", "20140_1.batch"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			steps := peerSortSteps(1000)
			sortSteps(steps, tc.spec, 1000)
			var got []string
			for i := range steps {
				got = append(got, stepIDString(&steps[i]))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
		})
	}
}
