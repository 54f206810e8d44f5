package sched_test

import (
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/sched/schedtest"
)

// checkFixture is a small cluster: n1 and n2 with 8 GPUs and 64 CPUs in
// partition normal, n3 in the strict partition exact; tenant a guaranteed
// 16 GPUs but capped at 12; j1 runs on n1 GPUs 0-3; j2 runs in batch and started 5 minutes
// ago; j3 reserves n2 GPUs 0-3 from +1h; j4 (strict) reserves n3 from +1h.
func checkFixture() (sched.Config, *sched.Snapshot) {
	cfg := schedtest.Config()
	cfg.PreemptExemptTime = 10 * time.Minute
	cfg.Partitions = []sched.Partition{
		schedtest.Partition("normal", "n[1-2]").Tier(2).Build(),
		schedtest.Partition("exact", "n3").Tier(2).Strict().Build(),
		schedtest.Partition("batch", "n[1-2]").Tier(1).Preempt(sched.PreemptRequeue, "5m").Build(),
		schedtest.Partition("urgent", "n[1-2]").Tier(3).Class(sched.ClassUrgent).Build(),
	}
	cfg.Tenants = []sched.Tenant{schedtest.Tenant("a").Guarantee(16).CapGPUs(12).Build()}
	now := schedtest.Epoch
	snap := &sched.Snapshot{Now: now, Nodes: schedtest.Nodes("n[1-3]").Build()}
	snap.Running = []sched.RunningJob{
		schedtest.Running("j1").On("n1", 4, 0, []int{0, 1, 2, 3}).Build(),
		schedtest.Running("j2").Partition("batch").Started(now.Add(-5*time.Minute)).On("n2", 4, 0, []int{4, 5, 6, 7}).Build(),
	}
	snap.Pending = []sched.PendingJob{
		schedtest.Job("j3").GPUs(8).Build(),
		schedtest.Job("j4").Partition("exact").GPUs(8).Build(),
		schedtest.Job("j10").GPUs(4).Limit("2h").Build(),
		schedtest.Job("j11").GPUs(2).Limit("30m").Partition("exact").Build(),
		schedtest.Job("j12").GPUs(2).Partition("urgent").Build(),
	}
	snap.Reservations = []sched.Reservation{
		{Job: 3, Partition: "normal", Created: now, PlannedStart: now.Add(time.Hour),
			Alloc: []sched.NodeAlloc{{Node: "n2", CPUs: 8, GPUs: []int{0, 1, 2, 3}}}},
		{Job: 4, Partition: "exact", Created: now, PlannedStart: now.Add(time.Hour),
			Alloc: []sched.NodeAlloc{{Node: "n3", CPUs: 8, GPUs: []int{0, 1}}}},
	}
	return cfg, snap
}

// pendingAll gives every pending job but the started ones an entry.
func pendingAll(snap *sched.Snapshot, started ...sched.JobID) []sched.Pending {
	var out []sched.Pending
	for _, j := range snap.Pending {
		skip := false
		for _, s := range started {
			skip = skip || s == j.ID
		}
		if !skip {
			out = append(out, sched.Pending{Job: j.ID, Reason: sched.ReasonPriority})
		}
	}
	return out
}

func start(id sched.JobID, part, node string, cpus int, gpus ...int) sched.Start {
	return sched.Start{Job: id, Partition: part, Alloc: []sched.NodeAlloc{{Node: node, CPUs: cpus, GPUs: gpus}}}
}

