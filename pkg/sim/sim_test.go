package sim

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/loamhpc/loam/pkg/cluster"
	"github.com/loamhpc/loam/pkg/sched"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func smallConfig() sched.Config {
	return sched.Config{
		Policy: sched.PolicyFCFS,
		Partitions: []sched.Partition{
			{Name: "normal", Class: sched.ClassNormal, Up: true},
			{Name: "urgent", Class: sched.ClassUrgent, Up: true, Tier: 3},
		},
		Tenants: []sched.Tenant{{Name: "a", Weight: 1, Cap: sched.TRES{GPU: -1}}, {Name: "b", Weight: 1, Cap: sched.TRES{GPU: -1}}},
	}
}

func gpuNodes(n int) []sched.Node {
	var out []sched.Node
	for i := 1; i <= n; i++ {
		out = append(out, sched.Node{Name: fmt.Sprintf("n%d", i), CPUs: 64, MemMB: 256000, GPUs: 8})
	}
	return out
}

// replay reads trace, prepares it for cfg and runs it with the first-fit
// test scheduler.
func replay(t *testing.T, trace string, cfg sched.Config, nodes []sched.Node, edit func(*Options)) (*Result, string, error) {
	t.Helper()
	recs, err := ReadTrace(strings.NewReader(trace))
	if err != nil {
		t.Fatalf("ReadTrace: %v", err)
	}
	jobs, err := Prepare(recs, cfg, "")
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	var log bytes.Buffer
	o := Options{Config: cfg, Nodes: nodes, Jobs: jobs, Epoch: epoch, Log: &log,
		NewScheduler: func(sched.Config) Cycler { return firstFit{grace: 30 * time.Second} }, SkipCheck: true}
	if edit != nil {
		edit(&o)
	}
	res, err := Run(o)
	return res, log.String(), err
}

const traceHeader = "job_id,submit_s,wait_s,run_s,gpus,cpus,nodes,user,tenant,state,limit_s,queue\n"

func TestReplayQueueTimeoutAndCancel(t *testing.T) {
	trace := traceHeader +
		"j1,0,0,100,8,8,1,u1,a,COMPLETED,3600,\n" +
		"j2,10,0,50,4,4,1,u2,b,COMPLETED,3600,\n" +
		"j3,20,30,0,4,4,1,u2,b,PENDING,3600,\n" +
		"j4,30,0,1000,4,4,1,u1,a,COMPLETED,200,\n"
	settle := func(o *Options) { o.FairSettle = 20 * time.Second }
	res, log, err := replay(t, trace, smallConfig(), gpuNodes(1), settle)
	if err != nil {
		t.Fatal(err)
	}
	want := &Result{Policy: "fcfs", Jobs: 4, Measured: 3, Started: 3, Completed: 2, TimedOut: 1, Cancelled: 1,
		WaitMean: 160.0 / 3, WaitP50: 70, WaitP95: 90, WaitP99: 90, WaitMax: 90, LongestWaitJob: "j2",
		JCTMean: (100 + 140 + 270) / 3.0, BSLDMean: (1 + 140.0/50 + 270.0/200) / 3,
		Makespan: 300, StarveAfter: 72 * 3600, FairSettle: 20,
		// j2 waited 90 s, j3 30 s until cancelled, j4 70 s, all for resources.
		WaitByReason: map[string]float64{"Resources": 190.0 / 3600},
		Outcomes: []Outcome{
			{JobID: "j1", ID: 1, Tenant: "a", Partition: "normal", GPUs: 8, Submit: 0, Start: 0, End: 100, State: "COMPLETED"},
			{JobID: "j2", ID: 2, Tenant: "b", Partition: "normal", GPUs: 4, Submit: 10, Start: 100, End: 150, State: "COMPLETED", Wait: 90},
			{JobID: "j3", ID: 3, Tenant: "b", Partition: "normal", GPUs: 4, Submit: 20, Start: -1, End: 50, State: "CANCELLED", Wait: 30},
			{JobID: "j4", ID: 4, Tenant: "a", Partition: "normal", GPUs: 4, Submit: 30, Start: 100, End: 300, State: "TIMEOUT", Wait: 70},
		}}
	ignore := cmpopts.IgnoreFields(Result{}, "Tenants", "Cycles", "GPUUtil", "GPUUtilAll", "GPUGoodput", "FragMean")
	if diff := cmp.Diff(want, res, ignore, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("result (-want +got):\n%s", diff)
	}
	// GPUs held: 8 on [0,100], 8 on [100,150], 4 on [150,300]; the
	// arrival window is [0,30], all of it at 8 of 8 GPUs.
	if res.GPUUtil != 1 {
		t.Errorf("GPUUtil = %v, want 1", res.GPUUtil)
	}
	if want := (8*100 + 8*50 + 4*150) / (8 * 300.0); res.GPUUtilAll != want {
		t.Errorf("GPUUtilAll = %v, want %v", res.GPUUtilAll, want)
	}
	// Shares are 4 GPUs each. b's j2 (4 GPUs) waited on [10,100]: from 30
	// (20 s settled) b was owed 4 GPUs and held none. a's j4 waited on
	// [30,100]: from 50 a had demand, but it held 8, more than its share,
	// so it got all it was owed. j3 never ran in the recorded system: no
	// demand.
	wantTenants := []TenantResult{
		{Name: "a", WeightShare: 0.5, Share: 1600.0 / 1800, FairRatio: 1, DemandHours: 50.0 / 3600},
		{Name: "b", WeightShare: 0.5, Share: 200.0 / 1800, FairRatio: 0, DemandHours: 70.0 / 3600},
	}
	if diff := cmp.Diff(wantTenants, res.Tenants, cmpopts.EquateApprox(0, 1e-9)); diff != "" {
		t.Errorf("tenants (-want +got):\n%s", diff)
	}
	golden(t, "replay_basic.log", []byte(log))
}

