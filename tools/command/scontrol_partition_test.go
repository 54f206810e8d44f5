package command

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// partFake answers partition administration as a controller does: batch
// and busy exist, busy has a job, and the last update is kept.
type partFake struct {
	*fakeController
	updates []api.PartitionUpdate
	deletes []string
}

func (f *partFake) UpdatePartition(_ context.Context, u *api.PartitionUpdate) (*api.PartitionsResponse, error) {
	exists := u.Name == "batch" || u.Name == "busy"
	if exists == u.Create {
		return nil, api.NewError(api.CodeInvalidPartitionName)
	}
	if u.Nodes != nil && *u.Nodes == "nosuch[1-2]" {
		return nil, api.NewError(api.CodeInvalidNodeName)
	}
	f.updates = append(f.updates, *u)
	return &api.PartitionsResponse{}, nil
}

func (f *partFake) DeletePartition(_ context.Context, d *api.PartitionDelete) error {
	switch d.Name {
	case "busy":
		return api.NewError(api.CodePartitionInUse)
	case "batch":
		f.deletes = append(f.deletes, d.Name)
		return nil
	}
	return api.NewError(api.CodeInvalidPartitionName)
}

func runPart(f *partFake, args ...string) (int, string) {
	te := newTestEnv(f.fakeController, 1795950000)
	te.Dial = func(context.Context) (Controller, error) { return f, nil }
	code := Scontrol(context.Background(), te.Env, args)
	return code, te.stdout.String() + te.stderr.String()
}

