package cluster

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/slurmconf"
)

// specConf is the third peer's two nodes: CoreSpecCount=2 and
// CPUSpecList=0,1, each with MemSpecLimit=8192, next to a plain one.
const specConf = `NodeName=gpu001 CPUs=64 SocketsPerBoard=2 CoresPerSocket=32 RealMemory=512000 CoreSpecCount=2 MemSpecLimit=8192
NodeName=gpu002 CPUs=64 SocketsPerBoard=2 CoresPerSocket=32 RealMemory=512000 CPUSpecList=0,1 MemSpecLimit=8192
NodeName=gpu003 CPUs=64 SocketsPerBoard=2 CoresPerSocket=32 RealMemory=512000
PartitionName=spec Nodes=gpu[001-002]
`

func specConfig(t *testing.T) *slurmconf.Config {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/slurm.conf", []byte(specConf), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := slurmconf.Load(os.DirFS(dir), "slurm.conf")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestCoreSpecNodes: the scheduler sees a node's CPUs less its
// specialized ones and RealMemory less MemSpecLimit (the peer gave an
// --exclusive job 62 CPUs and refused --mem=503809 where --mem=503808
// was accepted); a node without them is unchanged.
func TestCoreSpecNodes(t *testing.T) {
	type node struct {
		CPUs  int
		MemMB int64
	}
	var got []node
	for _, n := range Nodes(specConfig(t)) {
		got = append(got, node{n.CPUs, n.MemMB})
	}
	want := []node{{62, 503808}, {62, 503808}, {64, 512000}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestCoreSpecMemZero: --mem=0 asks for all the memory a job may have on
// each node, RealMemory less MemSpecLimit (the nodes' MemMB above), and
// is checked against MaxMemPerNode as the partition's smallest node.
func TestCoreSpecMemZero(t *testing.T) {
	cfg := specConfig(t)
	p, _ := cfg.Partition("spec")
	s, err := ShapeOf(request(t, "--mem=0"), cfg, p)
	if err != nil {
		t.Fatal(err)
	}
	if !s.MemWhole || s.MemPerNode != 0 || s.LimitMem != 503808 {
		t.Errorf("MemWhole %v, MemPerNode %d, LimitMem %d; want true, 0, 503808", s.MemWhole, s.MemPerNode, s.LimitMem)
	}
}
