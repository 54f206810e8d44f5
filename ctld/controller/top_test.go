package controller

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// peerTopCase is one case of testdata/top-peer.txt: the jobs' priority
// and nice before and after "scontrol top LIST" on the peer.
type peerTopCase struct {
	name          string
	before, after map[uint32]topEntry
	ids           []uint32 // in id order
	list          []uint32
}

func readPeerTop(t *testing.T) []peerTopCase {
	t.Helper()
	f, err := os.Open("testdata/top-peer.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []peerTopCase
	var cur *peerTopCase
	var into map[uint32]topEntry
	inBefore := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
		case strings.HasPrefix(line, "case "):
			out = append(out, peerTopCase{name: line[5:], before: map[uint32]topEntry{}, after: map[uint32]topEntry{}})
			cur = &out[len(out)-1]
		case line == "before":
			into, inBefore = cur.before, true
		case line == "after":
			into, inBefore = cur.after, false
		case strings.HasPrefix(line, "top "):
			for _, s := range strings.Split(line[4:], ",") {
				n, _ := strconv.ParseUint(s, 10, 32)
				cur.list = append(cur.list, uint32(n))
			}
		default:
			var e topEntry
			if _, err := fmt.Sscan(line, &e.id, &e.priority, &e.nice); err != nil {
				t.Fatalf("line %q: %v", line, err)
			}
			into[e.id] = e
			if inBefore {
				cur.ids = append(cur.ids, e.id)
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no cases in testdata/top-peer.txt")
	}
	return out
}

// TestTopPlanMatchesThePeer replays testdata/top-peer.txt (captured with
// testdata/top-capture.sh): from the priorities and nice values before,
// top's arithmetic must give exactly the peer's values after. The others
// are chosen as the controller does: every job not named whose priority
// is above 1, in submission order.
func TestTopPlanMatchesThePeer(t *testing.T) {
	for _, tc := range readPeerTop(t) {
		t.Run(tc.name, func(t *testing.T) {
			var targets, others []topEntry
			for _, id := range tc.list {
				if !slices.ContainsFunc(targets, func(e topEntry) bool { return e.id == id }) {
					targets = append(targets, tc.before[id])
				}
			}
			for _, id := range tc.ids {
				if e := tc.before[id]; !slices.Contains(tc.list, id) && e.priority > 1 {
					others = append(others, e)
				}
			}
			got := map[uint32]topEntry{}
			for id, e := range tc.before {
				got[id] = e
			}
			for _, e := range planTop(targets, others) {
				got[e.id] = e
			}
			if diff := cmp.Diff(tc.after, got, cmp.AllowUnexported(topEntry{})); diff != "" {
				t.Errorf("after top %v (-peer +loam):\n%s", tc.list, diff)
			}
		})
	}
}

// pendingWithPrio submits pending jobs (held back by --begin) as uid with the
// given nice values and sets their priorities as a cycle would.
func pendingWithPrio(t *testing.T, h *harness, uid uint32, mod func(*job.Request), prios ...int64) []string {
	t.Helper()
	begin := h.clock.Now().Add(time.Hour)
	var ids []string
	for _, p := range prios {
		id := h.mustSubmit(uid, simpleJob(func(r *job.Request) {
			r.Begin = &begin
			if mod != nil {
				mod(r)
			}
		}))
		h.c.mu.Lock()
		h.c.jobs[id].St.Priority = p
		h.c.mu.Unlock()
		ids = append(ids, fmt.Sprint(id))
	}
	return ids
}

type prioNice struct {
	Priority int64
	Nice     int
}

func (h *harness) prioNice(ids ...string) map[string]prioNice {
	out := map[string]prioNice{}
	for _, id := range ids {
		j := h.job(id)
		out[id] = prioNice{int64(j.Priority), j.Nice}
	}
	return out
}

// TestTopThroughTheAPI: the named job takes the owner's highest priority
// and the owner's other jobs of its partition pay in nice; other users'
// jobs and other partitions' do not move; the scheduler gets the new nice
// values, and they survive a restart.
func TestTopThroughTheAPI(t *testing.T) {
	h := newHarness(t)
	mine := pendingWithPrio(t, h, alice, nil, 38, 25, 12)
	theirs := pendingWithPrio(t, h, bob, nil, 50)
	batch := pendingWithPrio(t, h, alice, func(r *job.Request) { r.Partitions = []string{"batch"} }, 60)
	var out api.TopResponse
	if err := h.call(0, api.PathTop, api.TopRequest{JobIDs: mine[2]}, &out); err != nil {
		t.Fatalf("top: %v", err)
	}
	want := map[string]prioNice{
		mine[0]: {25, 13}, mine[1]: {12, 13}, mine[2]: {38, -26},
		theirs[0]: {50, 0}, batch[0]: {60, 0},
	}
	all := append(append(slices.Clone(mine), theirs...), batch...)
	if diff := cmp.Diff(want, h.prioNice(all...)); diff != "" {
		t.Errorf("after top (-want +got):\n%s", diff)
	}
	if n := len(out.Changes); n != 3 {
		t.Errorf("%d changes reported, want 3: %+v", n, out.Changes)
	}
	id, _ := strconv.ParseUint(mine[2], 10, 32)
	if got := h.eng.pending[uint32(id)].Nice; got != -26 {
		t.Errorf("the scheduler has nice %d for the named job, want -26", got)
	}
	h.restart()
	if got := h.job(mine[0]).Nice; got != 13 {
		t.Errorf("after a restart the other job has nice %d, want 13", got)
	}
}

// TestTopRefusals: Slurm's errors, in its order of checks.
func TestTopRefusals(t *testing.T) {
	h := newHarness(t)
	ids := pendingWithPrio(t, h, alice, nil, 30, 20)
	multi := pendingWithPrio(t, h, alice, func(r *job.Request) { r.Partitions = []string{"normal", "batch"} }, 40)
	held := pendingWithPrio(t, h, alice, func(r *job.Request) { r.Hold = true }, 10)
	gone := pendingWithPrio(t, h, alice, nil, 10)
	if err := h.call(alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: gone}}, nil); err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		uid  uint32
		list string
		want api.Code
	}{
		"an unknown job":                                 {0, "99999", api.CodeInvalidJobID},
		"one unknown id fails the whole list":            {0, ids[1] + ",99999", api.CodeInvalidJobID},
		"not a number":                                   {0, "abc", api.CodeInvalidJobID},
		"job 0":                                          {0, "0", api.CodeInvalidJobID},
		"only commas":                                    {0, ",", api.CodeInvalidJobID},
		"a task of a job that is no array":               {0, ids[1] + "_1", api.CodeInvalidJobID},
		"a job that may run in several partitions":       {0, multi[0], api.CodePartConfigUnavailable},
		"a held job":                                     {0, held[0], api.CodeJobHeld},
		"a job no longer pending":                        {0, gone[0], api.CodeJobNotPending},
		"the owner without enable_user_top":              {alice, ids[1], api.CodeAccessDenied},
		"another user, even with it (checked last)":      {bob, ids[1], api.CodeAccessDenied},
		"a finished job beside a pending one is skipped": {0, gone[0] + "," + ids[1], ""},
		"the whole array form of a plain job":            {0, ids[1] + "_*", ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var got api.Code
			if err := h.call(tc.uid, api.PathTop, api.TopRequest{JobIDs: tc.list}, nil); err != nil {
				got = err.Code
			}
			if got != tc.want {
				t.Errorf("top %s as uid %d: %q, want %q", tc.list, tc.uid, got, tc.want)
			}
		})
	}
}

