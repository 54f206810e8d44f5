package sched_test

import (
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/sched/schedtest"
)

// TestCheckPlanAdminWindows: CheckPlan refuses starts that break an admin
// reservation (the scenario files run it on every cycle).
func TestCheckPlanAdminWindows(t *testing.T) {
	now := schedtest.Epoch
	cfg := schedtest.Config()
	cfg.Partitions = []sched.Partition{schedtest.Partition("normal", "n[1-3]").Build()}
	base := func() *sched.Snapshot {
		return &sched.Snapshot{Now: now, Nodes: schedtest.Nodes("n[1-3]").Build(),
			Pending: []sched.PendingJob{
				schedtest.Job("j1").GPUs(1).Limit("1h").Build(),
				func() sched.PendingJob {
					j := schedtest.Job("j2").GPUs(1).Limit("1h").Build()
					j.Reservation = "later"
					return j
				}(),
			},
			AdminReservations: []sched.AdminReservation{
				{Name: "now", Start: now, End: now.Add(time.Hour), Nodes: []string{"n1"}, Maint: true},
				{Name: "later", Start: now.Add(30 * time.Minute), End: now.Add(2 * time.Hour), Nodes: []string{"n2"}},
			}}
	}
	start := func(job sched.JobID, node string) *sched.Plan {
		return &sched.Plan{Now: now, Starts: []sched.Start{{Job: job, Partition: "normal",
			Alloc: []sched.NodeAlloc{{Node: node, CPUs: 1, GPUs: []int{0}}}}}}
	}
	tests := map[string]struct {
		plan *sched.Plan
		want string // "" for no violation
	}{
		"a job outside them on a free node": {start(1, "n3"), ""},
		"a job inside an open window":       {start(1, "n1"), "inside reservation now"},
		"a job that would run into one":     {start(1, "n2"), "would run into reservation later"},
		"a job before its reservation":      {start(2, "n2"), "before its reservation later"},
		"a job outside its reservation":     {start(2, "n3"), "outside it"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			snap := base()
			snap.Pending = snap.Pending[tc.plan.Starts[0].Job-1 : tc.plan.Starts[0].Job] // the started job alone
			err := sched.CheckPlan(&cfg, snap, tc.plan)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("CheckPlan = %v, want no violation", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("CheckPlan = %v, want %q", err, tc.want)
			}
		})
	}
}
