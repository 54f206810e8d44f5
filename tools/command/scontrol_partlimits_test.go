package command

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// TestScontrolPartitionLimitMessages: the peer's (Slurm 22.05.8) text and
// exit status for bad values of the partition keys added to scontrol
// update partition; DefCPUPerGPU stays refused as the peer refuses it.
func TestScontrolPartitionLimitMessages(t *testing.T) {
	const noErr = "slurm_update error: No error\n"
	yesNo := func(k string) string {
		return "scontrol: error: Invalid input: " + k + "=x\nscontrol: error: Acceptable " + k + " values are YES and NO\n" + noErr
	}
	tests := map[string]struct {
		arg      string
		wantCode int
		want     string
	}{
		"OverTimeLimit=x":         {"OverTimeLimit=x", 1, "scontrol: error: Invalid OverTimeLimit value: x\n" + noErr},
		"OverTimeLimit=65534":     {"OverTimeLimit=65534", 1, "scontrol: error: Invalid OverTimeLimit value: 65534\n" + noErr},
		"OverTimeLimit=-1":        {"OverTimeLimit=-1", 1, "scontrol: error: Invalid OverTimeLimit value: -1\n" + noErr},
		"OverTimeLimit=65533":     {"OverTimeLimit=65533", 0, ""},
		"OverTimeLimit=INFINITE":  {"OverTimeLimit=INFINITE", 0, ""},
		"DisableRootJobs=x":       {"DisableRootJobs=x", 1, yesNo("DisableRootJobs")},
		"ExclusiveUser=x":         {"ExclusiveUser=x", 1, yesNo("ExclusiveUser")},
		"RootOnly=x":              {"RootOnly=x", 1, yesNo("RootOnly")},
		"ReqResv=x":               {"ReqResv=x", 1, yesNo("ReqResv")},
		"DefMemPerNode=x":         {"DefMemPerNode=x", 1, "scontrol: error: Invalid DefMemPerNode value: x\n" + noErr},
		"DefMemPerNode=UNLIMITED": {"DefMemPerNode=UNLIMITED", 1, "scontrol: error: Invalid DefMemPerNode value: UNLIMITED\n" + noErr},
		"DefMemPerNode=100M":      {"DefMemPerNode=100M", 1, "scontrol: error: Invalid DefMemPerNode value: 100M\n" + noErr},
		"DefMemPerNode=-5":        {"DefMemPerNode=-5", 1, "scontrol: error: Invalid DefMemPerNode value: -5\n" + noErr},
		"MaxMemPerCPU=2G":         {"MaxMemPerCPU=2G", 1, "scontrol: error: Invalid MaxMemPerCPU value: 2G\n" + noErr},
		"MaxCPUsPerNode=4x":       {"MaxCPUsPerNode=4x", 1, "scontrol: error: Invalid MaxCPUsPerNode value: 4x\n" + noErr},
		"MaxCPUsPerNode=-1":       {"MaxCPUsPerNode=-1", 1, "scontrol: error: Invalid MaxCPUsPerNode value: -1\n" + noErr},
		"MaxCPUsPerNode=0":        {"MaxCPUsPerNode=0", 0, ""},
		"DefMemPerCPU=x":          {"DefMemPerCPU=x", 1, "scontrol: error: Invalid DefMemPerCPU value: x\n" + noErr},
		"MaxMemPerNode=-1":        {"MaxMemPerNode=-1", 1, "scontrol: error: Invalid MaxMemPerNode value: -1\n" + noErr},
		"PreemptMode=foo":         {"PreemptMode=foo", 1, "scontrol: error: Invalid input: PreemptMode=foo\n" + noErr},
		"PreemptMode=cancel":      {"PreemptMode=cancel", 0, ""},
		"DefCPUPerGPU=2 (the peer refuses it too)": {"DefCPUPerGPU=2", 1,
			"scontrol: error: Update of this parameter is not supported: DefCPUPerGPU=2\n\nscontrol: error: Request aborted\n" + noErr},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			code, out := runPart(&partFake{fakeController: &fakeController{}}, "update", "PartitionName=batch", tc.arg)
			if diff := cmp.Diff(tc.want, out); diff != "" || code != tc.wantCode {
				t.Errorf("exit %d, want %d; output (-want +got):\n%s", code, tc.wantCode, diff)
			}
		})
	}
}

// TestScontrolPartitionLimitSends: accepted values reach the controller.
func TestScontrolPartitionLimitSends(t *testing.T) {
	f := &partFake{fakeController: &fakeController{}}
	code, out := runPart(f, "update", "PartitionName=batch", "OverTimeLimit=UNLIMITED", "DisableRootJobs=yes",
		"DefMemPerNode=100", "MaxMemPerCPU=200", "MaxCPUsPerNode=UNLIMITED", "ExclusiveUser=NO", "RootOnly=YES",
		"ReqResv=yes", "AllocNodes=login[1-2]")
	if code != 0 || out != "" {
		t.Fatalf("exit %d: %s", code, out)
	}
	over, yes, no, defMem, maxMem, cpus, hosts := int64(api.UnlimitedSeconds), true, false, int64(100), int64(200), int64(-1), "login[1-2]"
	want := api.PartitionUpdate{Name: "batch", PartitionLimits: api.PartitionLimits{OverTimeLimit: &over,
		DisableRootJobs: &yes, DefMemPerNode: &defMem, MaxMemPerCPU: &maxMem, MaxCPUsPerNode: &cpus,
		ExclusiveUser: &no, RootOnly: &yes, ReqResv: &yes, AllocNodes: &hosts}}
	if diff := cmp.Diff([]api.PartitionUpdate{want}, f.updates); diff != "" {
		t.Errorf("update sent (-want +got):\n%s", diff)
	}
}

// TestScontrolPartitionPolicySends: DefMemPerCPU, MaxMemPerNode, AllowQos,
// DenyQos, PreemptMode, JobDefaults and TresBillingWeights (its shortest
// tag "T", as Slurm's scontrol takes it) reach the controller as written.
func TestScontrolPartitionPolicySends(t *testing.T) {
	f := &partFake{fakeController: &fakeController{}}
	code, out := runPart(f, "update", "PartitionName=batch", "DefMemPerCPU=2000", "MaxMemPerNode=1000", "AllowQos=a,b",
		"DenyQos=c", "PreemptMode=REQUEUE", "JobDefaults=DefMemPerGPU=100", "T=CPU=2.0")
	if code != 0 || out != "" {
		t.Fatalf("exit %d: %s", code, out)
	}
	str := func(s string) *string { return &s }
	def, maxNode := int64(2000), int64(1000)
	want := api.PartitionUpdate{Name: "batch", PartitionLimits: api.PartitionLimits{DefMemPerCPU: &def, MaxMemPerNode: &maxNode,
		AllowQOS: str("a,b"), DenyQOS: str("c"), PreemptMode: str("REQUEUE"), JobDefaults: str("DefMemPerGPU=100"),
		BillingWeights: str("CPU=2.0")}}
	if diff := cmp.Diff([]api.PartitionUpdate{want}, f.updates); diff != "" {
		t.Errorf("update sent (-want +got):\n%s", diff)
	}
}
