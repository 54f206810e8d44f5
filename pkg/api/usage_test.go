package api

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStepUsageSummary(t *testing.T) {
	tests := map[string]struct {
		usage  StepUsage
		want   UsageSummary
		wantOK bool
	}{
		"nothing measured": {usage: StepUsage{Nodes: []NodeUsage{{Node: "n1"}}}},
		"one task": {
			usage: StepUsage{Nodes: []NodeUsage{{Node: "n1", Tasks: []TaskUsage{{Task: 0, UserUsec: 300, SysUsec: 100, MaxRSS: 4096}}}}},
			want: UsageSummary{NTasks: 1, UserUsec: 300, SysUsec: 100, MaxRSS: 4096, AveRSS: 4096, MaxRSSNode: "n1",
				MinRSS: 4096, MinRSSNode: "n1", TotalRSS: 4096, MaxVMNode: "n1", MinVMNode: "n1", FirstNode: "n1",
				MaxPagesNode: "n1", MinPagesNode: "n1",
				MinCPUUsec: 400, AveCPUUsec: 400, MaxCPUUsec: 400, MinCPUNode: "n1", MaxCPUNode: "n1"},
			wantOK: true,
		},
		"tasks over two nodes: extremes name their node and task": {
			usage: StepUsage{Nodes: []NodeUsage{
				{Node: "n2", Tasks: []TaskUsage{{Task: 2, UserUsec: 200, SysUsec: 100, MaxRSS: 500, MaxVM: 10, Pages: 7}}},
				{Node: "n1", Tasks: []TaskUsage{{Task: 1, UserUsec: 900, MaxRSS: 100, MaxVM: 20, Pages: 2}, {Task: 0, UserUsec: 100, MaxRSS: 300, MaxVM: 1000}}},
			}},
			want: UsageSummary{NTasks: 3, UserUsec: 1200, SysUsec: 100,
				MaxRSS: 500, MaxRSSNode: "n2", MaxRSSTask: 2, AveRSS: 300, MinRSS: 100, MinRSSNode: "n1", MinRSSTask: 1, TotalRSS: 900,
				MaxVM: 1000, MaxVMNode: "n1", MaxVMTask: 0, AveVM: 343, TotalVM: 1030, VMMeasured: true,
				MinVM: 10, MinVMNode: "n2", MinVMTask: 2, FirstNode: "n1",
				MaxPages: 7, MaxPagesNode: "n2", MaxPagesTask: 2, MinPages: 0, MinPagesNode: "n1", MinPagesTask: 0, TotalPages: 9, AvePages: 3,
				MinCPUUsec: 100, MinCPUNode: "n1", MinCPUTask: 0, MaxCPUUsec: 900, MaxCPUNode: "n1", MaxCPUTask: 1, AveCPUUsec: 433},
			wantOK: true,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, ok := tc.usage.Summary()
			if ok != tc.wantOK {
				t.Fatalf("ok %v, want %v", ok, tc.wantOK)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestStepUsageAddReplacesANodesEarlierReport(t *testing.T) {
	var u StepUsage
	u.Add(NodeUsage{Node: "n1", MemPeak: 1})
	u.Add(NodeUsage{Node: "n2", MemPeak: 2})
	u.Add(NodeUsage{Node: "n1", MemPeak: 3})
	want := []NodeUsage{{Node: "n1", MemPeak: 3}, {Node: "n2", MemPeak: 2}}
	if diff := cmp.Diff(want, u.Nodes); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
