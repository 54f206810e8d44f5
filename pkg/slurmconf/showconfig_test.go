package slurmconf

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// peerShowContext is what the peer's controller reported when
// testdata/peer/scontrol-show-config.txt was captured: its host name, the
// uid of root, and the BOOT_TIME and NEXT_JOB_ID lines of the capture.
func peerShowContext(t *testing.T, capture string) ShowContext {
	t.Helper()
	rt := ShowContext{ConfPath: "/etc/slurm/slurm.conf", Hostname: "vm",
		UID: func(u string) (int, bool) { return 0, u == "root" }}
	for _, line := range strings.Split(capture, "\n") {
		k, v, _ := strings.Cut(line, " = ")
		switch strings.TrimSpace(k) {
		case "BOOT_TIME":
			boot, err := time.Parse("2006-01-02T15:04:05", v)
			if err != nil {
				t.Fatalf("BOOT_TIME: %v", err)
			}
			rt.BootTime = boot
		case "NEXT_JOB_ID":
			n, err := strconv.ParseUint(v, 10, 32)
			if err != nil {
				t.Fatalf("NEXT_JOB_ID: %v", err)
			}
			rt.NextJobID = uint32(n)
		}
	}
	return rt
}

// TestShowConfigPeerGolden prints the peer's slurm.conf as Loam's scontrol
// show config does and compares every key line with what the peer's Slurm
// 22.05 printed for the same file: same keys, order, padding and values.
// Loam's own keys follow Slurm's.
func TestShowConfigPeerGolden(t *testing.T) {
	c := loadPeer(t)
	capture := readPeer(t, "scontrol-show-config.txt")
	lines := strings.Split(capture, "\n")
	var want []string
	for _, line := range lines[1:] { // after "Configuration data as of"
		if line == "" {
			break
		}
		want = append(want, line)
	}
	if len(want) < 200 {
		t.Fatalf("only %d key lines in the capture", len(want))
	}
	var got []string
	kvs := c.ShowConfig(peerShowContext(t, capture))
	for _, kv := range kvs {
		got = append(got, kv.String())
	}
	loam := c.loamKeys()
	if diff := cmp.Diff(want, got[:len(got)-len(loam)]); diff != "" {
		t.Errorf("show config differs from the peer's (-scontrol +loam):\n%s", diff)
	}
	if diff := cmp.Diff(loam, kvs[len(kvs)-len(loam):]); diff != "" {
		t.Errorf("Loam's keys do not close the list (-want +got):\n%s", diff)
	}
}

// showValue loads a slurm.conf made of lines and returns what show config
// prints for key, and whether it prints key at all.
func showValue(t *testing.T, lines, key string) (string, bool) {
	t.Helper()
	conf := "ClusterName=t\nSlurmctldHost=ctl\nNodeName=n1 CPUs=4\nPartitionName=p Nodes=n1\n" + lines
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/slurm.conf", []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(os.DirFS(dir), "slurm.conf")
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	rt := ShowContext{Hostname: "vm", UID: func(u string) (int, bool) {
		return map[string]int{"root": 0, "slurm": 64030}[u], u == "root" || u == "slurm"
	}}
	for _, kv := range c.ShowConfig(rt) {
		if kv.Key == key {
			return kv.Value, true
		}
	}
	return "", false
}

