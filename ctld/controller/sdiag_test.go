package controller

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// stats calls the statistics endpoint as uid.
func (h *harness) stats(uid uint32, reset bool) (*api.StatsResponse, *api.Error) {
	h.t.Helper()
	var out api.StatsResponse
	err := h.call(uid, api.PathStats, api.StatsRequest{Reset: reset}, &out)
	return &out, err
}

// rpcCounts are the requests per path and per uid of a statistics answer.
func rpcCounts(s *api.StatsResponse) (map[string]int64, map[uint32]int64) {
	paths, users := map[string]int64{}, map[uint32]int64{}
	for _, t := range s.RPCTypes {
		paths[t.Path] = t.Count
		if t.ID != api.PathID(t.Path) {
			panic("path " + t.Path + " reported with another id")
		}
	}
	for _, u := range s.RPCUsers {
		users[u.UID] = u.Count
	}
	return paths, users
}

func TestSdiagCountsAndReset(t *testing.T) {
	h := newHarness(t)
	start := h.clock.Now().Unix()
	h.mustSubmit(alice, simpleJob())
	h.mustSubmit(alice, simpleJob())
	h.mustSubmit(bob, simpleJob(func(r *job.Request) { r.Hold = true }))
	h.cycle()
	h.cycle()

	s, err := h.stats(bob, false)
	if err != nil {
		t.Fatalf("stats: %v", err)
	}
	if s.ReqTimeStart != start || s.ReqTime != start || s.JobStatesTime != start {
		t.Errorf("times %d/%d/%d, want all %d (the controller's clock)", s.ReqTime, s.ReqTimeStart, s.JobStatesTime, start)
	}
	if s.JobsSubmitted != 3 || s.JobsPending != 3 || s.JobsRunning != 0 || s.JobsStarted != 0 {
		t.Errorf("jobs submitted %d pending %d running %d started %d, want 3 3 0 0",
			s.JobsSubmitted, s.JobsPending, s.JobsRunning, s.JobsStarted)
	}
	if s.Cycles != 2 || s.LastCycleAt != start || s.CycleMax < s.CycleLast || s.CycleSum < s.CycleMax {
		t.Errorf("cycles %d at %d, last %d max %d sum %d: want 2 at %d, last <= max <= sum",
			s.Cycles, s.LastCycleAt, s.CycleLast, s.CycleMax, s.CycleSum, start)
	}
	if s.ServerThreads != 1 {
		t.Errorf("server threads %d, want 1 (this request)", s.ServerThreads)
	}
	paths, users := rpcCounts(s)
	if diff := cmp.Diff(map[string]int64{api.PathSubmit: 3}, paths); diff != "" {
		t.Errorf("by path (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[uint32]int64{alice: 2, bob: 1}, users); diff != "" {
		t.Errorf("by user (-want +got):\n%s", diff)
	}

	if _, err := h.stats(alice, true); err == nil || err.Code != api.CodeAccessDenied {
		t.Fatalf("a user's reset: %v, want %s", err, api.CodeAccessDenied)
	}
	h.clock.Advance(90e9)
	s, err = h.stats(0, true)
	if err != nil {
		t.Fatalf("root's reset: %v", err)
	}
	if s.ReqTimeStart != start+90 || s.JobsSubmitted != 0 || s.Cycles != 0 || s.CycleMax != 0 || len(s.RPCTypes) != 0 {
		t.Errorf("after the reset: since %d submitted %d cycles %d max %d rpcs %v, want %d and zeros",
			s.ReqTimeStart, s.JobsSubmitted, s.Cycles, s.CycleMax, s.RPCTypes, start+90)
	}
	if s.JobsPending != 3 || s.LastCycleAt != start {
		t.Errorf("a reset changed the live counts: pending %d, last cycle at %d", s.JobsPending, s.LastCycleAt)
	}
	h.mustSubmit(alice, simpleJob())
	s, _ = h.stats(0, false)
	paths, _ = rpcCounts(s)
	// The reset counts (it ends after the reset); this call, still running,
	// does not.
	want := map[string]int64{api.PathSubmit: 1, api.PathStats: 1}
	if diff := cmp.Diff(want, paths); diff != "" || s.JobsSubmitted != 1 {
		t.Errorf("after the reset, submitted %d, by path (-want +got):\n%s", s.JobsSubmitted, diff)
	}
}

// TestSdiagEveryRouteHasANumber: sdiag -i sorts by the path's number, so a
// new route must be added to the list.
func TestSdiagEveryRouteHasANumber(t *testing.T) {
	h := newHarness(t)
	seen := map[int]string{}
	for path := range h.c.routes() {
		id := api.PathID(path)
		if id == 0 {
			t.Errorf("route %s has no number in pkg/api's statPaths", path)
		}
		if other, ok := seen[id]; ok {
			t.Errorf("routes %s and %s share number %d", path, other, id)
		}
		seen[id] = path
	}
}
