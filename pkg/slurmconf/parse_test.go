package slurmconf

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

const header = "ClusterName=t\nSlurmctldHost=ctl\n"

// errorLines splits a joined error into its messages.
func errorLines(err error) []string {
	if err == nil {
		return nil
	}
	return strings.Split(err.Error(), "\n")
}

func TestParseErrorsNameFileLineAndKey(t *testing.T) {
	tests := map[string]struct {
		files fstest.MapFS
		want  []string
	}{
		"every error is reported, in file order": {
			files: fstest.MapFS{"slurm.conf": {Data: []byte(header +
				"KillWait=soon\n" +
				"Include more.conf\n" +
				"NodeName=n[1-2] CPUs=0 RealMemory=lots Gres=gpu:x:y:z\n" +
				"PartitionName=p Nodes=n[1-2] MaxTime=forever QueueClass=vip AgingRate=-1\n" +
				"MaxJobCont=5\n")},
				"more.conf": {Data: []byte("\nNodeName=m1 Prt=5\n")},
			},
			want: []string{
				`slurm.conf:3: KillWait: invalid value: "soon" is not a valid number`,
				`more.conf:2: NodeName=m1: Prt: unknown key: not a NodeName key, did you mean Port?`,
				`slurm.conf:5: NodeName=n[1-2]: CPUs: invalid value: must be at least 1`,
				`slurm.conf:5: NodeName=n[1-2]: RealMemory: invalid value: "lots" is not a memory size: `,
				`slurm.conf:5: NodeName=n[1-2]: Gres: invalid value: "gpu:x:y:z": `,
				`slurm.conf:6: PartitionName=p: MaxTime: invalid value: "forever" is not a time limit: `,
				`slurm.conf:6: PartitionName=p: QueueClass: invalid value: "vip" is not one of urgent, normal, batch`,
				`slurm.conf:6: PartitionName=p: AgingRate: invalid value: "-1" is not a non-negative number`,
				`slurm.conf:7: MaxJobCont: unknown key: not a slurm.conf key, did you mean MaxJobCount?`,
			},
		},
		"a bad DEFAULT value is reported once, at the DEFAULT line": {
			files: fstest.MapFS{"slurm.conf": {Data: []byte(header +
				"NodeName=DEFAULT Weight=heavy\nNodeName=a1\nNodeName=b1\n")}},
			want: []string{`slurm.conf:3: NodeName=DEFAULT: Weight: invalid value: "heavy" is not a valid number`},
		},
		"a log level slurmctld does not know": {
			files: fstest.MapFS{"slurm.conf": {Data: []byte(header + "SlurmctldDebug=loud\nSlurmdDebug=10\n")}},
			want: []string{
				`slurm.conf:3: SlurmctldDebug: invalid value: "loud" is not a log level (quiet, fatal, error, info, verbose, debug, debug2, debug3, debug4, debug5, or 0-9)`,
				`slurm.conf:4: SlurmdDebug: invalid value: "10" is not a log level (`,
			},
		},
		"a missing slurm.conf": {
			files: fstest.MapFS{},
			want:  []string{`slurm.conf: open slurm.conf: file does not exist`},
		},
		"host lists too large are refused before they are built": {
			files: fstest.MapFS{"slurm.conf": {Data: []byte(header + "NodeName=n[1-99999999]\n")}},
			want:  []string{`slurm.conf:3: NodeName=n[1-99999999]: NodeName: invalid value: `},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(tc.files, "slurm.conf")
			checkErrorPrefixes(t, err, tc.want)
			for _, e := range joined(err) {
				var pe *Error
				if !errors.As(e, &pe) {
					t.Errorf("%v is not an *Error", e)
				}
			}
		})
	}
}

// checkErrorPrefixes checks that err holds one message per want, each
// starting with it. Prefixes stop where the message of another package's
// parser (hostlist, slurmtime, resource) begins.
func checkErrorPrefixes(t *testing.T, err error, want []string) {
	t.Helper()
	got := errorLines(err)
	if len(got) != len(want) {
		t.Errorf("got %d errors, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
		return
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("error %d:\n got %s\nwant %s...", i, got[i], want[i])
		}
	}
}

func joined(err error) []error {
	if u, ok := err.(interface{ Unwrap() []error }); ok {
		return u.Unwrap()
	}
	if err == nil {
		return nil
	}
	return []error{err}
}

