package controller

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// partReqConf is the peer's experiment: mrr (ReqResv=YES) and man
// (AllocNodes=nowhere), both beside normal.
const partReqConf = `PartitionName=mrr Nodes=cpu1 ReqResv=YES State=UP
PartitionName=man Nodes=cpu1 AllocNodes=nowhere State=UP
PartitionName=mlogin Nodes=cpu1 AllocNodes=login[1-2],localhost State=UP
`

// TestPartReqSubmit: what the peer's slurmctld answers each submission
// (sbatch's message, or the partition the job ends up in).
func TestPartReqSubmit(t *testing.T) {
	const denied = "Access/permission denied"
	tests := map[string]struct {
		parts []string
		resv  string
		host  string
		want  string
	}{
		"mrr without --reservation: the peer's refusal": {[]string{"mrr"}, "", "localhost", denied},
		"mrr with --reservation: taken":                 {[]string{"mrr"}, "mres", "localhost", "mrr"},
		"mrr,normal without one: normal (peer job 228)": {[]string{"mrr", "normal"}, "", "localhost", "normal"},
		"man from this host: the peer's refusal":        {[]string{"man"}, "", "localhost", denied},
		"man with a reservation: still refused":         {[]string{"man"}, "mres", "localhost", denied},
		"man,normal: normal (peer job 227)":             {[]string{"man", "normal"}, "", "localhost", "normal"},
		"mlogin from login2's full name":                {[]string{"mlogin"}, "", "login2.example.org", "mlogin"},
		"mlogin from localhost":                         {[]string{"mlogin"}, "", "localhost", "mlogin"},
		"mlogin from elsewhere":                         {[]string{"mlogin"}, "", "login3", denied},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cs := limitsState(t, partReqConf)
			r := job.Request{Name: "M-a", Script: "#!/bin/sh\n", WorkDir: "/tmp", UserName: "root",
				Partitions: tc.parts, Reservation: tc.resv, AllocNode: tc.host, Hold: true}
			a := &admitted{req: &r}
			got := ""
			if err := runSteps(
				func() *api.Error { return admitPartitions(cs, a) },
				func() *api.Error { return checkPartReq(cs, a) },
			); err != nil {
				got = err.Error()
			} else {
				got = a.partitions[0]
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSetPartLimits: scontrol update partition's keys change the
// partition as the peer's scontrol show partition then shows it.
func TestSetPartLimits(t *testing.T) {
	cs := limitsState(t, partReqConf)
	p := *cs.parts["man"]
	over, yes, defMem, maxMem, cpus, all := int64(5), true, int64(100), int64(200), int64(4), "ALL"
	err := setPartLimits(&p, &api.PartitionLimits{OverTimeLimit: &over, DisableRootJobs: &yes, DefMemPerNode: &defMem,
		MaxMemPerCPU: &maxMem, MaxCPUsPerNode: &cpus, ExclusiveUser: &yes, RootOnly: &yes, ReqResv: &yes, AllocNodes: &all})
	if err != nil {
		t.Fatal(err)
	}
	type view struct {
		Over                                   time.Duration
		Root, Excl, RootOnly, ReqResv          bool
		DefNode, DefCPU, MaxCPU, MaxNode, CPUs int64
		AllocNodes                             []string
		AllocSpec                              string
		Inherited                              []string
	}
	got := view{p.OverTimeLimit, p.DisableRootJobs, p.ExclusiveUser, p.RootOnly, p.ReqResv,
		p.DefMemPerNode, p.DefMemPerCPU, p.MaxMemPerCPU, p.MaxMemPerNode, p.MaxCPUsPerNode, p.AllocNodes, p.AllocNodesSpec,
		p.InheritedMemory}
	// The partition's line sets no memory key: all five were inherited,
	// the four written now are its own.
	want := view{5 * time.Minute, true, true, true, true, 100, 0, 200, slurmconf.Unlimited, 4, nil, "",
		[]string{"DefMemPerGPU"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	unl, bad := int64(api.UnlimitedSeconds), "node[1-"
	if err := setPartLimits(&p, &api.PartitionLimits{OverTimeLimit: &unl}); err != nil || p.OverTimeLimit != slurmtime.Unlimited {
		t.Errorf("OverTimeLimit=UNLIMITED: %v, %v", err, p.OverTimeLimit)
	}
	if err := setPartLimits(&p, &api.PartitionLimits{AllocNodes: &bad}); err == nil {
		t.Errorf("AllocNodes=%s taken", bad)
	}
}
