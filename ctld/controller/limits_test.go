package controller

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// limitsConf is the peer's experiment: two small partitions over one
// node, one refusing root, and the cluster's EnforcePartLimits.
const limitsConf = `ClusterName=t
SlurmctldHost=localhost
SlurmUser=root
OverTimeLimit=2
NodeName=cpu[1-2] CPUs=32 RealMemory=128000
PartitionName=normal Nodes=ALL Default=YES State=UP
PartitionName=dlim Nodes=cpu1 MaxTime=10 MaxNodes=1 OverTimeLimit=1 State=UP
PartitionName=dlim2 Nodes=cpu1 MaxTime=5 State=UP
PartitionName=droot Nodes=cpu1 DisableRootJobs=YES OverTimeLimit=UNLIMITED State=UP
`

func limitsState(t *testing.T, extra string) *confState {
	t.Helper()
	conf, err := slurmconf.Load(fstest.MapFS{"slurm.conf": {Data: []byte(limitsConf + extra)}}, "slurm.conf")
	if err == nil {
		err = conf.Validate()
	}
	if err != nil {
		t.Fatal(err)
	}
	cs, err := newConfState(conf, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// TestLimitsAdmission: the peer's sbatch lines (Slurm 22.05, the
// "Batch job submission failed: ..." text) for each EnforcePartLimits.
func TestLimitsAdmission(t *testing.T) {
	minutes := func(m int) func(r *job.Request) {
		return func(r *job.Request) { d := time.Duration(m) * time.Minute; r.TimeLimit = &d }
	}
	type out struct {
		Msg   string
		NoID  bool
		Parts []string
	}
	const timeMsg = "Requested time limit is invalid (missing or exceeds some limit)"
	tests := map[string]struct {
		enforce string
		parts   []string
		uid     uint32
		mod     func(r *job.Request)
		want    out
	}{
		"ALL: over MaxTime, Slurm's words and no id used": {
			"ALL", []string{"dlim"}, 1000, minutes(20), out{timeMsg, true, nil}},
		"ALL: -N2 over MaxNodes=1": {"ALL", []string{"dlim"}, 1000,
			func(r *job.Request) { r.MinNodes, r.NodesSet = 2, true }, out{"Node count specification invalid", true, nil}},
		"ALL: -p dlim,dlim2 -t 7 breaks dlim2's MaxTime": {
			"ALL", []string{"dlim", "dlim2"}, 1000, minutes(7), out{timeMsg, true, nil}},
		"ANY: -p dlim,dlim2 -t 7 fits dlim": {
			"ANY", []string{"dlim", "dlim2"}, 1000, minutes(7), out{"", false, []string{"dlim"}}},
		"YES is ANY: -t 20 fits neither": {
			"YES", []string{"dlim", "dlim2"}, 1000, minutes(20), out{timeMsg, true, nil}},
		"NO: Loam's admission check refuses with its detail and uses an id": {
			"NO", []string{"dlim"}, 1000, minutes(20),
			out{timeMsg + ": time limit 00:20:00 exceeds MaxTime=00:10:00 of partition dlim", false, nil}},
		"DisableRootJobs on the partition refuses root": {
			"NO", []string{"droot"}, 0, nil, out{"Invalid user id", true, nil}},
		"DisableRootJobs drops the partition from a root job's list": {
			"NO", []string{"droot", "dlim"}, 0, nil, out{"", false, []string{"dlim"}}},
		"DisableRootJobs leaves other users alone": {
			"NO", []string{"droot"}, 1000, nil, out{"", false, []string{"droot"}}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cs := limitsState(t, "EnforcePartLimits="+tc.enforce+"\n")
			r := job.Request{Name: "x", Script: "#!/bin/sh\n", WorkDir: "/tmp", UserName: "u", UserID: tc.uid,
				Partitions: tc.parts, Hold: true}
			if tc.mod != nil {
				tc.mod(&r)
			}
			a := &admitted{req: &r}
			aerr := runSteps(
				func() *api.Error { return admitPartitions(cs, a) },
				func() *api.Error { return admitTimes(cs, a, time.Unix(0, 0)) },
			)
			if aerr == nil {
				applyDefaults(cs, a)
				aerr = (&Controller{}).preCheck(cs, a)
			}
			var got out
			if aerr != nil {
				got.Msg, got.NoID = aerr.Error(), keepsID(aerr)
			} else {
				got.Parts = a.partitions
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestLimitsOverTime: the nodes enforce the time limit plus the
// partition's (else the cluster's) OverTimeLimit; --signal keeps its
// seconds before the job's own limit.
func TestLimitsOverTime(t *testing.T) {
	cs := limitsState(t, "")
	type out struct {
		Limit  int64
		Signal int
	}
	tests := map[string]struct {
		part  string
		limit int64
		want  out
	}{
		"the partition's minute":             {"dlim", 60, out{120, 90}},
		"the cluster's two minutes":          {"normal", 60, out{180, 150}},
		"UNLIMITED overtime: never ended":    {"droot", 60, out{api.UnlimitedSeconds, 30}},
		"an UNLIMITED limit stays unlimited": {"dlim", api.UnlimitedSeconds, out{api.UnlimitedSeconds, 90}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := &Controller{}
			c.conf.Store(cs)
			r := &jobRecord{ID: 7, Req: &job.Request{Signal: &job.Signal{Number: 10, Seconds: 30}}}
			r.St.Partition, r.St.TimeLimit, r.St.Start = tc.part, tc.limit, 1000
			r.St.Alloc = []api.NodeAllocation{{Node: "cpu1"}}
			req := c.launchRequest(r, 0)
			got := out{req.TimeLimit, req.Signal.Seconds}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if r.Req.Signal.Seconds != 30 {
				t.Errorf("the job's own --signal changed to %d", r.Req.Signal.Seconds)
			}
		})
	}
}

// TestLimitsBackstop: the controller's backstop waits for the overtime.
func TestLimitsBackstop(t *testing.T) {
	cs := limitsState(t, "")
	r := &jobRecord{ID: 7, Req: &job.Request{}}
	r.St.Partition, r.St.TimeLimit, r.St.Start, r.St.State = "dlim", 60, 1000, job.Running
	end, ok := enforcedEnd(cs.conf, r)
	if !ok || end.Unix() != 1000+60+60 {
		t.Errorf("enforcedEnd = %v, %v; want %d", end.Unix(), ok, 1120)
	}
	r.St.Partition = "droot"
	if _, ok := enforcedEnd(cs.conf, r); ok {
		t.Error("UNLIMITED overtime still has an end")
	}
}
