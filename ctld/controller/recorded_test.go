package controller

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestRecordedOptions: a --reboot job takes whole nodes whatever sharing
// it asked for (the peer shows OverSubscribe=NO for --reboot with
// --oversubscribe or --exclusive=user), and the recorded options reach
// the job record in the forms scontrol and squeue print.
func TestRecordedOptions(t *testing.T) {
	for _, ex := range []job.Exclusive{"", job.Oversubscribe, job.ExclusiveUser} {
		r := &job.Request{Reboot: true, Exclusive: ex}
		applyReboot(r)
		if r.Exclusive != job.ExclusiveNodes {
			t.Errorf("--reboot with %q: Exclusive %q, want %q", ex, r.Exclusive, job.ExclusiveNodes)
		}
	}
	r := &job.Request{Exclusive: job.ExclusiveUser}
	if applyReboot(r); r.Exclusive != job.ExclusiveUser {
		t.Errorf("without --reboot: Exclusive %q, want it kept", r.Exclusive)
	}

	tests := map[string]struct {
		req  job.Request
		want api.Job
	}{
		"all": {req: job.Request{Reboot: true, BurstBuffer: "capacity=1G", Network: "foo", ClusterConstraint: "x",
			DelayBoot: 300, PowerLevel: true, GresFlags: job.GresEnforceBinding, GPUsPerSocket: "a100:2"},
			want: api.Job{Reboot: true, BurstBuffer: "capacity=1G", Network: "foo", ClusterFeatures: "x", DelayBoot: 300,
				Power: "LEVEL", GresFlags: "enforce-binding", TRESPerSocket: "gres:gpu:a100:2"}},
		"UNLIMITED":                {req: job.Request{DelayBoot: -1}, want: api.Job{DelayBoot: api.UnlimitedSeconds}},
		"negative wraps as uint32": {req: job.Request{DelayBoot: -432000}, want: api.Job{DelayBoot: 1<<32 - 432000}},
		"none":                     {},
	}
	for name, tc := range tests {
		var got api.Job
		fillRecorded(&got, &tc.req)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}
