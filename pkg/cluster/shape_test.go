package cluster

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/jobopt"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// peerConf mirrors the peer's slurm.conf where ShapeOf looks: DefMemPerCPU
// and the node sizes.
const peerConf = `ClusterName=peer
SlurmctldHost=localhost
DefMemPerCPU=1024
GresTypes=gpu
NodeName=gpu[001-032] CPUs=64 RealMemory=512000 Gres=gpu:8 Feature=gpu
NodeName=cpu[001-008] CPUs=32 RealMemory=128000 Feature=cpu
PartitionName=normal Nodes=ALL Default=YES DefaultTime=01:00:00 MaxTime=2-00:00:00
PartitionName=whole Nodes=gpu[001-004] OverSubscribe=EXCLUSIVE DefMemPerGPU=8000
`

func peerConfig(t *testing.T) *slurmconf.Config {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/slurm.conf", []byte(peerConf), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := slurmconf.Load(os.DirFS(dir), "slurm.conf")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// request parses sbatch options (as the command line) into a Request.
func request(t *testing.T, opts string) *job.Request {
	t.Helper()
	p := &jobopt.Parser{Cwd: "/tmp", Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	cl, err := p.CommandLine(append(strings.Fields(opts), "--wrap=true"))
	if err != nil {
		t.Fatalf("sbatch %s: %v", opts, err)
	}
	res, err := p.Submission(cl, nil)
	if err != nil {
		t.Fatalf("sbatch %s: %v", opts, err)
	}
	return &res.Request
}

// allocated is what a shape holds in total on nodes nodes: CPUs, memory
// (MB) and GPUs, as Slurm's TRES counts them.
func allocated(s sched.Shape, nodes int) (cpus int, mem int64, gpus int) {
	cpus = s.CPUs
	if s.CPUsPerNode > 0 && s.CPUs == 0 {
		cpus = s.CPUsPerNode * nodes
	}
	gpus = s.GPUs
	if s.GPUsPerNode > 0 {
		gpus = s.GPUsPerNode * nodes
	}
	switch {
	case s.MemPerNode > 0:
		mem = s.MemPerNode * int64(nodes)
	case s.MemPerGPU > 0:
		mem = s.MemPerGPU * int64(gpus)
	default:
		mem = s.MemPerCPU * int64(cpus)
	}
	return cpus, mem, gpus
}

// TestShapeMatchesPeer submits each option set of testdata/shape_peer.txt
// through the sbatch option parser and checks that the shape asks for the
// CPUs, memory and GPUs the real Slurm allocated.
func TestShapeMatchesPeer(t *testing.T) {
	cfg := peerConfig(t)
	part, _ := cfg.Partition("normal")
	f, err := os.Open("testdata/shape_peer.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, " | ")
		opts, tres, gres := cols[0], cols[1], cols[2]
		nodes, _ := strconv.Atoi(cols[3])
		n++
		t.Run(opts, func(t *testing.T) {
			s, err := ShapeOf(request(t, opts), cfg, part)
			if err != nil {
				t.Fatal(err)
			}
			want := s.Nodes
			if s.MaxNodes > 0 {
				want = s.MaxNodes // free, as on the idle peer
			}
			if want != 0 && want != nodes {
				t.Errorf("shape asks for %d nodes (%d-%d), the peer used %d", want, s.Nodes, s.MaxNodes, nodes)
			}
			cpus, mem, gpus := allocated(s, nodes)
			got := fmt.Sprintf("cpu=%d,mem=%dG,node=%d", cpus, mem/1024, nodes)
			if got != tres {
				t.Errorf("shape %+v holds %s, the peer allocated %s", s, got, tres)
			}
			wantGPUs := 0
			if gres != "-" {
				wantGPUs, _ = strconv.Atoi(strings.TrimPrefix(gres, "gpu:"))
			}
			if gpus != wantGPUs {
				t.Errorf("shape %+v holds %d GPUs, the peer %d", s, gpus, wantGPUs)
			}
		})
	}
	if n < 10 {
		t.Fatalf("only %d peer cases read", n)
	}
}

func TestShapeOf(t *testing.T) {
	cfg := peerConfig(t)
	normal, _ := cfg.Partition("normal")
	whole, _ := cfg.Partition("whole")
	tests := map[string]struct {
		opts    string
		part    *slurmconf.Partition
		want    sched.Shape
		wantErr string
	}{
		"--exclusive asks for whole nodes": {
			opts: "--exclusive -N1", part: normal,
			want: sched.Shape{Nodes: 1, CPUsPerNode: 1, MemPerCPU: 1024, Exclusive: true}},
		"an EXCLUSIVE partition gives whole nodes, DefMemPerGPU memory per GPU": {
			opts: "--gpus-per-node=4", part: whole,
			want: sched.Shape{Nodes: 1, CPUsPerNode: 1, GPUsPerNode: 4, MemPerGPU: 8000, Exclusive: true}},
		"--mem=0 takes each node's whole memory": {
			opts: "--mem=0", part: normal,
			want: sched.Shape{CPUsPerNode: 1, MemWhole: true}},
		"--ntasks-per-gpu with GPUs per node: each node its GPUs' tasks": {
			opts: "--gpus-per-node=8 -N2 --ntasks-per-gpu=1", part: normal,
			want: sched.Shape{Nodes: 2, CPUsPerNode: 8, GPUsPerNode: 8, MemPerCPU: 1024}},
		"--ntasks-per-gpu with -N: an equal share of the tasks a node": {
			opts: "-N3 --ntasks-per-gpu=3", part: normal,
			want: sched.Shape{Nodes: 3, CPUsPerNode: 3, GPUs: 3, MemPerCPU: 1024}},
		"-N1-4 -n4 --ntasks-per-node=2: two to four nodes of two tasks": {
			opts: "-N1-4 -n4 --ntasks-per-node=2", part: normal,
			want: sched.Shape{Nodes: 2, MaxNodes: 4, CPUsPerNode: 2, MemPerCPU: 1024}},
		"--exclusive --mem=0 leaves each node its own memory": {
			opts: "--exclusive --mem=0 -N1", part: normal,
			want: sched.Shape{Nodes: 1, CPUsPerNode: 1, Exclusive: true}},
		"a GPU type is required": {
			opts: "--gpus-per-node=h100:8 -N2", part: normal,
			want: sched.Shape{Nodes: 2, CPUsPerNode: 1, GPUsPerNode: 8, GPUType: "h100", MemPerCPU: 1024}},
		"-w, -x and -C": {
			opts: "-w gpu[001-002] -x gpu003 -C gpu&ib", part: normal,
			want: sched.Shape{Nodes: 2, CPUsPerNode: 1, MemPerCPU: 1024, NodeList: []string{"gpu001", "gpu002"},
				Exclude: []string{"gpu003"}, Features: []string{"gpu", "ib"}}},
		// The peer runs -w gpu032 -n100 on gpu[031-032], -w gpu032
		// --gpus=12 on 2 nodes, -w gpu032 -n2 on gpu032 alone.
		"-w without -N takes more nodes as the tasks need": {
			opts: "-w gpu032 -n100", part: normal,
			want: sched.Shape{Nodes: 1, MaxNodes: 100, CPUs: 100, MemPerCPU: 1024, NodeList: []string{"gpu032"}}},
		"-w without -N takes more nodes as the GPUs need": {
			opts: "-w gpu032 --gpus=12", part: normal,
			want: sched.Shape{Nodes: 1, MaxNodes: 12, CPUsPerNode: 1, GPUs: 12, MemPerCPU: 1024, NodeList: []string{"gpu032"}}},
		"-w with -N keeps the node count": {
			opts: "-w gpu032 -N1 -n2", part: normal,
			want: sched.Shape{Nodes: 1, CPUs: 2, MemPerCPU: 1024, NodeList: []string{"gpu032"}}},
		"-n with -c: one task's CPUs is the least share of a node": {
			opts: "-N2 -n4 -c2", part: normal,
			want: sched.Shape{Nodes: 2, CPUs: 8, CPUsPerNode: 2, MemPerCPU: 1024}},
		"-n with one CPU per task": {
			opts: "-N2 -n4", part: normal,
			want: sched.Shape{Nodes: 2, CPUs: 4, MemPerCPU: 1024}},
		// The peer: -n4 --spread-job runs on 4 nodes, 1(x4); -N2 -n4
		// --spread-job keeps NumNodes=2-2.
		"--spread-job tries a task a node": {
			opts: "-n4 --spread-job", part: normal,
			want: sched.Shape{MaxNodes: 4, CPUs: 4, MemPerCPU: 1024}},
		"--spread-job with -N keeps the node count": {
			opts: "-N2 -n4 --spread-job", part: normal,
			want: sched.Shape{Nodes: 2, MaxNodes: 0, CPUs: 4, MemPerCPU: 1024}},
		// The peer: -N1-2 -n2 runs on 2 idle nodes, with --use-min-nodes
		// on 1.
		"-N min-max tries max nodes": {
			opts: "-N1-2 -n2", part: normal,
			want: sched.Shape{Nodes: 1, MaxNodes: 2, CPUs: 2, MemPerCPU: 1024}},
		"--use-min-nodes keeps min nodes": {
			opts: "-N1-2 -n2 --use-min-nodes", part: normal,
			want: sched.Shape{Nodes: 1, CPUs: 2, MemPerCPU: 1024}},
		"--spread-job with one task": {
			opts: "-n1 --spread-job", part: normal,
			want: sched.Shape{CPUs: 1, MemPerCPU: 1024}},
		"a constraint with OR is parsed": {
			opts: "-C a|b", part: normal,
			want: sched.Shape{CPUsPerNode: 1, MemPerCPU: 1024, Constraint: mustConstraint(t, "a|b")}},
		"counts raise the node count": {
			opts: "-C [a*2&b*1]", part: normal,
			want: sched.Shape{Nodes: 3, CPUsPerNode: 1, MemPerCPU: 1024, Constraint: mustConstraint(t, "[a*2&b*1]")}},
		"a bad constraint is an error": {
			opts: "-C a||b", part: normal, wantErr: "Invalid feature specification"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ShapeOf(request(t, tc.opts), cfg, tc.part)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			// LimitMem has its own test (memlimits_test.go).
			if diff := cmp.Diff(tc.want, got, cmpopts.IgnoreFields(sched.Shape{}, "LimitMem")); diff != "" {
				t.Errorf("ShapeOf (-want +got):\n%s", diff)
			}
		})
	}
}

func mustConstraint(t *testing.T, s string) *job.Constraint {
	t.Helper()
	c, err := job.ParseConstraint(s)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestShapeNumCPUs: scontrol update NumCPUs= (or MinCPUsNode=) gives the
// job that many CPUs whatever its tasks need, as the peer runs a -n4 job
// updated to MinCPUsNode=1 on one CPU; at least one a node.
func TestShapeNumCPUs(t *testing.T) {
	cfg := peerConfig(t)
	normal, _ := cfg.Partition("normal")
	for _, tc := range []struct {
		req  job.Request
		want int
	}{
		{job.Request{NTasks: 4, NumCPUs: 1}, 1},
		{job.Request{NTasks: 4, CPUsPerTask: 2, NumCPUs: 3}, 3},
		{job.Request{MinNodes: 2, NodesSet: true, NumCPUs: 1}, 2},
		{job.Request{NTasks: 4}, 4},
	} {
		s, err := ShapeOf(&tc.req, cfg, normal)
		if err != nil || s.CPUs != tc.want || (tc.req.NumCPUs > 0 && s.CPUsPerNode != 0) {
			t.Errorf("%+v: CPUs %d per node %d (%v), want %d", tc.req, s.CPUs, s.CPUsPerNode, err, tc.want)
		}
	}
}

// TestShapeGPUTotalWithPerTask: --gpus stays the job's total beside
// --gpus-per-task when the tasks hold fewer (srun -G4 --gpus-per-task=1
// keeps one task, and the peer allocates 4 GPUs for it).
func TestShapeGPUTotalWithPerTask(t *testing.T) {
	cfg := peerConfig(t)
	normal, _ := cfg.Partition("normal")
	gpus := func(n int64) []resource.GRES { return []resource.GRES{{Name: "gpu", Count: n}} }
	q := &job.Request{GPUs: gpus(4), GPUsPerTask: gpus(1)}
	s, err := ShapeOf(q, cfg, normal)
	if err != nil {
		t.Fatal(err)
	}
	if s.GPUs != 4 {
		t.Errorf("shape holds %d GPUs, want 4", s.GPUs)
	}
}
