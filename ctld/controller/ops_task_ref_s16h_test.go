package controller

import (
	"fmt"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestS16HTaskOfPlainJob: J_5 names no task of a job that is not an
// array. The peer's scancel -v J_5 says "Kill job error on job id J_5:
// Invalid job id specified", scontrol hold/release/update answer
// "J_5: Invalid job id specified", and J stays pending.
func TestS16HTaskOfPlainJob(t *testing.T) {
	limit := int64(600)
	ops := map[string]struct {
		path string
		in   func(ref string) any
	}{
		"scancel":          {api.PathCancel, func(ref string) any { return api.CancelRequest{Filter: api.JobFilter{JobIDs: []string{ref}}} }},
		"scontrol hold":    {api.PathHold, func(ref string) any { return api.HoldRequest{JobIDs: []string{ref}} }},
		"scontrol release": {api.PathRelease, func(ref string) any { return api.ReleaseRequest{JobIDs: []string{ref}} }},
		"scontrol update": {api.PathUpdate, func(ref string) any {
			return api.UpdateRequest{JobIDs: []string{ref}, Update: api.JobUpdate{TimeLimit: &limit}}
		}},
	}
	for name, op := range ops {
		t.Run(name, func(t *testing.T) {
			h := newHarness(t)
			id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Hold = true }))
			rs := results(t, h, alice, op.path, op.in(fmt.Sprintf("%d_5", id)))
			if got := firstErr(rs); got != api.CodeInvalidJobID {
				t.Errorf("%s %d_5: error %q, want %q", name, id, got, api.CodeInvalidJobID)
			}
			j := h.job(fmt.Sprint(id))
			if j.JobState != job.Pending || !j.Hold || j.TimeLimit == limit {
				t.Errorf("job %d changed: state %s hold %v limit %d", id, j.JobState, j.Hold, j.TimeLimit)
			}
		})
	}
}
