package controller

import (
	"fmt"
	"testing"
	"time"
	_ "time/tzdata" // America/New_York wherever the test runs

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/estimate"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/sched"
)

// TestNextWindow: how far each recurring flag moves a window, with the
// weekday rules and calendar days across a daylight saving change; of
// several flags the first in Slurm's order wins (the peer moved
// HOURLY,DAILY by an hour and DAILY,WEEKLY by a day).
func TestNextWindow(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) time.Time {
		tm, err := time.ParseInLocation("2006-01-02T15:04", s, ny)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	cases := map[string]struct {
		start string
		flags []string
		want  string
	}{
		"hourly":                      {"2026-11-30T09:00", []string{"HOURLY"}, "2026-11-30T10:00"},
		"daily":                       {"2026-11-30T09:00", []string{"DAILY"}, "2026-12-01T09:00"},
		"daily keeps the wall clock":  {"2026-11-01T00:30", []string{"DAILY"}, "2026-11-02T00:30"},
		"weekly":                      {"2026-11-30T09:00", []string{"WEEKLY"}, "2026-12-07T09:00"},
		"weekday: Monday to Tuesday":  {"2026-11-30T09:00", []string{"WEEKDAY"}, "2026-12-01T09:00"},
		"weekday: Friday to Monday":   {"2026-12-04T09:00", []string{"WEEKDAY"}, "2026-12-07T09:00"},
		"weekday: Saturday to Monday": {"2026-12-05T09:00", []string{"WEEKDAY"}, "2026-12-07T09:00"},
		"weekend: Monday to Saturday": {"2026-11-30T09:00", []string{"WEEKEND"}, "2026-12-05T09:00"},
		"weekend: Saturday to Sunday": {"2026-12-05T09:00", []string{"WEEKEND"}, "2026-12-06T09:00"},
		"weekend: Sunday to Saturday": {"2026-12-06T09:00", []string{"WEEKEND"}, "2026-12-12T09:00"},
		"hourly over daily":           {"2026-11-30T09:00", []string{"HOURLY", "DAILY"}, "2026-11-30T10:00"},
		"daily over weekly":           {"2026-11-30T09:00", []string{"DAILY", "WEEKLY"}, "2026-12-01T09:00"},
		"not recurring":               {"2026-11-30T09:00", []string{"MAINT"}, "2026-11-30T09:00"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := at(tc.start)
			gotS, gotE := nextWindow(s.Unix(), s.Add(30*time.Minute).Unix(), tc.flags, ny)
			got := time.Unix(gotS, 0).In(ny).Format("2006-01-02T15:04")
			if got != tc.want {
				t.Errorf("next start %s, want %s", got, tc.want)
			}
			if d := gotE - gotS; d != 1800 {
				t.Errorf("next window lasts %ds, want 1800", d)
			}
		})
	}
	// Daylight saving ended at 02:00 on 2026-11-01: that day had 25 hours.
	dst := at("2026-11-01T00:30").Unix()
	if s, _ := nextWindow(dst, dst+1800, []string{"DAILY"}, ny); s-dst != 25*3600 {
		t.Errorf("a day across the change is %ds, want 25 h", s-dst)
	}
	// A reservation left behind by several periods moves to the first
	// window that has not ended.
	r := &advResv{Start: at("2026-11-30T09:00").Unix(), End: at("2026-11-30T10:00").Unix(), Flags: []string{"DAILY"}}
	advanceWindow(r, at("2026-12-03T09:30").Unix(), ny)
	if got := time.Unix(r.Start, 0).In(ny).Format("2006-01-02T15:04"); got != "2026-12-03T09:00" {
		t.Errorf("caught up to %s, want the window of 2026-12-03 09:00 (still open)", got)
	}
}

