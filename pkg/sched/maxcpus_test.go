package sched_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/sched/schedtest"
)

// TestMaxCPUsPerNode replays the peer's imax partition (MaxCPUsPerNode=16
// over one 64-CPU GPU node): -w gpu003 -n20 waits with PartitionConfig, of two -n10
// jobs the second waits for Resources, and a job of another partition
// over the same node still starts beside them.
func TestMaxCPUsPerNode(t *testing.T) {
	tests := map[string]struct {
		running []sched.RunningJob
		pending []sched.PendingJob
		starts  map[string]int // job name -> CPUs started
		reasons map[string]sched.Reason
	}{
		"more than the bound on one node": {
			pending: []sched.PendingJob{schedtest.Job("j1").Partition("imax").GPUs(0).Nodes(1).CPUs(20).Build()},
			reasons: map[string]sched.Reason{"j1": sched.ReasonPartitionConfig},
		},
		"the bound holds beside the partition's jobs": {
			running: []sched.RunningJob{schedtest.Running("j9").Partition("imax").On("gpu003", 10, 0, nil).Build()},
			pending: []sched.PendingJob{
				schedtest.Job("j3").Partition("imax").GPUs(0).CPUs(10).Build(),
				schedtest.Job("j4").Partition("imax").GPUs(0).CPUs(6).Build(),
			},
			starts:  map[string]int{"j4": 6},
			reasons: map[string]sched.Reason{"j3": sched.ReasonResources},
		},
		"another partition's jobs do not count": {
			running: []sched.RunningJob{schedtest.Running("j9").Partition("igpu").On("gpu003", 40, 0, nil).Build()},
			pending: []sched.PendingJob{schedtest.Job("j2").Partition("imax").GPUs(0).CPUs(16).Build()},
			starts:  map[string]int{"j2": 16},
		},
		"the bound spreads -n over nodes": {
			pending: []sched.PendingJob{schedtest.Job("j5").Partition("imax2").GPUs(0).Nodes(0).CPUs(20).Build()},
			starts:  map[string]int{"j5": 20},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cfg := schedtest.Config()
			imax := schedtest.Partition("imax", "gpu003").Build()
			imax.MaxCPUsPerNode = 16
			imax2 := schedtest.Partition("imax2", "gpu00[3-4]").Build()
			imax2.MaxCPUsPerNode = 16
			cfg.Partitions = []sched.Partition{imax, imax2, schedtest.Partition("igpu", "gpu003").Build()}
			snap := &sched.Snapshot{Now: schedtest.Epoch, Nodes: schedtest.Nodes("gpu00[3-4]").CPUs(64).Build(),
				Running: tc.running, Pending: tc.pending}
			plan := sched.New(cfg).Cycle(snap)
			starts := map[string]int{}
			for _, s := range plan.Starts {
				for _, a := range s.Alloc {
					if a.CPUs > 16 {
						t.Errorf("job %d holds %d CPUs on %s, over the bound", s.Job, a.CPUs, a.Node)
					}
					starts[nameOf(s.Job)] += a.CPUs
				}
			}
			reasons := map[string]sched.Reason{}
			for _, p := range plan.Pending {
				reasons[nameOf(p.Job)] = p.Reason
			}
			if tc.starts == nil {
				tc.starts = map[string]int{}
			}
			if diff := cmp.Diff(tc.starts, starts); diff != "" {
				t.Errorf("starts (-want +got):\n%s", diff)
			}
			if len(tc.reasons) == 0 {
				tc.reasons = map[string]sched.Reason{}
			}
			if diff := cmp.Diff(tc.reasons, reasons); diff != "" {
				t.Errorf("reasons (-want +got):\n%s", diff)
			}
		})
	}
}

func nameOf(id sched.JobID) string { return fmt.Sprintf("j%d", id) }
