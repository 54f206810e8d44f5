package controller

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

func switchWaitOf(v int64) *int64 { return &v }

// TestCapSwitchWait: the wait stored at submit is min(asked,
// max_switch_wait), max_switch_wait when none was asked; the peer
// (max_switch_wait=300) stored 1@x as 1@00:05:00, 2@1-0 and 3@30 as
// 00:05:00, 1@0 as 00:00:00 and 1@5:00 as 00:05:00.
func TestCapSwitchWait(t *testing.T) {
	conf := slurmconf.Default()
	short := slurmconf.Default()
	short.SchedulerParameters.MaxSwitchWait = 3 * time.Second
	tests := map[string]struct {
		conf       *slurmconf.Config
		count      int
		wait, want *int64
	}{
		"none asked takes the maximum":        {conf: conf, count: 1, want: switchWaitOf(300)},
		"a day is capped":                     {conf: conf, count: 2, wait: switchWaitOf(86400), want: switchWaitOf(300)},
		"thirty minutes are capped":           {conf: conf, count: 3, wait: switchWaitOf(1800), want: switchWaitOf(300)},
		"zero stays zero":                     {conf: conf, count: 1, wait: switchWaitOf(0), want: switchWaitOf(0)},
		"exactly the maximum":                 {conf: conf, count: 1, wait: switchWaitOf(300), want: switchWaitOf(300)},
		"under the maximum":                   {conf: conf, count: 1, wait: switchWaitOf(10), want: switchWaitOf(10)},
		"a short max_switch_wait":             {conf: short, count: 1, wait: switchWaitOf(60), want: switchWaitOf(3)},
		"a short max_switch_wait, none asked": {conf: short, count: 1, want: switchWaitOf(3)},
		"no count keeps no wait":              {conf: conf, wait: switchWaitOf(60)},
		"no configuration":                    {count: 1, want: switchWaitOf(300)},
	}
	for name, tc := range tests {
		r := &job.Request{Switches: tc.count, SwitchWait: tc.wait}
		capSwitchWait(tc.conf, r)
		if diff := cmp.Diff(tc.want, r.SwitchWait); diff != "" || r.Switches != tc.count {
			t.Errorf("%s: count %d, wait (-want +got):\n%s", name, r.Switches, diff)
		}
	}
}

// TestApplySwitchUpdate: scontrol update's Switches= and wait-for-switch=
// as the peer applied them (max_switch_wait=300): the count as sent, 0
// clearing it; the wait capped; a job that had no --switches waits 0.
func TestApplySwitchUpdate(t *testing.T) {
	pint := func(v int) *int { return &v }
	type state struct {
		Count int
		Wait  *int64
	}
	tests := map[string]struct {
		before state
		u      api.JobUpdate
		want   state
	}{
		"a count keeps the wait": {before: state{2, switchWaitOf(300)}, u: api.JobUpdate{Switches: pint(3)},
			want: state{3, switchWaitOf(300)}},
		"a count and a wait over the maximum": {before: state{3, switchWaitOf(300)},
			u: api.JobUpdate{Switches: pint(3), SwitchWait: switchWaitOf(600)}, want: state{3, switchWaitOf(300)}},
		"wait-for-switch=30": {before: state{2, switchWaitOf(300)}, u: api.JobUpdate{SwitchWait: switchWaitOf(30)},
			want: state{2, switchWaitOf(30)}},
		"Switches=0 clears the count": {before: state{2, switchWaitOf(30)}, u: api.JobUpdate{Switches: pint(0)},
			want: state{0, switchWaitOf(30)}},
		"a job without --switches waits 0": {u: api.JobUpdate{Switches: pint(3)}, want: state{3, switchWaitOf(0)}},
		"an unreadable time (huge) is capped": {before: state{4, switchWaitOf(7)},
			u: api.JobUpdate{Switches: pint(4), SwitchWait: switchWaitOf(4294967176)}, want: state{4, switchWaitOf(300)}},
	}
	for name, tc := range tests {
		q := &job.Request{Switches: tc.before.Count, SwitchWait: tc.before.Wait}
		applySwitchUpdate(q, &tc.u, 300)
		if diff := cmp.Diff(tc.want, state{q.Switches, q.SwitchWait}); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}