func TestCheckPlanCatchesViolations(t *testing.T) {
	cases := map[string]struct {
		plan    func(snap *sched.Snapshot) *sched.Plan
		wantErr string // empty: the plan is valid
	}{
		"a valid start on free GPUs": {
			plan: func(s *sched.Snapshot) *sched.Plan {
				return &sched.Plan{Now: s.Now, Starts: []sched.Start{start(10, "normal", "n1", 4, 4, 5, 6, 7)},
					Pending: pendingAll(s, 10)}
			},
		},
		"a GPU given twice": {
			plan: func(s *sched.Snapshot) *sched.Plan {
				return &sched.Plan{Now: s.Now, Starts: []sched.Start{start(10, "normal", "n1", 4, 3, 4, 5, 6)},
					Pending: pendingAll(s, 10)}
			},
			wantErr: "GPU 3 of node n1 given to job 10 while job 1 holds it",
		},
		"CPUs over the node's": {
			plan: func(s *sched.Snapshot) *sched.Plan {
				return &sched.Plan{Now: s.Now, Starts: []sched.Start{start(10, "normal", "n1", 61, 4, 5, 6, 7)},
					Pending: pendingAll(s, 10)}
			},
			wantErr: "node n1 over-allocated by job 10",
		},
		"a node outside the partition": {
			plan: func(s *sched.Snapshot) *sched.Plan {
				return &sched.Plan{Now: s.Now, Starts: []sched.Start{start(10, "normal", "n3", 4, 4, 5, 6, 7)},
					Pending: pendingAll(s, 10)}
			},
			wantErr: "outside partition normal",
		},
		"the tenant's cap exceeded": {
			plan: func(s *sched.Snapshot) *sched.Plan {
				return &sched.Plan{Now: s.Now, Starts: []sched.Start{
					start(10, "normal", "n1", 4, 4, 5, 6, 7), start(12, "urgent", "n2", 2, 4, 5)},
					Pending: pendingAll(s, 10, 12)}
			},
			wantErr: "tenant GPUs to 14, over the limit 12",
		},
		"a job that ends after the planned start uses reserved GPUs": {
			plan: func(s *sched.Snapshot) *sched.Plan {
				return &sched.Plan{Now: s.Now, Starts: []sched.Start{start(10, "normal", "n2", 4, 0, 1, 2, 3)},
					Pending: pendingAll(s, 10)}
			},
			wantErr: "reserved for job 3",
		},
		"a short job uses a strict reservation": {
			plan: func(s *sched.Snapshot) *sched.Plan {
				return &sched.Plan{Now: s.Now, Starts: []sched.Start{start(11, "exact", "n3", 2, 0, 1)},
					Pending: pendingAll(s, 11)}
			},
			wantErr: "held by strict reservation of job 4",
		},
		"a pending job without an entry": {
			plan: func(s *sched.Snapshot) *sched.Plan {
				return &sched.Plan{Now: s.Now, Pending: pendingAll(s)[1:]}
			},
			wantErr: "job 3 has 0 pending entries, want 1",
		},
		"a pending entry without a reason": {
			plan: func(s *sched.Snapshot) *sched.Plan {
				p := pendingAll(s)
				p[0].Reason = ""
				return &sched.Plan{Now: s.Now, Pending: p}
			},
			wantErr: "pending job 3 has no reason",
		},
		"a victim inside its exempt time": {
			plan: func(s *sched.Snapshot) *sched.Plan {
				return &sched.Plan{Now: s.Now, Pending: pendingAll(s),
					Preemptions: []sched.Preemption{{Victim: 2, Beneficiary: 12, Reason: sched.PreemptUrgent}}}
			},
			wantErr: "job 2 preempted inside its exempt time",
		},
		"a victim of a tier that is not lower": {
			plan: func(s *sched.Snapshot) *sched.Plan {
				return &sched.Plan{Now: s.Now.Add(time.Hour), Pending: pendingAll(s),
					Preemptions: []sched.Preemption{{Victim: 1, Beneficiary: 12, Reason: sched.PreemptUrgent}}}
			},
			wantErr: "job 12 may not preempt job 1",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg, snap := checkFixture()
			err := sched.CheckPlan(&cfg, snap, tc.plan(snap))
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("CheckPlan = %v, want no error", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("CheckPlan = %v, want an error containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestCheckPlanRejectsNil(t *testing.T) {
	if err := sched.CheckPlan(nil, nil, nil); err == nil {
		t.Error("CheckPlan(nil, nil, nil) = nil, want an error")
	}
}

// TestCheckPlanLenderOnBorrowedHold: under Loam a lender's job that runs on
// its own guarantee may start on GPUs held for a job that would borrow,
// even if it ends after that reservation's planned start.
func TestCheckPlanLenderOnBorrowedHold(t *testing.T) {
	setup := func(bGuarantee int64) (sched.Config, *sched.Snapshot) {
		cfg := schedtest.Config()
		cfg.Partitions = []sched.Partition{schedtest.Partition("normal", "n[1-2]").Tier(2).Build()}
		cfg.Tenants = []sched.Tenant{schedtest.Tenant("a").Guarantee(8).Build(),
			schedtest.Tenant("b").Guarantee(bGuarantee).Borrow(16).Build()}
		now := schedtest.Epoch
		snap := &sched.Snapshot{Now: now, Nodes: schedtest.Nodes("n[1-2]").Build()}
		snap.Running = []sched.RunningJob{schedtest.Running("j1").Tenant("b").On("n1", 8, 0, []int{0, 1, 2, 3, 4, 5, 6, 7}).Build()}
		snap.Pending = []sched.PendingJob{schedtest.Job("j3").Tenant("b").GPUs(8).Build(),
			schedtest.Job("j10").Tenant("a").GPUs(4).Limit("2h").Build()}
		snap.Reservations = []sched.Reservation{{Job: 3, Partition: "normal", Created: now, PlannedStart: now.Add(time.Hour),
			Alloc: []sched.NodeAlloc{{Node: "n2", CPUs: 8, GPUs: []int{0, 1, 2, 3, 4, 5, 6, 7}}}}}
		return cfg, snap
	}
	cases := map[string]struct {
		bGuarantee int64
		borrowed   bool
		wantErr    string
	}{
		"owned GPUs, the reservation's job would borrow: allowed": {bGuarantee: 8},
		"borrowed GPUs: the job is no lender":                     {bGuarantee: 8, borrowed: true, wantErr: "reserved for job 3"},
		"the reservation's job runs on its own guarantee":         {bGuarantee: 16, wantErr: "reserved for job 3"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			cfg, snap := setup(tc.bGuarantee)
			st := start(10, "normal", "n2", 4, 0, 1, 2, 3)
			st.Alloc[0].Borrowed = []bool{tc.borrowed, tc.borrowed, tc.borrowed, tc.borrowed}
			plan := &sched.Plan{Now: snap.Now, Starts: []sched.Start{st}, Pending: pendingAll(snap, 10)}
			err := sched.CheckPlan(&cfg, snap, plan)
			// Only the reservation rule is under test; limits may object
			// to the hand-made labels.
			switch {
			case tc.wantErr == "" && err != nil && strings.Contains(err.Error(), "reserved for"):
				t.Errorf("CheckPlan = %v, want no reservation error", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("CheckPlan = %v, want an error containing %q", err, tc.wantErr)
			}
		})
	}
}
