package controller

import (
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

// TestUtilReportStopsAtNow: a window reaching past now (sreport rounds
// its end up to the next hour) counts capacity only up to now.
func TestUtilReportStopsAtNow(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	now := h.clock.Now().Unix()
	var u api.UtilReport
	q := api.ReportQuery{Start: now - 600, End: now + 3000}
	if err := h.call(alice, api.PathUtilReport, q, &u); err != nil {
		t.Fatal(err)
	}
	if u.Start != q.Start || u.End != q.End || u.CPUCapacity != 16*600 || u.GPUCapacity != 8*600 {
		t.Errorf("utilization %+v, want 600 s of capacity", u)
	}
	h.clock.Advance(time.Hour)
	if err := h.call(alice, api.PathUtilReport, q, &u); err != nil || u.CPUCapacity != 16*3600 {
		t.Errorf("after the window: %+v %v", u, err)
	}
}