// TestScontrolPartitionMessages: the peer's (Slurm 22.05) text and exit
// status for each refused partition update, create and delete.
func TestScontrolPartitionMessages(t *testing.T) {
	const noErr = "slurm_update error: No error\n"
	tests := map[string]struct {
		args     []string
		wantCode int
		want     string
	}{
		"an unknown key": {[]string{"update", "PartitionName=batch", "Foo=1"}, 1,
			"scontrol: error: Update of this parameter is not supported: Foo=1\n\nscontrol: error: Request aborted\n" + noErr},
		"Pr is too short for Priority": {[]string{"update", "PartitionName=batch", "Pr=7"}, 1,
			"scontrol: error: Update of this parameter is not supported: Pr=7\n\nscontrol: error: Request aborted\n" + noErr},
		"Al is too short for Alternate": {[]string{"update", "PartitionName=batch", "Al=batch"}, 1,
			"scontrol: error: Update of this parameter is not supported: Al=batch\n\nscontrol: error: Request aborted\n" + noErr},
		"a bad Priority": {[]string{"update", "PartitionName=batch", "Priority=abc"}, 1,
			"scontrol: error: Invalid Priority value: abc\n" + noErr},
		"a Priority too high": {[]string{"update", "PartitionName=batch", "Priority=65534"}, 1,
			"scontrol: error: Invalid Priority value: 65534\n" + noErr},
		"a bad LLN": {[]string{"update", "PartitionName=batch", "LLN=maybe"}, 1,
			"scontrol: error: Invalid input: LLN=maybe\nscontrol: error: Acceptable LLN values are YES and NO\n" + noErr},
		"create with a bad LLN": {[]string{"create", "partition=foo", "LLN=maybe"}, 1,
			"scontrol: error: Invalid input: LLN=maybe\nscontrol: error: Acceptable LLN values are YES and NO\n"},
		"create with a bad Priority": {[]string{"create", "partition=foo", "Priority=abc"}, 1,
			"scontrol: error: Invalid Priority value: abc\n"},
		"create with an Alternate": {[]string{"create", "partition=foo", "Alternate=batch", "LLN=yes"}, 0, ""},
		"a bad state": {[]string{"update", "PartitionName=batch", "State=BOGUS"}, 1,
			"scontrol: error: Invalid input: State=BOGUS\nscontrol: error: Acceptable State values are UP, DOWN, DRAIN and INACTIVE\n" + noErr},
		"a bad MaxTime": {[]string{"update", "PartitionName=batch", "MaxTime=bad"}, 1,
			"scontrol: error: Invalid input MaxTime=bad\n" + noErr},
		"a bad DefaultTime": {[]string{"update", "PartitionName=batch", "DefaultTime=bad"}, 1,
			"scontrol: error: Invalid input DefaultTime=bad\n" + noErr},
		"a bad MaxNodes": {[]string{"update", "PartitionName=batch", "MaxNodes=x"}, 1,
			"scontrol: error: Invalid numeric value \"x\" for MaxNodes.\n"},
		"a bad MinNodes warns": {[]string{"update", "PartitionName=batch", "MinNodes=x"}, 0,
			"scontrol: error: \"x\" is not a valid node count\n"},
		"an unknown partition": {[]string{"update", "PartitionName=nosuch", "State=UP"}, 1,
			"slurm_update error: Invalid partition name specified\n"},
		"no changes": {[]string{"update", "PartitionName=batch"}, 1, "scontrol: error: No changes specified\n"},
		"a bad Default": {[]string{"update", "PartitionName=batch", "Default=maybe"}, 1,
			"scontrol: error: Invalid input: Default=maybe\nscontrol: error: Acceptable Default values are YES and NO\n" + noErr},
		"a bad Hidden": {[]string{"update", "PartitionName=batch", "Hidden=maybe"}, 1,
			"scontrol: error: Invalid input: Hidden=maybe\nscontrol: error: Acceptable Hidden values are YES and NO\n" + noErr},
		"an unknown node": {[]string{"update", "PartitionName=batch", "Nodes=nosuch[1-2]"}, 1,
			"slurm_update error: Invalid node name specified\n"},
		"a bad OverSubscribe": {[]string{"update", "PartitionName=batch", "OverSubscribe=BAD"}, 1,
			"scontrol: error: Invalid input: OverSubscribe=BAD\nscontrol: error: Acceptable OverSubscribe values are NO, EXCLUSIVE, YES:#, and FORCE:#\n" + noErr},
		"a bad PriorityTier": {[]string{"update", "PartitionName=batch", "PriorityTier=x"}, 1,
			"scontrol: error: Invalid PriorityTier value: x\n" + noErr},
		"a bad GraceTime": {[]string{"update", "PartitionName=batch", "GraceTime=x"}, 1,
			"scontrol: error: Invalid GraceTime value: x\n" + noErr},
		"a key without value": {[]string{"update", "PartitionName=batch", "State"}, 1,
			"scontrol: error: Invalid input: State  Request aborted\n"},
		"AllowAccounts= is ALL": {[]string{"update", "PartitionName=batch", "AllowAccounts="}, 0, ""},
		"state drain":           {[]string{"update", "PartitionName=batch", "State=drain"}, 0, ""},
		"delete an unknown": {[]string{"delete", "partition=nosuch"}, 1,
			"delete_partition partition=nosuch: Invalid partition name specified\n"},
		"delete one in use": {[]string{"delete", "partition=busy"}, 1,
			"delete_partition partition=busy: Partition is in use\n"},
		"delete an unknown after a space": {[]string{"delete", "partition", "nosuch"}, 1,
			"delete_partition partition: Invalid partition name specified\n"},
		"delete without a name": {[]string{"delete", "partition"}, 1,
			"scontrol: error: Proper format is 'delete <ENTITY>=<ID>' or 'delete <ENTITY> <ID>'\n"},
		"delete NAME after a space": {[]string{"delete", "PartitionName", "batch"}, 0, ""},
		"create without a name": {[]string{"create", "partition"}, 1,
			"scontrol: error: Invalid input: partition  Request aborted\n"},
		"create an existing": {[]string{"create", "partitionname=batch"}, 1,
			"Error creating the partition: Invalid partition name specified\n"},
		"create with an unknown key": {[]string{"create", "partition=foo", "Bogus=1"}, 1,
			"scontrol: error: Update of this parameter is not supported: Bogus=1\n\nscontrol: error: Request aborted\n"},
		"create": {[]string{"create", "partition=foo", "Nodes=cpu008", "MaxTime=10", "State=UP"}, 0, ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			code, out := runPart(&partFake{fakeController: &fakeController{}}, tc.args...)
			if diff := cmp.Diff(tc.want, out); diff != "" || code != tc.wantCode {
				t.Errorf("exit %d, want %d; output (-want +got):\n%s", code, tc.wantCode, diff)
			}
		})
	}
}

