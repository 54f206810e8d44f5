package command

import (
	"context"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// peerAcctJobs are the jobs of testdata/peer/sacct as Loam's controller
// reports them (TRES in its own order, a cancelled held job without
// start or eligible time).
func peerAcctJobs() []api.AcctJob {
	root := uint32(0)
	step := func(id, name string, tasks, nodes, cpus int, start, end int64, tres string) api.AcctStep {
		return api.AcctStep{StepID: id, Name: name, State: job.Completed, StartTime: start, EndTime: end,
			Elapsed: end - start, NodeCount: nodes, CPUs: cpus, Tasks: tasks, AllocTRES: tres}
	}
	return []api.AcctJob{
		{JobID: 4, Name: "cpend", Partition: "normal", State: job.Cancelled, CancelledBy: &root,
			SubmitTime: 1796020353, EndTime: 1796020353, NodeCount: 1, CPUs: 1,
			ReqTRES: "cpu=1,mem=1G,node=1,billing=1"},
		{JobID: 12, Name: "steps", Partition: "normal", State: job.Completed, SubmitTime: 1796020356,
			EligibleTime: 1796020356, StartTime: 1796020356, EndTime: 1796020357, Elapsed: 1, NodeCount: 1, CPUs: 2,
			ReqTRES: "cpu=2,mem=2G,node=1,billing=2", AllocTRES: "cpu=2,mem=2G,node=1,billing=2",
			Steps: []api.AcctStep{
				step("batch", "batch", 1, 1, 2, 1796020356, 1796020357, "cpu=2,mem=2G,node=1"),
				step("0", "hostname", 2, 1, 2, 1796020356, 1796020356, "cpu=2,mem=2G,node=1"),
				step("1", "sleep", 1, 1, 2, 1796020356, 1796020357, "cpu=2,mem=2G,node=1"),
			}},
		{JobID: 15, Name: "gpu2n", Partition: "normal", State: job.Completed, SubmitTime: 1796020356,
			EligibleTime: 1796020356, StartTime: 1796020358, EndTime: 1796020358, NodeCount: 2, CPUs: 2,
			ReqTRES:   "cpu=2,mem=2G,node=2,billing=2,gres/gpu=2",
			AllocTRES: "cpu=2,mem=2G,node=2,billing=2,gres/gpu=2",
			Steps: []api.AcctStep{
				step("batch", "batch", 1, 1, 1, 1796020358, 1796020358, "cpu=1,mem=1G,node=1,gres/gpu=1"),
				step("0", "true", 2, 2, 2, 1796020358, 1796020358, "cpu=2,mem=2G,node=2,gres/gpu=2"),
			}},
	}
}

// TestSacctPeerFields: the fields the accounting peer fills for every
// job and step: TRES sorted by name, a step's layout (Unknown for the
// batch step, block for more tasks than nodes, cyclic otherwise), its
// requested CPUs and nodes, the CPU frequency fields (Unknown, the batch
// step's 0), WCKeyID 0, Reserved 0 and Start at the end for a job
// cancelled while held.
func TestSacctPeerFields(t *testing.T) {
	want, err := os.ReadFile("testdata/peer/sacct/fields.txt")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeController{acct: peerAcctJobs()}
	te := newTestEnv(f, 1796020500)
	args := []string{"-j", "4,12,15", "-o", "jobid,layout,ntasks,reqcpus,reqnodes,alloctres%42,reqtres%42," +
		"avecpufreq,reqcpufreq,reqcpufreqgov,wckeyid,reserved,start,end"}
	if code := Sacct(context.Background(), te.Env, args); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	if diff := cmp.Diff(string(want), te.stdout.String()); diff != "" {
		t.Errorf("sacct (-want +got):\n%s", diff)
	}
}

// TestSortTRES: sacct prints TRES strings in name order.
func TestSortTRES(t *testing.T) {
	for in, want := range map[string]string{
		"": "",
		"cpu=2,mem=2G,node=2,billing=2,gres/gpu=2": "billing=2,cpu=2,gres/gpu=2,mem=2G,node=2",
		"cpu=1,mem=1G,node=1,gres/gpu=1":           "cpu=1,gres/gpu=1,mem=1G,node=1",
	} {
		if got := sortTRES(in); got != want {
			t.Errorf("sortTRES(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSacctUnits: --units and --noconvert convert ReqMem and the memory
// of TRES strings; the expected lines are the accounting peer's for its
// job 15 (-N2 --gres=gpu:1, 1G per CPU).
func TestSacctUnits(t *testing.T) {
	tests := map[string]struct {
		args []string
		want string
		code int
	}{
		"exact by default": {nil, "15                   2G      billing=2,cpu=2,gres/gpu=2,mem=2G,node=2 \n", 0},
		"kilo":             {[]string{"--units=K"}, "15             2097152K billing=2,cpu=2,gres/gpu=2,mem=2097152K,node+ \n", 0},
		"mega":             {[]string{"--units=M"}, "15                2048M   billing=2,cpu=2,gres/gpu=2,mem=2048M,node=2 \n", 0},
		"tera, cut to two decimals": {[]string{"--units=T"},
			"15                0.00T   billing=2,cpu=2,gres/gpu=2,mem=0.00T,node=2 \n", 0},
		"lower case":               {[]string{"--units=g"}, "15                   2G      billing=2,cpu=2,gres/gpu=2,mem=2G,node=2 \n", 0},
		"noconvert":                {[]string{"--noconvert"}, "15                2048M   billing=2,cpu=2,gres/gpu=2,mem=2048M,node=2 \n", 0},
		"units win over noconvert": {[]string{"--noconvert", "--units=G"}, "15                   2G      billing=2,cpu=2,gres/gpu=2,mem=2G,node=2 \n", 0},
		"an unknown unit is fatal": {[]string{"--units=X"}, "", 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{acct: peerAcctJobs()[2:]}
			te := newTestEnv(f, 1796020500)
			args := append([]string{"-X", "-j", "15", "-n", "-o", "jobid,reqmem,alloctres%45"}, tc.args...)
			code := Sacct(context.Background(), te.Env, args)
			if code != tc.code || te.stdout.String() != tc.want {
				t.Errorf("exit %d, want %d; output (-want +got):\n%s", code, tc.code, cmp.Diff(tc.want, te.stdout.String()))
			}
			if tc.code != 0 {
				const msg = "sacct: error: Invalid unit type 'X'. Possible options are 'KMGTP'\nsacct: fatal: Invalid unit type\n"
				if got := te.stderr.String(); got != msg {
					t.Errorf("stderr %q, want %q", got, msg)
				}
			}
		})
	}
}

// TestSacctWaitFields: Reason, AllocNodes, Reserved and ResvCPU as the
// accounting peer printed them ("-X -o jobid,state,reason%20,allocnodes,
// nnodes,resvcpu,resvcpuraw,reserved") for a held job (19), a job running
// since a second after it was eligible (20), a job whose begin time is an
// hour ahead (21) and a requeued job that ran again after its requeue
// delay (8).
func TestSacctWaitFields(t *testing.T) {
	const now = 1796021000
	jobs := []api.AcctJob{
		{JobID: 19, State: job.Pending, Reason: job.ReasonJobHeldUser, SubmitTime: now - 3, NodeCount: 1, CPUs: 1},
		{JobID: 20, State: job.Running, Reason: job.ReasonNone, SubmitTime: now - 3, EligibleTime: now - 3,
			StartTime: now - 2, Nodes: "cpu001", NodeCount: 1, CPUs: 1},
		{JobID: 21, State: job.Pending, Reason: job.ReasonBeginTime, SubmitTime: now - 3, EligibleTime: now + 3597,
			NodeCount: 1, CPUs: 1},
		{JobID: 8, State: job.Completed, SubmitTime: now - 200, EligibleTime: now - 80, StartTime: now - 72,
			EndTime: now - 68, Nodes: "cpu001", NodeCount: 1, CPUs: 1, Restarts: 1},
	}
	want := `JobID             State               Reason AllocNodes   NNodes    ResvCPU ResvCPURAW   Reserved 
------------ ---------- -------------------- ---------- -------- ---------- ---------- ---------- 
19              PENDING          JobHeldUser          0        1   00:00:00          0   00:00:00 
20              RUNNING                 None          1        1   00:00:01          1   00:00:01 
21              PENDING            BeginTime          0        1    INVALID 4294963699    INVALID 
8             COMPLETED            BeginTime          1        1   00:00:08          8   00:00:08 
`
	f := &fakeController{acct: jobs}
	te := newTestEnv(f, now)
	args := []string{"-X", "-o", "jobid,state,reason%20,allocnodes,nnodes,resvcpu,resvcpuraw,reserved"}
	if code := Sacct(context.Background(), te.Env, args); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	if diff := cmp.Diff(want, te.stdout.String()); diff != "" {
		t.Errorf("sacct (-want +got):\n%s", diff)
	}
}

// TestSacctTruncate: -T cuts times to the window, steps too, as the
// accounting peer printed its timed-out job 6 (06:32:35 to 06:33:45);
// without -T the times are the job's own.
func TestSacctTruncate(t *testing.T) {
	step := api.AcctStep{StepID: "batch", Name: "batch", State: job.Cancelled, StartTime: 1796020355,
		EndTime: 1796020425, Elapsed: 70, NodeCount: 1, CPUs: 1}
	jobs := []api.AcctJob{{JobID: 6, State: job.Timeout, SubmitTime: 1796020355, EligibleTime: 1796020355,
		StartTime: 1796020355, EndTime: 1796020425, Elapsed: 70, NodeCount: 1, CPUs: 1, Steps: []api.AcctStep{step}}}
	window := []string{"-S", "2026-11-30T06:33:00", "-E", "2026-11-30T06:33:30", "-j", "6",
		"-o", "jobid,start,end,elapsed,cputimeraw,state"}
	tests := map[string]struct {
		args []string
		want string
	}{
		"cut to the window": {append([]string{"-T"}, window...), `JobID                      Start                 End    Elapsed CPUTimeRAW      State 
------------ ------------------- ------------------- ---------- ---------- ---------- 
6            2026-11-30T06:33:00 2026-11-30T06:33:30   00:00:30         30    TIMEOUT 
6.batch      2026-11-30T06:33:00 2026-11-30T06:33:30   00:00:30         30  CANCELLED 
`},
		"without -T": {window, `JobID                      Start                 End    Elapsed CPUTimeRAW      State 
------------ ------------------- ------------------- ---------- ---------- ---------- 
6            2026-11-30T06:32:35 2026-11-30T06:33:45   00:01:10         70    TIMEOUT 
6.batch      2026-11-30T06:32:35 2026-11-30T06:33:45   00:01:10         70  CANCELLED 
`},
		"an open window ends now": {[]string{"-T", "-X", "-S", "2026-11-30T06:33:00", "-o", "jobid,start,end,elapsed,state"},
			`JobID                      Start                 End    Elapsed      State 
------------ ------------------- ------------------- ---------- ---------- 
6            2026-11-30T06:33:00 2026-11-30T06:33:45   00:00:45    TIMEOUT 
`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{acct: jobs}
			te := newTestEnv(f, 1796021000)
			if code := Sacct(context.Background(), te.Env, tc.args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.want, te.stdout.String()); diff != "" {
				t.Errorf("sacct (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSacctEnergy: ConsumedEnergy as the accounting peer printed it
// without an energy plugin ("-p -o jobid,consumedenergy,consumedenergyraw"
// for its jobs 4, 12 and 15, and for 2, a job with only a batch step).
func TestSacctEnergy(t *testing.T) {
	jobs := append(peerAcctJobs(), api.AcctJob{JobID: 2, State: job.Completed, SubmitTime: 1796020353,
		EligibleTime: 1796020353, StartTime: 1796020354, EndTime: 1796020355, Elapsed: 1, NodeCount: 1, CPUs: 1,
		Steps: []api.AcctStep{{StepID: "batch", Name: "batch", State: job.Completed, StartTime: 1796020354,
			EndTime: 1796020355, Elapsed: 1, NodeCount: 1, CPUs: 1}}})
	want := `JobID|ConsumedEnergy|ConsumedEnergyRaw|
4|0|0|
12|0|0|
12.batch|0|0|
12.0|0|0|
12.1|0|0|
15|0|0|
15.batch|0|0|
15.0|0|0|
2|||
2.batch|0|0|
`
	f := &fakeController{acct: jobs}
	te := newTestEnv(f, 1796020500)
	if code := Sacct(context.Background(), te.Env, []string{"-p", "-o", "jobid,consumedenergy,consumedenergyraw"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	if diff := cmp.Diff(want, te.stdout.String()); diff != "" {
		t.Errorf("sacct (-want +got):\n%s", diff)
	}
}
