package controller

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestNoticeWaitEndsWithJob: a client's notice wait in progress answers
// as soon as its job ends (scancel, time limit, release), not at the
// wait's timeout: the peer's salloc says "Job allocation N has been
// revoked." the moment its job is cancelled.
func TestNoticeWaitEndsWithJob(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	var sub api.SubmitResponse
	if err := h.call(alice, api.PathAllocate, api.AllocateRequest{Job: job.Request{Name: "interactive", WorkDir: "/tmp"}}, &sub); err != nil {
		t.Fatal(err)
	}
	id := sub.JobID
	h.cycle()
	h.waitState(fmt.Sprint(id), job.Running)
	type result struct {
		resp api.NoticeWaitResponse
		err  *api.Error
		took time.Duration
	}
	waited := make(chan result, 1)
	go func() {
		var out api.NoticeWaitResponse
		start := time.Now()
		err := h.call(alice, api.PathNoticeWait, api.NoticeWaitRequest{JobID: id, Timeout: 10}, &out)
		waited <- result{out, err, time.Since(start)}
	}()
	// The wait is in progress once it holds the job's entry on the board.
	clustertest.Eventually(t, 5*time.Second, "the notice wait to start", func() error {
		if !slices.Contains(h.c.notices.ids(), id) {
			return errors.New("no wait on the board")
		}
		return nil
	})
	if err := h.call(alice, api.PathAllocationRelease, api.AllocationReleaseRequest{JobID: id}, nil); err != nil {
		t.Fatal(err)
	}
	r := <-waited
	if r.err != nil {
		t.Fatal(r.err)
	}
	if diff := cmp.Diff(api.NoticeWaitResponse{Ended: true}, r.resp); diff != "" || r.took > 5*time.Second {
		t.Errorf("after %v (-want +got):\n%s", r.took, diff)
	}
}
