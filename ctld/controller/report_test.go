package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/store"
)

func TestGroupPreemptions(t *testing.T) {
	day := func(d, h int) int64 { return time.Date(2026, 11, d, h, 0, 0, 0, time.UTC).Unix() }
	rows := []store.PreemptionRow{
		{Time: day(28, 23), Account: "batch", GPUs: 8, LostSeconds: 3600, Requeued: true, Checkpointed: true},
		{Time: day(29, 1), Account: "batch", GPUs: 4, LostSeconds: 1800, Requeued: true},
		{Time: day(29, 2), Account: "vision", GPUs: 1, LostSeconds: 360},
		{Time: day(29, 3), Account: "batch", GPUs: 2, LostSeconds: 900, Requeued: true, Checkpointed: true},
	}
	tests := map[string]struct {
		period   string
		accounts []string
		want     []api.PreemptRow
	}{
		"per day": {period: "day", want: []api.PreemptRow{
			{Account: "batch", Period: "2026-11-28", Count: 1, Requeued: 1, Checkpointed: 1, LostSeconds: 3600, LostGPUHours: 8},
			{Account: "batch", Period: "2026-11-29", Count: 2, Requeued: 2, Checkpointed: 1, LostSeconds: 2700, LostGPUHours: 2.5},
			{Account: "vision", Period: "2026-11-29", Count: 1, LostSeconds: 360, LostGPUHours: 0.1},
		}},
		"per month for one account": {period: "month", accounts: []string{"vision"}, want: []api.PreemptRow{
			{Account: "vision", Period: "2026-11", Count: 1, LostSeconds: 360, LostGPUHours: 0.1},
		}},
		"the whole window": {want: []api.PreemptRow{
			{Account: "batch", Count: 3, Requeued: 3, Checkpointed: 2, LostSeconds: 6300, LostGPUHours: 10.5},
			{Account: "vision", Count: 1, LostSeconds: 360, LostGPUHours: 0.1},
		}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := groupPreemptions(rows, tc.period, tc.accounts, time.UTC)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestReportWindow(t *testing.T) {
	now := time.Unix(100000, 0)
	if s, e, err := reportWindow(&api.ReportQuery{}, now); err != nil || s != 100000-86400 || e != 100000 {
		t.Errorf("default window %d-%d %v", s, e, err)
	}
	if _, _, err := reportWindow(&api.ReportQuery{Start: 5, End: 5}, now); err == nil {
		t.Error("an empty window was accepted")
	}
}

// TestReportsThroughAPI: utilization counts a job that ran in the window;
// the preemption report refuses an unknown period.
func TestReportsThroughAPI(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	// Two GPUs: counted though the harness's AccountingStorageTRES does
	// not track gres/gpu, so its AllocTRES does not name them.
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.GRES = []resource.GRES{{Name: "gpu", Count: 2}} }))
	h.cycle()
	n.Launch(t, id, 5*time.Second)
	h.clock.Advance(10 * time.Second)
	n.End(id, job.ExitCode{})
	h.waitState(fmt.Sprint(id), job.Completed)
	h.clock.Advance(time.Second)
	var u api.UtilReport
	if err := h.call(alice, api.PathUtilReport, api.ReportQuery{}, &u); err != nil {
		t.Fatal(err)
	}
	if u.Cluster != "unit" || u.CPUAlloc < 10 || u.GPUAlloc < 20 || u.CPUCapacity != 16*86400 || u.GPUCapacity != 8*86400 {
		t.Errorf("utilization %+v", u)
	}
	var p api.PreemptReport
	if err := h.call(alice, api.PathPreemptReport, api.ReportQuery{Period: "week"}, &p); err == nil || err.Code != api.CodeBadRequest {
		t.Errorf("period week: %v", err)
	}
	if err := h.call(alice, api.PathPreemptReport, api.ReportQuery{Period: "day"}, &p); err != nil || len(p.Rows) != 0 {
		t.Errorf("no preemptions: %+v %v", p, err)
	}
	var s api.SharesResponse
	if err := h.call(alice, api.PathShares, api.SharesQuery{All: true}, &s); err != nil || len(s.Rows) != 0 {
		t.Errorf("shares without tenants.conf: %+v %v", s, err)
	}
}