// TestScontrolPartitionUpdateSends: the keys admins use reach the
// controller with Slurm's spellings and abbreviations.
func TestScontrolPartitionUpdateSends(t *testing.T) {
	f := &partFake{fakeController: &fakeController{}}
	code, out := runPart(f, "update", "PartitionName=batch", "State=down", "MaxTime=UNLIMITED", "DefaultTime=30",
		"MaxNodes=4", "MinNodes=1", "Default=YES", "PriorityTier=3", "PriorityJobFactor=2",
		"AllowAccounts=ALL", "DenyAccounts=a,b", "Nodes=cpu[001-002]", "OverSubscribe=exclusive", "Hidden=NO",
		"AllowG=ops,hpc")
	if code != 0 || out != "" {
		t.Fatalf("exit %d: %s", code, out)
	}
	st, maxT, defT, maxN, minN, yes, tier, factor := "DOWN", int64(api.UnlimitedSeconds), int64(1800), int64(4), int64(1), true, 3, 2
	nodes, over, no := "cpu[001-002]", "EXCLUSIVE", false
	want := api.PartitionUpdate{Name: "batch", State: &st, MaxTime: &maxT, DefaultTime: &defT, MaxNodes: &maxN,
		MinNodes: &minN, Default: &yes, PriorityTier: &tier, PriorityJobFactor: &factor,
		AllowAccounts: &[]string{}, DenyAccounts: &[]string{"a", "b"}, Nodes: &nodes, OverSubscribe: &over,
		Hidden: &no, AllowGroups: &[]string{"ops", "hpc"}}
	if diff := cmp.Diff([]api.PartitionUpdate{want}, f.updates); diff != "" {
		t.Errorf("update sent (-want +got):\n%s", diff)
	}
}

