package sched_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/sched/schedtest"
)

// priorityOf runs one cycle over a single pending job on a 4-node, 256-CPU
// cluster and returns the change reported for it.
func priorityOf(t *testing.T, cfg sched.Config, usage []sched.Usage, job sched.PendingJob) sched.PriorityChange {
	t.Helper()
	snap := &sched.Snapshot{Now: schedtest.Epoch, Nodes: schedtest.Nodes("n[1-4]").Build(), Pending: []sched.PendingJob{job},
		Usage: usage}
	// Keep the job from starting: every node is drained, so it only waits.
	for i := range snap.Nodes {
		snap.Nodes[i].State = sched.NodeDrain
	}
	plan := sched.New(cfg).Cycle(snap)
	if len(plan.Priorities) != 1 {
		t.Fatalf("got %d priority changes, want 1", len(plan.Priorities))
	}
	return plan.Priorities[0]
}

func TestPriorityFactors(t *testing.T) {
	base := func() sched.Config {
		cfg := schedtest.Config()
		cfg.Priority = sched.PriorityConfig{WeightAge: 1000, WeightFairshare: 1000, WeightJobSize: 1000,
			WeightPartition: 1000, WeightQOS: 1000, MaxQOSPriority: 10, WeightCompensation: 100, CompensationCap: 250,
			MaxAge: 10 * time.Hour}
		cfg.Partitions = []sched.Partition{
			schedtest.Partition("normal", "n[1-4]").JobFactor(5).Aging(10, 30).Build(),
			schedtest.Partition("high", "n[1-4]").JobFactor(10).Build(),
		}
		cfg.Tenants = []sched.Tenant{schedtest.Tenant("a").Weight(3).Build(), schedtest.Tenant("b").Weight(1).Build()}
		cfg.Users = []sched.User{schedtest.User("u1", "a").Share(1).Build(), schedtest.User("u2", "a").Share(3).Build()}
		return cfg
	}
	usage := []sched.Usage{{Tenant: "a", GPUSec: 750}, {Tenant: "a", User: "u1", GPUSec: 750}, {Tenant: "b", GPUSec: 250}}
	now := schedtest.Epoch
	cases := map[string]struct {
		cfg   func() sched.Config
		job   sched.PendingJob
		want  int64
		wantF sched.PriorityFactors
	}{
		"age counts from eligibility, capped at MaxAge; aging is capped per queue": {
			cfg: base, job: schedtest.Job("j1").Tenant("b").User("x").CPUs(1).Submitted(now.Add(-20 * time.Hour)).Build(),
			// b used exactly its share: fair share 2^-1; size (1/4+1/256)/2.
			want:  1000 + 500 + 126 + 500 + 30,
			wantF: sched.PriorityFactors{Age: 1000, Fairshare: 500, JobSize: 126.953125, Partition: 500, Aging: 30},
		},
		"fair share: a user who did all of a big tenant's usage with a small share": {
			cfg: base, job: schedtest.Job("j2").Tenant("a").User("u1").CPUs(1).Build(),
			// S = 3/4 * 1/4; UE = 3/4; F = 2^-(0.75/0.1875) = 1/16.
			want:  689, // 62.5 + 126.95 + 500, truncated
			wantF: sched.PriorityFactors{Fairshare: 62.5, JobSize: 126.953125, Partition: 500},
		},
		"partition factor is normalized by the largest JobFactor; QOS by MaxQOSPriority": {
			cfg: base, job: schedtest.Job("j3").Tenant("b").User("x").CPUs(1).Partition("high").QOS(5).Build(),
			want:  500 + 126 + 1000 + 500,
			wantF: sched.PriorityFactors{Fairshare: 500, JobSize: 126.953125, Partition: 1000, QOS: 500},
		},
		"PriorityFavorSmall inverts the job size factor": {
			cfg: func() sched.Config { c := base(); c.Priority.FavorSmall = true; return c },
			job: schedtest.Job("j4").Tenant("b").User("x").Nodes(4).GPUsPerNode(1).CPUs(256).Build(),
			// A job of the whole machine is the largest: 1 - 1 = 0.
			want:  500 + 500,
			wantF: sched.PriorityFactors{Fairshare: 500, Partition: 500},
		},
		"nice is subtracted and the priority stays at least 1": {
			cfg: base, job: schedtest.Job("j5").Tenant("b").User("x").CPUs(1).Nice(5000).Build(),
			want:  1,
			wantF: sched.PriorityFactors{Fairshare: 500, JobSize: 126.953125, Partition: 500, Nice: 5000},
		},
		"a site factor is added as it is (the peer: 12 with SiteFactor=500 is 512)": {
			cfg: base, job: schedtest.Job("j10").Tenant("b").User("x").CPUs(1).SiteFactor(500).Build(),
			want:  500 + 126 + 500 + 500,
			wantF: sched.PriorityFactors{Fairshare: 500, JobSize: 126.953125, Partition: 500, Site: 500},
		},
		"a negative site factor leaves the priority at least 1 (the peer: 12-20 is 1)": {
			cfg: base, job: schedtest.Job("j11").Tenant("b").User("x").CPUs(1).SiteFactor(-2000).Build(),
			want:  1,
			wantF: sched.PriorityFactors{Fairshare: 500, JobSize: 126.953125, Partition: 500, Site: -2000},
		},
		"lost run time is compensated, up to the cap": {
			cfg: base, job: schedtest.Job("j6").Tenant("b").User("x").CPUs(1).LostRun("3h").Build(),
			want:  500 + 126 + 500 + 250,
			wantF: sched.PriorityFactors{Fairshare: 500, JobSize: 126.953125, Partition: 500, Compensation: 250},
		},
		"EASY has neither aging nor compensation, and ranks by Fair Tree": {
			cfg: func() sched.Config { c := base(); c.Policy = sched.PolicyEASY; return c },
			job: schedtest.Job("j7").Tenant("b").User("x").CPUs(1).LostRun("3h").Submitted(now.Add(-5 * time.Hour)).Build(),
			// a and b both used exactly their share (LF 1): tied, their
			// users rank together; x and u2 have no usage and share the
			// top rank, 3 of 3.
			want:  500 + 1000 + 126 + 500,
			wantF: sched.PriorityFactors{Age: 500, Fairshare: 1000, JobSize: 126.953125, Partition: 500},
		},
		"a job waiting on a dependency has a priority but no age: it is not eligible yet": {
			cfg: func() sched.Config { c := base(); c.Policy = sched.PolicyEASY; return c },
			job: schedtest.Job("j9").Tenant("b").User("x").CPUs(1).Hold(sched.HeldDependency).
				Submitted(now.Add(-5 * time.Hour)).Build(),
			want:  1000 + 126 + 500,
			wantF: sched.PriorityFactors{Fairshare: 1000, JobSize: 126.953125, Partition: 500},
		},
		"a held job has priority 0": {
			cfg: base, job: schedtest.Job("j8").Tenant("b").Hold(sched.HeldUser).PrevPriority(700).Build(),
			want: 0,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := priorityOf(t, tc.cfg(), usage, tc.job)
			if got.New != tc.want {
				t.Errorf("priority = %d, want %d (factors %+v)", got.New, tc.want, got.Factors)
			}
			if diff := cmp.Diff(tc.wantF, got.Factors, cmpopts.EquateApprox(0, 1e-6)); diff != "" {
				t.Errorf("factors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestJobSizeCountsDownNodes: the job size factor divides by the whole
// cluster, down nodes included, as Slurm's does, so a restart before the
// nodes have registered does not inflate it.
func TestJobSizeCountsDownNodes(t *testing.T) {
	cfg := schedtest.Config()
	cfg.Priority = sched.PriorityConfig{WeightJobSize: 1000, MaxAge: time.Hour}
	cfg.Partitions = []sched.Partition{schedtest.Partition("normal", "n[1-4]").Build()}
	job := schedtest.Job("j1").CPUs(1).Build()
	size := func(down int) float64 {
		snap := &sched.Snapshot{Now: schedtest.Epoch, Nodes: schedtest.Nodes("n[1-4]").Build(), Pending: []sched.PendingJob{job}}
		for i := range snap.Nodes {
			snap.Nodes[i].State = sched.NodeDrain
			if i < down {
				snap.Nodes[i].State = sched.NodeDown
			}
		}
		plan := sched.New(cfg).Cycle(snap)
		if len(plan.Priorities) != 1 {
			t.Fatalf("got %d priority changes, want 1", len(plan.Priorities))
		}
		return plan.Priorities[0].Factors.JobSize
	}
	if all, three := size(0), size(3); all != three {
		t.Errorf("job size %v with every node up, %v with three down: want the same", all, three)
	}
}

// TestJobSizeOfExclusive: an --exclusive job asks for no CPUs of its own;
// slurmctld's job size reads its minimum of a CPU a node, so -N2
// --exclusive of 4 nodes of 64 CPUs is (2/4 + 2/256)/2, as the peer's
// 483 for -N38 --exclusive on 40 nodes and 2,304 CPUs.
func TestJobSizeOfExclusive(t *testing.T) {
	cfg := schedtest.Config()
	cfg.Priority = sched.PriorityConfig{WeightJobSize: 1000, MaxAge: time.Hour}
	cfg.Partitions = []sched.Partition{schedtest.Partition("normal", "n[1-4]").Build()}
	job := schedtest.Job("j1").Nodes(2).Exclusive().Build()
	snap := &sched.Snapshot{Now: schedtest.Epoch, Nodes: schedtest.Nodes("n[1-4]").Build(), Pending: []sched.PendingJob{job}}
	for i := range snap.Nodes {
		snap.Nodes[i].State = sched.NodeDrain // pending, not started
	}
	plan := sched.New(cfg).Cycle(snap)
	if len(plan.Priorities) != 1 {
		t.Fatalf("got %d priority changes, want 1", len(plan.Priorities))
	}
	if diff := cmp.Diff(1000*(2.0/4+2.0/256)/2, plan.Priorities[0].Factors.JobSize, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("job size (-want +got):\n%s", diff)
	}
}

// TestFairTree checks the Slurm baselines' fair-share factor: tenants rank
// by shares over usage, their users depth first under them, and the k-th
// user of N gets (N-k+1)/N.
func TestFairTree(t *testing.T) {
	cfg := schedtest.Config()
	cfg.Policy = sched.PolicyEASY
	cfg.Priority = sched.PriorityConfig{WeightFairshare: 900}
	cfg.Partitions = []sched.Partition{schedtest.Partition("normal", "n[1-4]").Build()}
	cfg.Tenants = []sched.Tenant{schedtest.Tenant("a").Weight(1).Build(), schedtest.Tenant("b").Weight(1).Build()}
	cfg.Users = []sched.User{schedtest.User("u1", "a").Build(), schedtest.User("u3", "a").Build(),
		schedtest.User("u2", "b").Build()}
	// a used 90% with half the shares (LF 0.56), b 10% (LF 5): b's user
	// ranks first; in a, u3 (no usage) before u1.
	usage := []sched.Usage{{Tenant: "a", GPUSec: 900}, {Tenant: "a", User: "u1", GPUSec: 900},
		{Tenant: "b", GPUSec: 100}, {Tenant: "b", User: "u2", GPUSec: 100}}
	cases := map[string]struct {
		tenant, user string
		want         float64
	}{
		"the under-served tenant's user ranks first":         {"b", "u2", 900},
		"a user without usage ranks first within its tenant": {"a", "u3", 600},
		"the user who did the over-served tenant's usage":    {"a", "u1", 300},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := priorityOf(t, cfg, usage, schedtest.Job("j1").Tenant(tc.tenant).User(tc.user).CPUs(1).Build())
			if diff := cmp.Diff(tc.want, got.Factors.Fairshare, cmpopts.EquateApprox(0, 1e-6)); diff != "" {
				t.Errorf("fair-share factor (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPriorityChangesOnlyWhenDifferent: a job whose priority did not move
// is not reported again.
func TestPriorityChangesOnlyWhenDifferent(t *testing.T) {
	cfg := schedtest.Config()
	cfg.Priority = sched.PriorityConfig{WeightPartition: 1000}
	cfg.Partitions = []sched.Partition{schedtest.Partition("normal", "n1").Build()}
	snap := &sched.Snapshot{Now: schedtest.Epoch, Nodes: schedtest.Nodes("n1").State(sched.NodeDrain).Build(),
		Pending: []sched.PendingJob{schedtest.Job("j1").PrevPriority(1000).Build(), schedtest.Job("j2").Build()}}
	plan := sched.New(cfg).Cycle(snap)
	want := []sched.PriorityChange{{Job: 2, Old: 0, New: 1000, Factors: sched.PriorityFactors{Partition: 1000}}}
	if diff := cmp.Diff(want, plan.Priorities); diff != "" {
		t.Errorf("priority changes (-want +got):\n%s", diff)
	}
}