func parseOK(t *testing.T, conf string) *Config {
	t.Helper()
	c, err := Parse(fstest.MapFS{"slurm.conf": {Data: []byte(header + conf)}}, "slurm.conf")
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return c
}

func TestNodeLines(t *testing.T) {
	c := parseOK(t, `
NodeName=DEFAULT CPUs=8 RealMemory=1000 Feature=a
NodeName=n[1-2] NodeHostname=h[1-2] Port=[7001-7002]
NodeName=DEFAULT RealMemory=2G
NodeName=n3 NodeAddr=10.0.0.3 Features=b,c State=drain Reason="disk swap"
`)
	type node struct {
		Name, Host, Addr string
		Port, CPUs       int
		Mem              int64
		Features         []string
		State, Reason    string
	}
	var got []node
	for _, n := range c.Nodes {
		got = append(got, node{n.Name, n.Hostname, n.Addr, n.Port, n.CPUs, n.RealMemory, n.Features, n.State, n.Reason})
	}
	want := []node{
		{"n1", "h1", "h1", 7001, 8, 1000, []string{"a"}, "UNKNOWN", ""},
		{"n2", "h2", "h2", 7002, 8, 1000, []string{"a"}, "UNKNOWN", ""},
		{"n3", "n3", "10.0.0.3", 6818, 8, 2048, []string{"b", "c"}, "DRAIN", "disk swap"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("nodes (-want +got):\n%s", diff)
	}
}

func TestNodeHardwareInference(t *testing.T) {
	tests := map[string]struct {
		line string
		want [5]int // CPUs, Boards, Sockets, CoresPerSocket, ThreadsPerCore
	}{
		"only CPUs: one core per socket":      {"CPUs=64", [5]int{64, 1, 64, 1, 1}},
		"sockets from CPUs":                   {"CPUs=64 CoresPerSocket=32", [5]int{64, 1, 2, 32, 1}},
		"CPUs from the layout":                {"Sockets=2 CoresPerSocket=56 ThreadsPerCore=2", [5]int{224, 1, 2, 56, 2}},
		"boards times sockets per board":      {"Boards=2 SocketsPerBoard=2 CoresPerSocket=8", [5]int{32, 2, 4, 8, 1}},
		"CPUs may count cores, not threads":   {"CPUs=112 Sockets=2 CoresPerSocket=56 ThreadsPerCore=2", [5]int{112, 1, 2, 56, 2}},
		"nothing given":                       {"", [5]int{1, 1, 1, 1, 1}},
		"mismatching CPUs are reset (warned)": {"CPUs=5 Sockets=2", [5]int{2, 1, 2, 1, 1}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			n := parseOK(t, "NodeName=n1 "+tc.line+"\n").Nodes[0]
			got := [5]int{n.CPUs, n.Boards, n.Sockets, n.CoresPerSocket, n.ThreadsPerCore}
			if got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestPartitions(t *testing.T) {
	c := parseOK(t, `
PreemptMode=REQUEUE
DefMemPerCPU=1000
NodeName=b[1-2],a1
PartitionName=DEFAULT MaxTime=1-0 GraceTime=60
PartitionName=p1 Nodes="a1 b2,b1,a1" AllowAccounts=Research,ops DenyAccounts=x Default=YES
PartitionName=p2 Nodes=ALL MaxTime=UNLIMITED MaxNodes=4 PreemptMode=cancel RequiredMounts=/data/,/scratch DefMemPerCPU=1000
`)
	p1, p2 := c.Partitions[0], c.Partitions[1]
	if diff := cmp.Diff([]string{"b1", "b2", "a1"}, p1.Nodes); diff != "" {
		t.Errorf("p1 nodes in node-table order (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"research", "ops"}, p1.AllowAccounts); diff != "" {
		t.Errorf("AllowAccounts (-want +got):\n%s", diff)
	}
	if p1.DenyAccounts != nil || len(c.Warnings) != 1 {
		t.Errorf("DenyAccounts with AllowAccounts should be dropped with a warning: %v %v", p1.DenyAccounts, c.Warnings)
	}
	if p1.MaxTime != 24*time.Hour || p1.GraceTime != time.Minute || p1.PreemptMode != PreemptRequeue || p1.DefMemPerCPU != 1000 {
		t.Errorf("p1 defaults: MaxTime=%v GraceTime=%v PreemptMode=%v DefMemPerCPU=%d", p1.MaxTime, p1.GraceTime, p1.PreemptMode, p1.DefMemPerCPU)
	}
	if p2.MaxTime != slurmtime.Unlimited || p2.MaxNodes != 4 || p2.PreemptMode != PreemptCancel || p2.Default {
		t.Errorf("p2: %+v", p2)
	}
	if diff := cmp.Diff([]string{"/data", "/scratch"}, p2.RequiredMounts); diff != "" {
		t.Errorf("RequiredMounts (-want +got):\n%s", diff)
	}
	// p2 sets the cluster's very DefMemPerCPU: its own, not inherited.
	if diff := cmp.Diff([]string{"DefMemPerCPU", "DefMemPerGPU", "MaxMemPerNode", "DefMemPerNode", "MaxMemPerCPU"}, p1.InheritedMemory); diff != "" {
		t.Errorf("p1 inherited memory keys (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"DefMemPerGPU", "MaxMemPerNode", "DefMemPerNode", "MaxMemPerCPU"}, p2.InheritedMemory); diff != "" {
		t.Errorf("p2 inherited memory keys (-want +got):\n%s", diff)
	}
	if d, ok := c.DefaultPartition(); !ok || d.Name != "p1" {
		t.Errorf("DefaultPartition = %v, %v", d, ok)
	}
}

func TestHiddenAndAllowGroups(t *testing.T) {
	c := parseOK(t, `
NodeName=n1
PartitionName=open Nodes=n1
PartitionName=secret Nodes=n1 Hidden=YES AllowGroups=Ops,hpc
PartitionName=everyone Nodes=n1 AllowGroups=hpc,ALL Hidden=no
`)
	got := map[string]any{}
	for _, p := range c.Partitions {
		got[p.Name] = []any{p.Hidden, p.AllowGroups}
	}
	want := map[string]any{
		"open":     []any{false, []string(nil)},
		"secret":   []any{true, []string{"Ops", "hpc"}}, // group names keep their case
		"everyone": []any{false, []string(nil)},         // ALL anywhere in the list opens it
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Hidden, AllowGroups (-want +got):\n%s", diff)
	}
	if len(c.Warnings) != 0 {
		t.Errorf("Hidden and AllowGroups are honoured, no warning: %v", c.Warnings)
	}
}

func TestQueueClassFromPriorityTier(t *testing.T) {
	tests := map[string]struct {
		parts string
		want  []QueueClass
	}{
		"one tier: all normal": {
			"PartitionName=a\nPartitionName=b\n",
			[]QueueClass{ClassNormal, ClassNormal}},
		"two tiers: normal and batch": {
			"PartitionName=a PriorityTier=5\nPartitionName=b PriorityTier=1\n",
			[]QueueClass{ClassNormal, ClassBatch}},
		"three tiers: urgent, normal, batch": {
			"PartitionName=u PriorityTier=3\nPartitionName=n PriorityTier=2\nPartitionName=n2 PriorityTier=2\nPartitionName=b PriorityTier=1\n",
			[]QueueClass{ClassUrgent, ClassNormal, ClassNormal, ClassBatch}},
		"four tiers: the middle ones are normal": {
			"PartitionName=a PriorityTier=9\nPartitionName=b PriorityTier=5\nPartitionName=c PriorityTier=4\nPartitionName=d PriorityTier=0\n",
			[]QueueClass{ClassUrgent, ClassNormal, ClassNormal, ClassBatch}},
		"a written class wins": {
			"PartitionName=a PriorityTier=3 QueueClass=Batch\nPartitionName=b PriorityTier=2\nPartitionName=c PriorityTier=1\n",
			[]QueueClass{ClassBatch, ClassNormal, ClassBatch}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := parseOK(t, tc.parts)
			var got []QueueClass
			for _, p := range c.Partitions {
				got = append(got, p.QueueClass)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestQueueKeysOverClassDefaults(t *testing.T) {
	c := parseOK(t, "PartitionName=u QueueClass=urgent AgingCap=100 ReservationTimeout=45 CheckpointSignal=sigusr2\n"+
		"PartitionName=b QueueClass=batch CheckpointSignal=15 ReservationMode=strict\n")
	u, b := c.Partitions[0].Queue, c.Partitions[1].Queue
	wantU := QueueDefaults(ClassUrgent)
	wantU.AgingCap, wantU.ReservationTimeout, wantU.CheckpointSignal = 100, 45*time.Minute, "USR2"
	if diff := cmp.Diff(wantU, u); diff != "" {
		t.Errorf("urgent (-want +got):\n%s", diff)
	}
	wantB := QueueDefaults(ClassBatch)
	wantB.CheckpointSignal, wantB.ReservationMode = "TERM", ReserveStrict
	if diff := cmp.Diff(wantB, b); diff != "" {
		t.Errorf("batch (-want +got):\n%s", diff)
	}
}

func TestBadQueueValues(t *testing.T) {
	_, err := Parse(fstest.MapFS{"slurm.conf": {Data: []byte(header +
		"PartitionName=p CheckpointSignal=KILL ReservationMode=lazy RequiredMounts=data ReservationDepth=x\n")}}, "slurm.conf")
	want := []string{
		`slurm.conf:3: PartitionName=p: ReservationDepth: invalid value: "x" is not a valid number`,
		`slurm.conf:3: PartitionName=p: ReservationMode: invalid value: "lazy" is not one of backfill, strict`,
		`slurm.conf:3: PartitionName=p: CheckpointSignal: invalid value: KILL cannot be caught, so it cannot ask a job to checkpoint`,
		`slurm.conf:3: PartitionName=p: RequiredMounts: invalid value: "data" is not an absolute path`,
	}
	if diff := cmp.Diff(want, errorLines(err)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestClusterKeys(t *testing.T) {
	c := parseOK(t, `
SlurmctldHost=backup
SlurmctldPort=7817
SchedulerParameters=bf_window=2880,sched_interval=20,bf_continue,bf_max_job_user=5,nohold_on_prolog_fail,disable_job_shrink,enable_user_top
PriorityWeightTRES=CPU=1000,GRES/gpu=3000
PreemptMode=SUSPEND,GANG
PreemptExemptTime=-1
JobRequeue=0
`)
	if got := []string{c.SlurmctldHosts[0].Host, c.SlurmctldHosts[1].Host}; !cmp.Equal(got, []string{"ctl", "backup"}) {
		t.Errorf("controllers = %v", got)
	}
	sp := c.SchedulerParameters
	if sp.BfWindow != 48*time.Hour || sp.SchedInterval != 20*time.Second || !sp.BfContinue || sp.BfInterval != 30*time.Second || !sp.NoHoldOnPrologFail {
		t.Errorf("SchedulerParameters = %+v", sp)
	}
	if diff := cmp.Diff(map[string]float64{"cpu": 1000, "gres/gpu": 3000}, c.PriorityWeightTRES); diff != "" {
		t.Errorf("PriorityWeightTRES (-want +got):\n%s", diff)
	}
	if c.PreemptMode != PreemptRequeue || c.PreemptExemptTime != 0 || c.JobRequeue || c.SlurmctldPort != 7817 {
		t.Errorf("PreemptMode=%v PreemptExemptTime=%v JobRequeue=%v SlurmctldPort=%d", c.PreemptMode, c.PreemptExemptTime, c.JobRequeue, c.SlurmctldPort)
	}
	var msgs []string
	for _, w := range c.Warnings {
		msgs = append(msgs, w.String())
	}
	want := []string{
		`slurm.conf:6: SchedulerParameters: option "bf_max_job_user=5" is not used by Loam, ignored`,
		`slurm.conf:8: PreemptMode: Loam does not suspend jobs: SUSPEND is read as REQUEUE`,
		`slurm.conf:8: PreemptMode: GANG is not used by Loam, ignored`,
	}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// TestRawKeysTheControllerReads: AuthInfo and SlurmctldParameters are read
// by the controller from Written (cred_expire, allow_user_triggers), so
// they load without the "not used by Loam" warning and keep their text.
func TestRawKeysTheControllerReads(t *testing.T) {
	c := parseOK(t, `
AuthInfo=cred_expire=30
SlurmctldParameters=allow_user_triggers,enable_configless
NodeName=n1
PartitionName=p Nodes=n1
`)
	if len(c.Warnings) != 0 {
		t.Errorf("AuthInfo and SlurmctldParameters are read, no warning: %v", c.Warnings)
	}
	got := []string{c.Written["authinfo"], c.Written["slurmctldparameters"]}
	if diff := cmp.Diff([]string{"cred_expire=30", "allow_user_triggers,enable_configless"}, got); diff != "" {
		t.Errorf("Written (-want +got):\n%s", diff)
	}
}