func TestShowConfigValues(t *testing.T) {
	cases := map[string]struct {
		conf, key, want string
	}{
		"an ignored key keeps Slurm's default":           {"", "SlurmctldTimeout", "120 sec"},
		"an ignored key prints its value with its unit":  {"SlurmctldTimeout=300", "SlurmctldTimeout", "300 sec"},
		"Waittime prints as WaitTime":                    {"Waittime=5", "WaitTime", "5 sec"},
		"UsePAM prints as UsePam, Yes or No":             {"UsePAM=1", "UsePam", "Yes"},
		"an unset string key is (null)":                  {"", "Prolog", "(null)"},
		"a string key prints as written":                 {"Prolog=/etc/slurm/prolog.sh", "Prolog", "/etc/slurm/prolog.sh"},
		"SlurmdUser defaults to root with its uid":       {"", "SlurmdUser", "root(0)"},
		"SlurmUser shows its uid":                        {"SlurmUser=slurm", "SlurmUser", "slurm(64030)"},
		"a debug level given as a number prints a name":  {"SlurmctldDebug=5", "SlurmctldDebug", "debug"},
		"SuspendTime unset is INFINITE":                  {"", "SuspendTime", "INFINITE"},
		"SuspendTime in seconds":                         {"SuspendTime=600", "SuspendTime", "600 sec"},
		"OverTimeLimit in minutes":                       {"OverTimeLimit=5", "OverTimeLimit", "5 min"},
		"OverTimeLimit UNLIMITED":                        {"OverTimeLimit=infinite", "OverTimeLimit", "UNLIMITED"},
		"ResumeRate in nodes per minute":                 {"ResumeRate=10", "ResumeRate", "10 nodes/min"},
		"VSizeFactor in percent":                         {"VSizeFactor=110", "VSizeFactor", "110 percent"},
		"EpilogMsgTime in microseconds":                  {"", "EpilogMsgTime", "2000 usec"},
		"EnforcePartLimits upper-cased":                  {"EnforcePartLimits=all", "EnforcePartLimits", "ALL"},
		"AccountingStorageTRES appends to the defaults":  {"AccountingStorageTRES=gres/gpu", "AccountingStorageTRES", "cpu,mem,energy,node,billing,fs/disk,vmem,pages,gres/gpu"},
		"JobCompLoc default":                             {"", "JobCompLoc", "/var/log/slurm_jobcomp.log"},
		"ProctrackType default":                          {"", "ProctrackType", "proctrack/cgroup"},
		"PowerPlugin is empty by default":                {"", "PowerPlugin", ""},
		"MaxNodeCount is at least the nodes configured":  {"", "MaxNodeCount", "1"},
		"MaxNodeCount as written when larger":            {"MaxNodeCount=100", "MaxNodeCount", "100"},
		"DefMemPerNode UNLIMITED without DefMemPerCPU":   {"", "DefMemPerNode", "UNLIMITED"},
		"DefMemPerNode as written":                       {"DefMemPerNode=4096", "DefMemPerNode", "4096"},
		"MaxMemPerCPU replaces an unlimited node limit":  {"MaxMemPerCPU=2048", "MaxMemPerCPU", "2048"},
		"Loam's honoured KillWait":                       {"KillWait=7", "KillWait", "7 sec"},
		"Loam's default MessageTimeout":                  {"", "MessageTimeout", "10 sec"},
		"SlurmctldHost localhost is the host's name":     {"SlurmctldHost=localhost(10.0.0.1)", "SlurmctldHost[1]", "vm(10.0.0.1)"},
		"PriorityCalcPeriod in minutes, multifactor":     {"PriorityType=priority/multifactor\nPriorityCalcPeriod=10", "PriorityCalcPeriod", "00:10:00"},
		"PriorityFlags empty by default, multifactor":    {"PriorityType=priority/multifactor", "PriorityFlags", ""},
		"FairShareDampeningFactor shown for multifactor": {"PriorityType=priority/multifactor", "FairShareDampeningFactor", "1"},
		"slurmdbd's port and user":                       {"AccountingStorageType=accounting_storage/slurmdbd", "AccountingStoragePort", "6819"},
		"slurmdbd keeps the storage user":                {"AccountingStorageType=accounting_storage/slurmdbd\nAccountingStorageUser=x", "AccountingStorageUser", "N/A"},
		"AccountingStoreFlags in Slurm's order":          {"AccountingStoreFlags=job_script,job_comment", "AccountingStoreFlags", "job_comment,job_script"},
		"ReconfigFlags in Slurm's spelling":              {"ReconfigFlags=keeppartstate", "ReconfigFlags", "KeepPartState"},
		"GresTypes as written":                           {"GresTypes=gpu,mps", "GresTypes", "gpu,mps"},
		"JobCompLoc for jobcomp/mysql":                   {"JobCompType=jobcomp/mysql", "JobCompLoc", "slurm_jobcomp_db"},
		"PriorityWeightTRES as written":                  {"PriorityType=priority/multifactor\nPriorityWeightTRES=CPU=1000,GRES/gpu=3000", "PriorityWeightTRES", "CPU=1000,GRES/gpu=3000"},
		"SelectTypeParameters upper-cased":               {"SelectTypeParameters=CR_Core_Memory", "SelectTypeParameters", "CR_CORE_MEMORY"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, ok := showValue(t, tc.conf, tc.key)
			if !ok {
				t.Fatalf("%s not printed", tc.key)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tc.key, diff)
			}
		})
	}
}

// TestShowConfigOmits covers the keys Slurm leaves out depending on others.
func TestShowConfigOmits(t *testing.T) {
	cases := map[string]struct{ conf, key string }{
		"priority/basic prints no PriorityDecayHalfLife":  {"", "PriorityDecayHalfLife"},
		"priority/basic prints no FairShareDampening":     {"", "FairShareDampeningFactor"},
		"no SelectTypeParameters when not written":        {"", "SelectTypeParameters"},
		"DefMemPerCPU replaces DefMemPerNode":             {"DefMemPerCPU=100", "DefMemPerNode"},
		"MaxMemPerNode unlimited when MaxMemPerCPU unset": {"", "MaxMemPerCPU"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if v, ok := showValue(t, tc.conf, tc.key); ok {
				t.Errorf("%s = %q printed, Slurm leaves it out", tc.key, v)
			}
		})
	}
}
