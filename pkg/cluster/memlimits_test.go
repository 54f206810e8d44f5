package cluster

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/slurmconf"
)

// memConf is the peer's partitions over cpu001 (RealMemory=128000) with
// the memory keys tried there.
const memConf = `DefMemPerCPU=1024
NodeName=cpu001 CPUs=32 RealMemory=128000
PartitionName=emnode Nodes=cpu001 DefMemPerNode=1000 MaxMemPerNode=4000
PartitionName=emdef Nodes=cpu001 DefMemPerNode=3000
PartitionName=emcpu Nodes=cpu001 MaxMemPerCPU=2000
`

// TestMemLimitsShape: the per-node memory compared with MaxMemPerNode,
// the partition's default memory, and the limit the scheduler gets; each
// with what the peer did (MaxMemPerLimit above 4000, running below).
func TestMemLimitsShape(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/slurm.conf", []byte(memConf), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := slurmconf.Load(os.DirFS(dir), "slurm.conf")
	if err != nil {
		t.Fatal(err)
	}
	type out struct{ MemPerNode, MemPerCPU, LimitMem, PartMax int64 }
	tests := map[string]struct {
		part, opts string
		want       out
	}{
		"no --mem: DefMemPerNode (peer MinMemoryNode=1000M)":     {"emnode", "", out{1000, 0, 1000, 4000}},
		"--mem=5000 over MaxMemPerNode (peer MaxMemPerLimit)":    {"emnode", "--mem=5000", out{5000, 0, 5000, 4000}},
		"--mem=0 is the whole node (peer MaxMemPerLimit)":        {"emnode", "--mem=0", out{0, 0, 128000, 4000}},
		"-n2 --mem-per-cpu=3000 counts one CPU (peer runs)":      {"emnode", "-n2 --mem-per-cpu=3000", out{0, 3000, 3000, 4000}},
		"-c2 --mem-per-cpu=3000 counts -c":                       {"emnode", "-c2 --mem-per-cpu=3000", out{0, 3000, 6000, 4000}},
		"emdef: DefMemPerNode over the cluster's DefMemPerCPU":   {"emdef", "-n4", out{3000, 0, 3000, 0}},
		"emcpu: MaxMemPerCPU leaves the scheduler no node limit": {"emcpu", "", out{0, 1024, 1024, 0}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p, _ := cfg.Partition(tc.part)
			s, err := ShapeOf(request(t, tc.opts), cfg, p)
			if err != nil {
				t.Fatal(err)
			}
			got := out{s.MemPerNode, s.MemPerCPU, s.LimitMem, schedPartition(*p).MaxMemPerNode}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