// TestTopUserTopSetting: owners may use top only when SchedulerParameters
// names enable_user_top, written in any case, among other options.
func TestTopUserTopSetting(t *testing.T) {
	tests := map[string]bool{
		"":                                   false,
		"bf_continue":                        false,
		"enable_user_top":                    true,
		"bf_continue,Enable_User_Top,bf_x=1": true,
	}
	for raw, want := range tests {
		if got := userTopEnabled(raw); got != want {
			t.Errorf("userTopEnabled(%q) = %v, want %v", raw, got, want)
		}
	}
}

// TestNotifyAnswers: Slurm's answers to scontrol notify, in its order,
// for jobs that have no batch step to deliver to (pending or ended);
// delivery to a running batch job is tested on a live cluster
// (test/notify_deliver_test.go).
func TestNotifyAnswers(t *testing.T) {
	h := newHarness(t)
	ids := pendingWithPrio(t, h, alice, nil, 10, 10)
	if err := h.call(alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: ids[1:]}}, nil); err != nil {
		t.Fatal(err)
	}
	id := func(s string) uint32 { n, _ := strconv.ParseUint(s, 10, 32); return uint32(n) }
	tests := map[string]struct {
		uid  uint32
		job  uint32
		want api.Code
	}{
		"an unknown job":              {alice, 99999, api.CodeInvalidJobID},
		"another user's job":          {bob, id(ids[0]), api.CodeUserIDMissing},
		"another user's ended job":    {bob, id(ids[1]), api.CodeUserIDMissing},
		"an ended job":                {alice, id(ids[1]), api.CodeAlreadyDone},
		"a pending job, by its owner": {alice, id(ids[0]), api.CodeDisabled},
		"a pending job, by root":      {0, id(ids[0]), api.CodeDisabled},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			err := h.call(tc.uid, api.PathNotify, api.NotifyRequest{JobID: tc.job, Message: "hello"}, nil)
			var got api.Code
			if err != nil {
				got = err.Code
			}
			if got != tc.want {
				t.Errorf("notify %d as uid %d: %q, want %q", tc.job, tc.uid, got, tc.want)
			}
		})
	}
}