// TestScontrolPartitionRouteKeys: Priority= sets PriorityTier and
// PriorityJobFactor, Alternate= (Alt at least, empty to clear) and LLN=
// (L at least) reach the controller, as the peer takes them.
func TestScontrolPartitionRouteKeys(t *testing.T) {
	n5, n8, n4, alt, none, yes, no := 5, 8, 4, "batch", "", true, false
	tests := map[string]struct {
		args []string
		want api.PartitionUpdate
	}{
		"Priority sets both":      {[]string{"Priority=5"}, api.PartitionUpdate{PriorityTier: &n5, PriorityJobFactor: &n5}},
		"Pri is Priority":         {[]string{"Pri=5"}, api.PartitionUpdate{PriorityTier: &n5, PriorityJobFactor: &n5}},
		"Priori is Priority":      {[]string{"Priori=8"}, api.PartitionUpdate{PriorityTier: &n8, PriorityJobFactor: &n8}},
		"PriorityJ is the factor": {[]string{"PriorityJ=4"}, api.PartitionUpdate{PriorityJobFactor: &n4}},
		"PriorityT is the tier":   {[]string{"PriorityT=4"}, api.PartitionUpdate{PriorityTier: &n4}},
		"Alternate":               {[]string{"Alternate=batch"}, api.PartitionUpdate{Alternate: &alt}},
		"Alt is Alternate":        {[]string{"Alt=batch"}, api.PartitionUpdate{Alternate: &alt}},
		"an empty Alternate":      {[]string{"Altern="}, api.PartitionUpdate{Alternate: &none}},
		"LLN=yes":                 {[]string{"LLN=yes"}, api.PartitionUpdate{LLN: &yes}},
		"L=no":                    {[]string{"L=no"}, api.PartitionUpdate{LLN: &no}},
		"LL=YES":                  {[]string{"LL=YES"}, api.PartitionUpdate{LLN: &yes}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &partFake{fakeController: &fakeController{}}
			if code, out := runPart(f, append([]string{"update", "PartitionName=batch"}, tc.args...)...); code != 0 || out != "" {
				t.Fatalf("exit %d: %s", code, out)
			}
			tc.want.Name = "batch"
			if diff := cmp.Diff([]api.PartitionUpdate{tc.want}, f.updates); diff != "" {
				t.Errorf("update sent (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSinfoPartAvail: sinfo's AVAIL for each partition state, as the peer
// prints it with %a ("inactive"; the default format's %.5a cuts it).
func TestSinfoPartAvail(t *testing.T) {
	got := map[string]string{}
	for _, s := range []string{"UP", "DOWN", "DRAIN", "INACTIVE", ""} {
		got[s] = partAvail(&api.Partition{State: s})
	}
	want := map[string]string{"UP": "up", "DOWN": "down", "DRAIN": "drain", "INACTIVE": "inactive", "": "up"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("AVAIL (-want +got):\n%s", diff)
	}
}

// TestScontrolShowEmptyPartition: a partition created without nodes
// prints Nodes=(null) and TRES=(null), as the peer's scontrol create
// partition=NAME left it (testdata/peer/scontrol-partition).
func TestScontrolShowEmptyPartition(t *testing.T) {
	want := readPeer(t, "scontrol-partition/show-created-empty.txt")
	p := api.Partition{Name: "s13ctest2", State: "UP", MaxTime: api.UnlimitedSeconds, MaxNodes: -1, MinNodes: 1,
		PriorityTier: 1, PriorityJobFactor: 1, PreemptMode: "REQUEUE", OverSubscribe: "NO",
		InheritedMemory: []string{"DefMemPerCPU", "DefMemPerGPU", "MaxMemPerNode"}}
	f := &fakeController{now: 1795950000, partitions: []api.Partition{p}}
	te := newTestEnv(f, 1795950000)
	if code := Scontrol(context.Background(), te.Env, []string{"show", "partition", "s13ctest2"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	if diff := cmp.Diff(want, te.stdout.String()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestScontrolNodeUpdateMessages: scontrol's own checks of update
// NodeName=..., with the peer's text and status (cpu008, Slurm 22.05).
func TestScontrolNodeUpdateMessages(t *testing.T) {
	tests := map[string]struct {
		args     []string
		wantCode int
		want     string
		wantSent int
	}{
		"FAIL needs a reason": {[]string{"State=FAIL"}, 1,
			"You must specify a reason when DOWNING or DRAINING a node. Request denied\n", 0},
		"an unknown state": {[]string{"State=BOGUS"}, 1, "Invalid input: State=BOGUS\nRequest aborted\n" +
			"Valid states are: NoResp DRAIN FAIL FUTURE RESUME POWER_DOWN POWER_UP UNDRAIN\n" +
			"Not all states are valid given a node's prior state\n", 0},
		"a bad weight": {[]string{"Weight=x"}, 1,
			"scontrol: error: Weight value (x) is not a valid number\nNo changes specified\n", 0},
		"a negative weight": {[]string{"Weight=-1"}, 1,
			"scontrol: error: Weight value (-1) is less than zero\nNo changes specified\n", 0},
		"nothing to change":      {nil, 1, "No changes specified\n", 0},
		"an empty reason":        {[]string{"Reason="}, 0, "", 1},
		"a weight":               {[]string{"Weight=5"}, 0, "", 1},
		"active features":        {[]string{"ActiveFeatures=cpu"}, 0, "", 1},
		"gres":                   {[]string{"Gres="}, 0, "", 1},
		"an unknown key":         {[]string{"Foo=1"}, 1, "Update of this parameter is not supported: Foo=1\nRequest aborted\n", 0},
		"a state the peer takes": {[]string{"State=NoResp"}, 0, "", 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{}
			te := newTestEnv(f, 1795950000)
			code := Scontrol(context.Background(), te.Env, append([]string{"update", "NodeName=cpu008"}, tc.args...))
			out := te.stdout.String() + te.stderr.String()
			if diff := cmp.Diff(tc.want, out); diff != "" || code != tc.wantCode || len(f.nodeUpds) != tc.wantSent {
				t.Errorf("exit %d, want %d; sent %d, want %d; output (-want +got):\n%s", code, tc.wantCode, len(f.nodeUpds), tc.wantSent, diff)
			}
		})
	}
}

// TestSinfoFailState: a node put in State=FAIL shows as the peer's sinfo
// shows cpu008 then ("fail" for %T and %t), FAILING while jobs run, and
// sinfo -t fail selects it.
func TestSinfoFailState(t *testing.T) {
	got := map[string][3]string{}
	for name, n := range map[string]api.Node{
		"idle":    {State: api.NodeIdle, StateFlags: []string{api.FlagFail}},
		"running": {State: api.NodeMixed, StateFlags: []string{api.FlagFail}},
		"drained": {State: api.NodeIdle, StateFlags: []string{api.FlagDrain}},
	} {
		s := nodeStateNum(&n)
		got[name] = [3]string{stateLong(s), stateCompact(s), fmt.Sprint(sinfoStates["FAIL"](&n, s))}
	}
	want := map[string][3]string{"idle": {"FAIL", "FAIL", "true"}, "running": {"FAILING", "FAILG", "true"},
		"drained": {"DRAINED", "DRAIN", "false"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
