package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

func reportData() *fakeLive {
	return &fakeLive{fakeController: &fakeController{},
		preempt: api.PreemptReport{Start: 1795824000, End: 1795996800, Rows: []api.PreemptRow{
			{Account: "batch", Period: "2026-11-28", Count: 3, Requeued: 3, Checkpointed: 2, LostSeconds: 5400, LostGPUHours: 12},
			{Account: "vision", Period: "2026-11-29", Count: 1, Requeued: 0, Checkpointed: 0, LostSeconds: 60, LostGPUHours: 0.13},
		}},
		util: api.UtilReport{Cluster: "loam", Start: 1795867200, End: 1795953600, CPUCapacity: 86400 * 64, CPUAlloc: 86400 * 16,
			GPUCapacity: 86400 * 8, GPUAlloc: 86400 * 6}}
}

func TestSreport(t *testing.T) {
	tests := map[string][]string{
		"sreport-preemption.txt":      {"loam", "preemption", "Start=2026-11-28", "End=2026-11-30"},
		"sreport-preemption-p.txt":    {"-P", "loam", "pre", "Format=Account,Preempted,LostGPUHours"},
		"sreport-utilization.txt":     {"cluster", "utilization", "-T", "cpu,gres/gpu"},
		"sreport-utilization-pct.txt": {"-t", "percent", "cluster", "util"},
	}
	for name, args := range tests {
		t.Run(name, func(t *testing.T) {
			te := liveEnv(reportData(), 1795953600)
			if code := Sreport(context.Background(), te.Env, args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			checkGolden(t, name, te.stdout.String())
		})
	}
}

func TestSreportQuery(t *testing.T) {
	f := reportData()
	te := liveEnv(f, 1795953600)
	Sreport(context.Background(), te.Env, []string{"loam", "preemption", "start=2026-11-01T00:00:00", "end=2026-12-01T00:00:00",
		"Period=month", "Accounts=Vision"})
	want := []api.ReportQuery{{Start: 1793491200, End: 1796083200, Period: "month", Accounts: []string{"vision"}}}
	if diff := cmp.Diff(want, f.reportQ); diff != "" {
		t.Errorf("query (-want +got):\n%s", diff)
	}
	for name, args := range map[string][]string{
		"an unknown report":    {"job", "sizesbywckey"},
		"an unknown condition": {"loam", "preemption", "Nodes=x"},
		"a bad time":           {"loam", "preemption", "Start=yesterdayish"},
		"a bad field":          {"loam", "preemption", "Format=Nope"},
	} {
		te := liveEnv(f, 1795953600)
		if code := Sreport(context.Background(), te.Env, args); code != 1 || te.stderr.Len() == 0 {
			t.Errorf("%s: exit %d stderr %q", name, code, te.stderr)
		}
	}
}
