package controller

import (
	"fmt"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestHoldInactivePartitionLife follows the peer: a pending job in its own
// partition made INACTIVE is held and released all the same, but each
// answers "Requested partition configuration not available now"; the
// released job shows PartitionInactive. DOWN and DRAIN answer nothing.
func TestHoldInactivePartitionLife(t *testing.T) {
	for _, state := range []string{"INACTIVE", "DOWN", "DRAIN"} {
		h := newHarness(t)
		id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Partitions = []string{"batch", "normal"}; r.Hold = true }))
		setPart(t, h, partState(state))
		want := ""
		if state == "INACTIVE" {
			want = api.NewError(api.CodePartConfigUnavailable).Message
		}
		ids := []string{fmt.Sprint(id)}
		rs := results(t, h, 0, api.PathRelease, api.ReleaseRequest{JobIDs: ids})
		if got := firstErrMessage(rs); got != want {
			t.Errorf("%s: release answered %q, want %q", state, got, want)
		}
		j := h.job(fmt.Sprint(id))
		if j.StateReason == job.ReasonJobHeldAdmin {
			t.Errorf("%s: job still held after release", state)
		}
		if state == "INACTIVE" && j.StateReason != job.ReasonPartitionInactive {
			t.Errorf("%s: reason %s, want PartitionInactive", state, j.StateReason)
		}
		rs = results(t, h, 0, api.PathHold, api.HoldRequest{JobIDs: ids})
		if got := firstErrMessage(rs); got != want {
			t.Errorf("%s: hold answered %q, want %q", state, got, want)
		}
		if j := h.job(fmt.Sprint(id)); j.StateReason != job.ReasonJobHeldAdmin {
			t.Errorf("%s: job not held after hold (reason %s)", state, j.StateReason)
		}
	}
}

func firstErrMessage(rs []api.JobResult) string {
	for _, r := range rs {
		if r.Error != nil {
			return r.Error.Message
		}
	}
	return ""
}
