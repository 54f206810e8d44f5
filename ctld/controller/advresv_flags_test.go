package controller

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
)

// TestAdvResvShownFlags: Flags= as the peer printed it: SPEC_NODES and
// ALL_NODES after WEEKLY and before STATIC, PURGE_COMP with its time.
func TestAdvResvShownFlags(t *testing.T) {
	tests := map[string]struct {
		r    advResv
		want []string
	}{
		"Nodes=ALL flags=maint,ignore_jobs": {advResv{AllNodes: true, Flags: []string{"MAINT", "IGNORE_JOBS"}},
			[]string{"MAINT", "IGNORE_JOBS", "SPEC_NODES", "ALL_NODES"}},
		"NodeCnt=1 with static_alloc,purge_comp=10:00": {advResv{Counted: true,
			Flags: []string{"STATIC_ALLOC", "PURGE_COMP"}, PurgeComp: 600},
			[]string{"STATIC", "PURGE_COMP=00:10:00"}},
		"named nodes, default purge time, no hold": {advResv{Flags: []string{"IGNORE_JOBS", "PURGE_COMP", "NO_HOLD_JOBS_AFTER_END"}},
			[]string{"IGNORE_JOBS", "SPEC_NODES", "PURGE_COMP=00:05:00", "NO_HOLD_JOBS_AFTER_END"}},
		"named nodes alone": {advResv{}, []string{"SPEC_NODES"}},
	}
	for name, tc := range tests {
		if diff := cmp.Diff(tc.want, tc.r.shownFlags()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

// TestAdvResvFlagsRefused: the flags Loam does not run are refused, the
// ones it runs kept in Slurm's order.
func TestAdvResvFlagsRefused(t *testing.T) {
	got, err := createFlags([]string{"+NO_HOLD_JOBS_AFTER_END", "+PURGE_COMP", "+STATIC_ALLOC", "+MAINT"})
	if err != nil {
		t.Fatalf("createFlags: %v", err)
	}
	if diff := cmp.Diff([]string{"MAINT", "STATIC_ALLOC", "PURGE_COMP", "NO_HOLD_JOBS_AFTER_END"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, f := range []string{"FLEX", "REPLACE", "REPLACE_DOWN", "MAGNETIC"} {
		if _, err := createFlags([]string{"+" + f}); err == nil || err.Code != api.CodeNotSupported {
			t.Errorf("%s: %v, want not supported", f, err)
		}
	}
}

// TestAdvResvGroupsChecked: Users= and Groups= exclude each other, and
// every group must exist (the peer's errors).
func TestAdvResvGroupsChecked(t *testing.T) {
	tests := map[string]struct {
		r    advResv
		want api.Code
	}{
		"group":           {advResv{Groups: []string{"root"}}, ""},
		"users and group": {advResv{Users: []string{"root"}, Groups: []string{"root"}}, api.CodeReservationUserGroup},
		"unknown group":   {advResv{Groups: []string{"no-such-group-here"}}, api.CodeGroupIDMissing},
	}
	for name, tc := range tests {
		got := api.Code("")
		if err := checkAdvGroups(&tc.r); err != nil {
			got = err.Code
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", name, got, tc.want)
		}
	}
}
