package controller

import (
	"fmt"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestCancelEndedArrayTaskLife: once a pending array (tasks 1-3) was
// cancelled whole, scancel -v A_2 hears "Job/step already completing or
// completed" on the peer, A_9 "Invalid job id specified", and A_[2-5]
// names tasks 4 and 5 that no job holds.
func TestCancelEndedArrayTaskLife(t *testing.T) {
	h := newHarness(t)
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Array = "1-3"; r.Hold = true }))
	rs := results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(id)}}})
	if firstErr(rs) != "" {
		t.Fatalf("cancel %d: %+v", id, rs)
	}
	tests := map[string]struct {
		ref         string
		wantCode    api.Code
		wantInvalid string // tasks answered as an invalid job id
	}{
		"a task of the ended array": {ref: "_2", wantCode: api.CodeAlreadyDone},
		"a task it never had":       {ref: "_9", wantCode: api.CodeInvalidJobID},
		"a range past its end":      {ref: "_[2-5]", wantCode: api.CodeAlreadyDone, wantInvalid: "4-5"},
	}
	for name, tc := range tests {
		rs := results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{fmt.Sprint(id) + tc.ref}}})
		if len(rs) != 1 || rs[0].Error == nil || rs[0].Error.Code != tc.wantCode {
			t.Errorf("%s: results %+v, want %s", name, rs, tc.wantCode)
			continue
		}
		invalid := ""
		for _, o := range rs[0].Tasks {
			if o.Error != nil && o.Error.Code == api.CodeInvalidJobID {
				invalid = o.Tasks
			}
		}
		if invalid != tc.wantInvalid {
			t.Errorf("%s: invalid tasks %q, want %q", name, invalid, tc.wantInvalid)
		}
	}
}