// TestAdvResvRecurs: at the end of a DAILY reservation its running job
// ends as in any reservation, then the reservation moves a day on instead
// of going; the job waiting for it stays pending (not RESV_DEL_HOLD), and
// the new window survives a restart.
func TestAdvResvRecurs(t *testing.T) {
	h := newHarness(t)
	appendConf(t, h, "SlurmdTimeout=0\n") // the clock jumps past heartbeats
	h.restart()
	n := h.node("n01")
	n.AutoEnd = true
	h.mkResv("r", 10*time.Minute, func(s *api.AdvResvSpec) { s.Flags = append(s.Flags, "DAILY") })
	run := h.mustSubmit(0, simpleJob(func(r *job.Request) { r.Reservation = "r" }))
	h.cycle()
	h.waitState(fmt.Sprint(run), job.Running)
	pend := h.mustSubmit(0, simpleJob(func(r *job.Request) { r.Reservation = "r"; r.Hold = true }))

	h.tick(10*time.Minute + time.Second)
	h.waitState(fmt.Sprint(run), job.Timeout)
	h.tick(time.Second)
	var out api.AdvResvsResponse
	if err := h.call(0, api.PathAdvResvList, api.ResvQuery{}, &out); err != nil || len(out.Reservations) != 1 {
		t.Fatalf("reservations after the end: %+v, %v; want r, moved", out.Reservations, err)
	}
	first := h.clock.Now().Add(-10*time.Minute - 2*time.Second).Unix()
	moved := out.Reservations[0]
	if got, want := []int64{moved.Start - first, moved.End - moved.Start}, []int64{24 * 3600, 600}; !cmp.Equal(got, want) {
		t.Errorf("moved by %ds lasting %ds, want %v", got[0], got[1], want)
	}
	if p := h.job(fmt.Sprint(pend)); p.JobState != job.Pending || p.Reservation != "r" {
		t.Errorf("the waiting job: %s in %q, want PENDING in r", p.JobState, p.Reservation)
	}
	h.restart()
	if got := h.advList(); !cmp.Equal(got, []string{"r n01 10m0s"}) {
		t.Errorf("after a restart: %v", got)
	}
	var again api.AdvResvsResponse
	if err := h.call(0, api.PathAdvResvList, api.ResvQuery{}, &again); err != nil || again.Reservations[0].Start != moved.Start {
		t.Errorf("after a restart the window starts at %+v, want %d", again.Reservations, moved.Start)
	}
}

// TestEstimateWaitsForTheWindow: the history-corrected estimator, which
// knows nothing of admin windows, gets the scheduler's start as a floor
// for a job waiting for a window (its own reservation's, or others' on
// its nodes): it used to estimate such a job to start at once on a free
// node.
func TestEstimateWaitsForTheWindow(t *testing.T) {
	layout := estimate.NewLayout([]estimate.PartitionNodes{{Name: "normal", Nodes: []string{"n01"}}},
		[]estimate.Node{{Name: "n01", GPUs: 8, CPUs: 64, Up: true}})
	window := time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	begin := window.Add(time.Hour)
	cases := map[string]struct {
		reason job.Reason
		desc   string
		begin  time.Time
		want   time.Time
	}{
		"its own reservation":          {job.ReasonReservation, "", time.Time{}, window},
		"others' windows on its nodes": {job.ReasonReqNodeNotAvail, string(sched.ReasonNodeReserved), time.Time{}, window},
		"a maintenance window":         {job.ReasonReqNodeNotAvail, string(sched.ReasonNodeMaint), time.Time{}, window},
		"a later --begin still counts": {job.ReasonReservation, "", begin, begin},
		"other reasons keep --begin":   {job.ReasonResources, "", time.Time{}, time.Time{}},
		"a node down is not a window":  {job.ReasonReqNodeNotAvail, "ReqNodeNotAvail, UnavailableNodes:n01", time.Time{}, time.Time{}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			req := simpleJob()
			r := &jobRecord{ID: 1, Req: &req}
			r.plan = PendingInfo{Reason: tc.reason, Desc: tc.desc, EstStart: window, Partition: "normal"}
			if !tc.begin.IsZero() {
				r.St.Begin = tc.begin.Unix()
			}
			if got := pendingOf(r, layout).NotBefore; !got.Equal(tc.want) {
				t.Errorf("NotBefore %v, want %v", got, tc.want)
			}
		})
	}
}