func TestReplayPreemptionRequeues(t *testing.T) {
	trace := traceHeader +
		"low,0,0,1000,8,8,1,u1,a,COMPLETED,3600,normal\n" +
		"hot,100,0,60,8,8,1,u2,b,COMPLETED,3600,urgent\n"
	tests := map[string]struct {
		edit     func(*Options)
		wantLost float64 // seconds of run lost by the victim
	}{
		"without checkpoints the victim loses everything it ran": {wantLost: 130},
		"hourly checkpoints: nothing saved yet after 130 s":      {edit: func(o *Options) { o.Checkpoint = time.Hour }, wantLost: 130},
		"checkpoints every minute keep the first two minutes":    {edit: func(o *Options) { o.Checkpoint = time.Minute }, wantLost: 10},
		"checkpoint on signal loses only the grace window":       {edit: func(o *Options) { o.CheckpointOnSignal = true }, wantLost: 30},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			res, log, err := replay(t, trace, smallConfig(), gpuNodes(1), tc.edit)
			if err != nil {
				t.Fatal(err)
			}
			if res.Preemptions != 1 {
				t.Errorf("preemptions = %d, want 1", res.Preemptions)
			}
			if want := 8 * tc.wantLost / 3600; res.LostGPUHours != want {
				t.Errorf("lost GPU-hours = %v, want %v", res.LostGPUHours, want)
			}
			// The arrival window is [0, 100], all of it held by low; what
			// low loses was run over [130-lost, 130], so only the part of
			// that before 100 s is no goodput.
			thrown := max(0, min(130, 100)-max(130-tc.wantLost, 0))
			if want := 1 - thrown/100; res.GPUUtil != 1 || res.GPUGoodput != want {
				t.Errorf("util %v goodput %v, want 1 and %v", res.GPUUtil, res.GPUGoodput, want)
			}
			// hot waits for the 30 s grace, runs 60 s; low restarts at 190
			// with its remaining work.
			wantEnd := 190 + 1000 - (130 - tc.wantLost)
			if res.Makespan != wantEnd {
				t.Errorf("makespan = %v, want %v", res.Makespan, wantEnd)
			}
			for _, line := range []string{"100 preempt job=1 for=2 reason=urgent mode=requeue grace=30", fmt.Sprintf("130 requeue job=1 lost=%g", tc.wantLost), "130 start job=2", "190 start job=1"} {
				if !strings.Contains(log, line) {
					t.Errorf("log lacks %q:\n%s", line, log)
				}
			}
		})
	}
}

