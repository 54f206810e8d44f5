package slurmconf

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// TestCoreSpec: the CPUs and memory a NodeName line sets aside, with the
// peer's scontrol show node values (CoreSpecCount=, CPUSpecList=,
// CPUEfctv=) as the expected ones.
func TestCoreSpec(t *testing.T) {
	type out struct {
		Count   int
		List    string
		Efctv   int
		Mem     int64
		Usable  int64
		IsSpec0 bool
	}
	const hw2x32 = "CPUs=64 Boards=1 SocketsPerBoard=2 CoresPerSocket=32 ThreadsPerCore=1 RealMemory=512000"
	tests := map[string]struct {
		line string
		want out
	}{
		"unset": {hw2x32, out{0, "", 64, 0, 512000, false}},
		"CoreSpecCount=2 takes the last core of each socket (peer gpu001)": {hw2x32 + " CoreSpecCount=2 MemSpecLimit=8192",
			out{2, "31,63", 62, 8192, 503808, false}},
		"CoreSpecCount=3 goes round the sockets from the last": {hw2x32 + " CoreSpecCount=3",
			out{3, "31,62-63", 61, 0, 512000, false}},
		"CoreSpecCount=1 with two threads per core takes both": {"CPUs=128 SocketsPerBoard=2 CoresPerSocket=32 ThreadsPerCore=2 CoreSpecCount=1",
			out{1, "126-127", 126, 0, 1, false}},
		"CPUSpecList=0,1 counts two cores (peer gpu002)": {hw2x32 + " CPUSpecList=0,1 MemSpecLimit=8192",
			out{2, "0,1", 62, 8192, 503808, true}},
		"CPUSpecList widens to whole cores": {"CPUs=8 Sockets=1 CoresPerSocket=4 ThreadsPerCore=2 CPUSpecList=1",
			out{1, "1", 6, 0, 1, true}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := parseOK(t, "NodeName=n1 "+tc.line+"\n")
			n := &c.Nodes[0]
			got := out{n.CoreSpecCount, n.SpecCPUList(), n.EffectiveCPUs(), n.MemSpecLimit, n.UsableMemory(), n.IsSpecCPU(0)}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestCoreSpecErrors: values that would leave a node nothing for jobs, or
// that are not numbers, are errors naming the key.
func TestCoreSpecErrors(t *testing.T) {
	tests := map[string]struct{ line, want string }{
		"every core":        {"CPUs=4 CoreSpecCount=4", "CoreSpecCount"},
		"CPU off the node":  {"CPUs=4 CPUSpecList=0,7", "CPU 7 is not on the node"},
		"not a list":        {"CPUs=4 CPUSpecList=a-b", "not a CPU list"},
		"all the memory":    {"CPUs=4 RealMemory=1000 MemSpecLimit=1000", "MemSpecLimit"},
		"count not numeric": {"CPUs=4 CoreSpecCount=two", "CoreSpecCount"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(fstest.MapFS{"slurm.conf": {Data: []byte(header + "NodeName=n1 " + tc.line + "\n")}}, "slurm.conf")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse error %v, want one with %q", err, tc.want)
			}
		})
	}
}
