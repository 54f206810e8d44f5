package controller

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestNoticeBoard: a take returns the notices after the one named and
// forgets the others; the oldest give way beyond maxNotices.
func TestNoticeBoard(t *testing.T) {
	n := func(seq uint64) api.Notice { return api.Notice{Seq: seq, Message: fmt.Sprint("m", seq)} }
	tests := map[string]struct {
		posts   int
		takes   []uint64 // each take's After; the last one's result is checked
		want    []api.Notice
		dropped int
	}{
		"nothing posted":                {takes: []uint64{0}},
		"all of them the first time":    {posts: 3, takes: []uint64{0}, want: []api.Notice{n(1), n(2), n(3)}},
		"after the last one shown":      {posts: 3, takes: []uint64{0, 2}, want: []api.Notice{n(3)}},
		"a shown one never comes again": {posts: 3, takes: []uint64{2, 0}, want: []api.Notice{n(3)}},
		"all shown":                     {posts: 2, takes: []uint64{2}},
		"the oldest give way": {posts: maxNotices + 2, takes: []uint64{maxNotices}, dropped: 2,
			want: []api.Notice{n(maxNotices + 1), n(maxNotices + 2)}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var b noticeBoard
			dropped := 0
			for i := 1; i <= tc.posts; i++ {
				dropped += b.post(7, fmt.Sprint("m", i))
			}
			var got []api.Notice
			for _, after := range tc.takes {
				got, _ = b.take(7, after)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("notices (-want +got):\n%s", diff)
			}
			if dropped != tc.dropped {
				t.Errorf("dropped %d, want %d", dropped, tc.dropped)
			}
		})
	}
}

// TestNoticeBoardWakes: a post closes the channel the last take returned.
func TestNoticeBoardWakes(t *testing.T) {
	var b noticeBoard
	_, wake := b.take(7, 0)
	select {
	case <-wake:
		t.Fatal("woken before any post")
	default:
	}
	b.post(7, "hello")
	select {
	case <-wake:
	default:
		t.Fatal("a post did not wake the waiter")
	}
}

// TestNotifyAllocation: scontrol notify to an interactive allocation,
// pending or running, succeeds and its client finds the message on its
// wait, once; another user can neither send nor read; an ended one
// answers as Slurm does and its client's wait says it ended.
func TestNotifyAllocation(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	var sub api.SubmitResponse
	if err := h.call(alice, api.PathAllocate, api.AllocateRequest{Job: job.Request{Name: "interactive", WorkDir: "/tmp"}}, &sub); err != nil {
		t.Fatal(err)
	}
	id := sub.JobID
	notify := func(uid uint32, msg string) api.Code {
		if err := h.call(uid, api.PathNotify, api.NotifyRequest{JobID: id, Message: msg}, nil); err != nil {
			return err.Code
		}
		return ""
	}
	wait := func(uid uint32, after uint64, timeout int64) (api.NoticeWaitResponse, api.Code) {
		var out api.NoticeWaitResponse
		if err := h.call(uid, api.PathNoticeWait, api.NoticeWaitRequest{JobID: id, After: after, Timeout: timeout}, &out); err != nil {
			return out, err.Code
		}
		return out, ""
	}
	check := func(what string, got api.NoticeWaitResponse, code api.Code, want api.NoticeWaitResponse) {
		t.Helper()
		if code != "" {
			t.Fatalf("%s: %s", what, code)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", what, diff)
		}
	}

	if c := notify(alice, "while pending"); c != "" {
		t.Fatalf("notify of a pending allocation: %s", c)
	}
	if c := notify(bob, "not yours"); c != api.CodeUserIDMissing {
		t.Errorf("notify by another user: %q", c)
	}
	if _, c := wait(bob, 0, 0); c != api.CodeAccessDenied {
		t.Errorf("another user's wait: %q", c)
	}
	got, c := wait(alice, 0, 0)
	check("first wait", got, c, api.NoticeWaitResponse{Notices: []api.Notice{{Seq: 1, Message: "while pending"}}})
	got, c = wait(alice, 1, 0)
	check("after the one shown", got, c, api.NoticeWaitResponse{})

	h.cycle()
	h.waitState(fmt.Sprint(id), job.Running)
	// A wait in progress answers at the next notice.
	type result struct {
		resp api.NoticeWaitResponse
		code api.Code
	}
	waited := make(chan result, 1)
	go func() {
		resp, code := wait(alice, 1, maxNoticeWait)
		waited <- result{resp, code}
	}()
	if c := notify(alice, "while running"); c != "" {
		t.Fatalf("notify of a running allocation: %s", c)
	}
	r := <-waited
	check("a wait in progress", r.resp, r.code, api.NoticeWaitResponse{Notices: []api.Notice{{Seq: 2, Message: "while running"}}})

	if err := h.call(alice, api.PathAllocationRelease, api.AllocationReleaseRequest{JobID: id}, nil); err != nil {
		t.Fatal(err)
	}
	if c := notify(alice, "too late"); c != api.CodeAlreadyDone {
		t.Errorf("notify of a released allocation: %q", c)
	}
	got, c = wait(alice, 2, maxNoticeWait)
	check("the wait of an ended job", got, c, api.NoticeWaitResponse{Ended: true})
	if ids := h.c.notices.ids(); len(ids) != 0 {
		t.Errorf("notices kept for ended jobs %v", ids)
	}
	if err := h.call(alice, api.PathNoticeWait, api.NoticeWaitRequest{JobID: 99999}, nil); err == nil || err.Code != api.CodeInvalidJobID {
		t.Errorf("wait of an unknown job: %v", err)
	}
}