func TestReplayPreemptionCancels(t *testing.T) {
	trace := traceHeader +
		"low,0,0,1000,8,8,1,u1,a,COMPLETED,3600,normal\n" +
		"hot,100,0,60,8,8,1,u2,b,COMPLETED,3600,urgent\n"
	res, _, err := replay(t, trace, smallConfig(), gpuNodes(1), func(o *Options) {
		o.NewScheduler = func(sched.Config) Cycler { return firstFit{grace: 30 * time.Second, mode: sched.PreemptCancel} }
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.PreemptCancelled != 1 || res.Completed != 1 || res.Makespan != 190 {
		t.Errorf("preempt-cancelled %d, completed %d, makespan %v; want the victim to end at 130 and hot at 190",
			res.PreemptCancelled, res.Completed, res.Makespan)
	}
	if got := res.Outcomes[0]; got.State != "PREEMPTED" || got.End != 130 {
		t.Errorf("victim outcome %+v, want PREEMPTED at 130", got)
	}
}

func TestReplayEndsWithUnrunnableJobs(t *testing.T) {
	trace := traceHeader +
		"fits,0,0,10,8,8,1,u1,a,COMPLETED,3600,\n" +
		"huge,0,0,10,16,16,1,u1,a,COMPLETED,3600,\n"
	res, _, err := replay(t, trace, smallConfig(), gpuNodes(1), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.NeverStarted != 1 || res.Starved != 1 || res.StarvedJobs[0] != "huge" {
		t.Errorf("never started %d, starved %d %v; want the huge job both", res.NeverStarted, res.Starved, res.StarvedJobs)
	}
}

func TestReplayStopsOnInvariantViolation(t *testing.T) {
	trace := traceHeader + "j1,0,0,10,8,8,1,u1,a,COMPLETED,3600,\n"
	boom := errors.New("gpu 3 of n1 given twice")
	_, _, err := replay(t, trace, smallConfig(), gpuNodes(1), func(o *Options) {
		o.SkipCheck = false
		o.Check = func(sched.Config, *sched.Snapshot, *sched.Plan) error { return boom }
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "invariant violated") || !strings.Contains(err.Error(), "t=0") {
		t.Errorf("err = %v, want the violation with its time", err)
	}
}

func TestReplayRejectsPlanTheClusterRefuses(t *testing.T) {
	trace := traceHeader + "j1,0,0,10,1,1,1,u1,a,COMPLETED,3600,\nj2,0,0,10,1,1,1,u1,a,COMPLETED,3600,\n"
	_, _, err := replay(t, trace, smallConfig(), gpuNodes(1), func(o *Options) {
		o.NewScheduler = func(sched.Config) Cycler { return doubleBooker{} }
	})
	if err == nil || !strings.Contains(err.Error(), "cluster refused the plan") {
		t.Errorf("err = %v, want the refused plan", err)
	}
}

// doubleBooker starts every pending job on GPU 0 of the first node.
type doubleBooker struct{}

func (doubleBooker) Cycle(snap *sched.Snapshot) *sched.Plan {
	p := &sched.Plan{Now: snap.Now}
	for _, j := range snap.Pending {
		p.Starts = append(p.Starts, sched.Start{Job: j.ID, Partition: "normal",
			Alloc: []sched.NodeAlloc{{Node: snap.Nodes[0].Name, CPUs: 1, GPUs: []int{0}}}})
	}
	if len(snap.Running) > 0 {
		p.Starts = append(p.Starts, sched.Start{Job: snap.Running[0].ID, Partition: "normal",
			Alloc: []sched.NodeAlloc{{Node: snap.Nodes[0].Name, CPUs: 1, GPUs: []int{0}}}})
	}
	return p
}

func TestDecisionLogIsDeterministic(t *testing.T) {
	recs, err := Generate(GenOptions{Seed: 7, Load: 1.1, Nodes: 8, Days: 2})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteTrace(&buf, recs); err != nil {
		t.Fatal(err)
	}
	cfg := smallConfig()
	cfg.Tenants = nil
	cfg.Partitions = append(cfg.Partitions, sched.Partition{Name: "batch", Class: sched.ClassBatch, Up: true})
	var logs []string
	for range 2 {
		_, log, err := replay(t, buf.String(), cfg, gpuNodes(8), nil)
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, log)
	}
	if strings.Count(logs[0], "\n") < 50 {
		t.Fatalf("log has only %d lines; the test needs a busier trace", strings.Count(logs[0], "\n"))
	}
	if logs[0] != logs[1] {
		t.Error("two replays of the same trace wrote different decision logs")
	}
}

func TestFairShareOwed(t *testing.T) {
	const settle = 10 * time.Minute
	cases := map[string]struct {
		held     int
		pending  []waiter
		want     float64
		wantOpen bool
	}{
		"no pending job: no demand": {held: 5},
		"a job younger than the settle time is no demand yet": {
			pending: []waiter{{gpus: 4, since: 55 * time.Minute}},
		},
		"a job bigger than the whole share is no demand": {
			pending: []waiter{{gpus: 32, since: 0}},
		},
		"owed what it holds plus the waiting jobs that fit its share, smallest first": {
			held: 10, pending: []waiter{{gpus: 8, since: 0}, {gpus: 2, since: 0}, {gpus: 4, since: 0}},
			want: 16, wantOpen: true,
		},
		"a job one bigger than what is left of the share: owed only what it holds": {
			held: 13, pending: []waiter{{gpus: 8, since: 0}},
			want: 13, wantOpen: true,
		},
		"holding more than the share: owed the share": {
			held: 30, pending: []waiter{{gpus: 1, since: 0}},
			want: 20, wantOpen: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := &meter{settle: settle, share: []float64{20}, held: []int{tc.held}, pending: [][]waiter{tc.pending}}
			got, open := m.owed(0, time.Hour)
			if got != tc.want || open != tc.wantOpen {
				t.Errorf("owed = %v, %v; want %v, %v", got, open, tc.want, tc.wantOpen)
			}
		})
	}
}

// TestReplayRefusesJobsThatNeverFit: with the real scheduler, a job no
// node or partition of the cluster can hold is refused at its first pass,
// as loam-ctld refuses it at submit, and left out of the delay metrics
// instead of starving for every policy alike.
func TestReplayRefusesJobsThatNeverFit(t *testing.T) {
	conf, err := LoadConfig(os.DirFS("testdata/e2e"), "slurm.conf", "", "")
	if err != nil {
		t.Fatal(err)
	}
	trace := "job_id,submit_s,wait_s,run_s,gpus,cpus,nodes,user,tenant,state\n" +
		"fits,0,0,100,8,8,1,u1,,COMPLETED\n" +
		"huge,10,0,50,100000,16,2000,u1,,COMPLETED\n" +
		"late,20,0,30,8,8,1,u1,,COMPLETED\n"
	recs, err := ReadTrace(strings.NewReader(trace))
	if err != nil {
		t.Fatal(err)
	}
	cfg := cluster.SchedConfig(conf, sched.PolicyLoam)
	cfg.Tenants = nil // the rows name no tenant
	jobs, err := Prepare(recs, cfg, DefaultPartition(conf))
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	res, err := Run(Options{Config: cfg, Nodes: cluster.Nodes(conf), Jobs: jobs, Epoch: epoch, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	got := []any{res.Refused, res.RefusedJobs, res.Measured, res.Starved, res.NeverStarted, res.Completed}
	want := []any{1, []string{"huge:PartitionNodeLimit"}, 2, 0, 0, 2}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("refused, refused jobs, measured, starved, never started, completed (-want +got):\n%s", diff)
	}
	if !strings.Contains(log.String(), "10 refuse job=2 reason=PartitionNodeLimit\n") {
		t.Errorf("decision log lacks the refusal:\n%s", log.String())
	}
}
