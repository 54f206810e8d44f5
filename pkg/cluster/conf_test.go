package cluster

import (
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

func loadTestConf(t *testing.T) *slurmconf.Config {
	t.Helper()
	cfg, err := slurmconf.Load(os.DirFS("testdata/conf"), "slurm.conf")
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	return cfg
}

func TestSchedConfig(t *testing.T) {
	got := SchedConfig(loadTestConf(t), sched.PolicyEASY)
	u := sched.Unlimited
	all := []string{"gpu01", "gpu02", "gpu03", "gpu04", "big01", "cpu01"}
	gpus := all[:4]
	want := sched.Config{
		Policy: sched.PolicyEASY,
		Partitions: []sched.Partition{
			{Name: "urgent", Class: sched.ClassUrgent, Tier: 3, JobFactor: 1, Nodes: gpus, Up: true, MaxTime: 24 * time.Hour,
				AgingRate: 200, AgingCap: 2400, ReservationDepth: 2, ReservationTimeout: 30 * time.Minute,
				ReservationCooldown: 10 * time.Minute, Strict: true, PreemptMode: sched.PreemptRequeue,
				GraceTime: 120 * time.Second, AllowAccounts: []string{"prod"}},
			{Name: "normal", Class: sched.ClassNormal, Tier: 2, JobFactor: 1, Nodes: all, Up: true, MaxTime: 48 * time.Hour,
				DefaultTime: time.Hour, AgingRate: 100, AgingCap: 2400, ReservationDepth: 3, ReservationTimeout: 2 * time.Hour,
				ReservationCooldown: 15 * time.Minute, PreemptMode: sched.PreemptRequeue},
			{Name: "batch", Class: sched.ClassBatch, Tier: 1, JobFactor: 1, Nodes: gpus, MaxNodes: 2,
				AgingRate: 50, AgingCap: 7200, ReservationDepth: 1, ReservationTimeout: 6 * time.Hour,
				ReservationCooldown: time.Hour, PreemptMode: sched.PreemptCancel, DenyAccounts: []string{"prod"}},
		},
		Tenants: []sched.Tenant{
			{Name: "research", Weight: 50, Guarantee: sched.TRES{CPU: 128, GPU: 16}, Cap: sched.TRES{CPU: u, MemMB: u, GPU: 24, Node: u},
				BorrowLimit: sched.TRES{CPU: u, MemMB: u, GPU: 8, Node: u}, LendLimit: sched.TRES{CPU: 128, GPU: 16},
				MaxPerUser: sched.TRES{CPU: u, MemMB: u, GPU: 8, Node: u}, MaxJobsPerUser: 100, MaxSubmitJobsPerUser: u, GrpJobs: u},
			{Name: "prod", Weight: 30, Guarantee: sched.TRES{GPU: 8}, Cap: sched.TRES{CPU: u, MemMB: u, GPU: 12, Node: 3},
				BorrowLimit: sched.TRES{CPU: u, MemMB: u, GPU: u, Node: u}, LendLimit: sched.TRES{GPU: 4},
				MaxPerUser: sched.TRES{CPU: u, MemMB: u, GPU: u, Node: u}, MaxJobsPerUser: 100, MaxSubmitJobsPerUser: u, GrpJobs: 50},
			{Name: "data", Weight: 20, Cap: sched.TRES{CPU: u, MemMB: u, GPU: u, Node: u},
				BorrowLimit: sched.TRES{CPU: u, MemMB: u, GPU: u, Node: u},
				MaxPerUser:  sched.TRES{CPU: u, MemMB: u, GPU: u, Node: u}, MaxJobsPerUser: 100, MaxSubmitJobsPerUser: u, GrpJobs: u},
		},
		Users: []sched.User{
			{Name: "alice", Tenant: "research", Share: 2, Max: sched.TRES{CPU: u, MemMB: u, GPU: 4, Node: u}, MaxJobs: 10, MaxSubmitJobs: u},
			{Name: "alice", Tenant: "prod", Share: 2, Max: sched.TRES{CPU: u, MemMB: u, GPU: 4, Node: u}, MaxJobs: 10, MaxSubmitJobs: u},
			{Name: "bob", Tenant: "data", Share: 1, Max: sched.TRES{CPU: u, MemMB: u, GPU: u, Node: u}, MaxJobs: u, MaxSubmitJobs: u},
		},
		Priority: sched.PriorityConfig{WeightAge: 1000, WeightFairshare: 10000, WeightJobSize: 500, WeightPartition: 2000,
			WeightQOS: 100, WeightCompensation: 100, MaxAge: 24 * time.Hour, DecayHalfLife: 7 * 24 * time.Hour, FavorSmall: true},
		PreemptExemptTime: 10 * time.Minute,
		Switches: []sched.Switch{{Name: "leaf1", Nodes: []string{"gpu01", "gpu02"}},
			{Name: "leaf2", Nodes: []string{"gpu03", "gpu04", "big01"}}, {Name: "spine", Switches: []string{"leaf1", "leaf2"}}},
		Backfill: sched.Backfill{Window: 24 * time.Hour, MaxJobTest: 500},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SchedConfig (-want +got):\n%s", diff)
	}
}

func TestNodes(t *testing.T) {
	want := []sched.Node{
		{Name: "gpu01", CPUs: 64, MemMB: 512000, GPUs: 8, GPUType: "h100", Features: []string{"gpu", "h100"}, Weight: 10},
		{Name: "gpu02", CPUs: 64, MemMB: 512000, GPUs: 8, GPUType: "h100", Features: []string{"gpu", "h100"}, Weight: 10},
		{Name: "gpu03", CPUs: 64, MemMB: 512000, GPUs: 8, GPUType: "h100", Features: []string{"gpu", "h100"}, Weight: 10},
		{Name: "gpu04", CPUs: 64, MemMB: 512000, GPUs: 8, GPUType: "h100", Features: []string{"gpu", "h100"}, Weight: 10},
		{Name: "big01", State: sched.NodeDrain, CPUs: 128, MemMB: 1024000, GPUs: 8, Weight: 1},
		{Name: "cpu01", State: sched.NodeDown, CPUs: 32, MemMB: 128000, Weight: 1},
	}
	if diff := cmp.Diff(want, Nodes(loadTestConf(t))); diff != "" {
		t.Errorf("Nodes (-want +got):\n%s", diff)
	}
}

func TestClusterFromConfig(t *testing.T) {
	conf := loadTestConf(t)
	c, err := New(SchedConfig(conf, sched.PolicyLoam), Nodes(conf))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if got := len(c.Nodes()); got != 6 {
		t.Errorf("%d nodes, want 6", got)
	}
}

func TestSchedBackfill(t *testing.T) {
	cases := map[string]struct {
		in   slurmconf.SchedulerParameters
		want sched.Backfill
	}{
		"nothing set keeps Slurm's defaults (zero values)": {},
		"window, test depth and the per-partition reservation count": {
			in: slurmconf.SchedulerParameters{BfWindow: 7 * 24 * time.Hour, BfMaxJobTest: 2000,
				Raw: "bf_window=10080,bf_max_job_test=2000, bf_job_part_count_reserve=1"},
			want: sched.Backfill{Window: 7 * 24 * time.Hour, MaxJobTest: 2000, PartCountReserve: 1},
		},
		"a malformed count is ignored": {
			in: slurmconf.SchedulerParameters{Raw: "bf_job_part_count_reserve=x"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, schedBackfill(tc.in)); diff != "" {
				t.Errorf("schedBackfill (-want +got):\n%s", diff)
			}
		})
	}
}
