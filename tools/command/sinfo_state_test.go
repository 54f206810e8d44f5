package command

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
)

// TestSinfoStateSuffixes: node states in a maintenance window, not
// responding, or allocated while other jobs complete, spelled as the
// peer's sinfo spells them (%T and %t). "drained$"/"drain$" are the
// peer's own output for a drained node in a MAINT reservation; the rest
// follow Slurm 22.05's node_state_string rules.
func TestSinfoStateSuffixes(t *testing.T) {
	maint := api.FlagMaintenance
	cases := map[string]struct {
		node        api.Node
		long, short string
	}{
		"drained in a maintenance window": {api.Node{State: api.NodeIdle, StateFlags: []string{api.FlagDrain, maint}},
			"DRAINED$", "DRAIN$"},
		"draining in a maintenance window": {api.Node{State: api.NodeMixed, StateFlags: []string{api.FlagDrain, maint}},
			"DRAINING$", "DRNG$"},
		"idle in a maintenance window": {api.Node{State: api.NodeIdle, StateFlags: []string{maint}}, "MAINT", "MAINT"},
		"idle in a maintenance window, not responding": {api.Node{State: api.NodeIdle,
			StateFlags: []string{maint, api.FlagNotResponding}}, "MAINT*", "MAINT*"},
		"running jobs in a maintenance window": {api.Node{State: api.NodeMixed, StateFlags: []string{maint}},
			"MIXED$", "MIX$"},
		"allocated in a maintenance window": {api.Node{State: api.NodeAllocated, StateFlags: []string{maint}},
			"ALLOCATED$", "ALLOC$"},
		"down in a maintenance window, not responding": {api.Node{State: api.NodeDown,
			StateFlags: []string{maint, api.FlagNotResponding}}, "DOWN$", "DOWN$"},
		"down, not responding": {api.Node{State: api.NodeDown, StateFlags: []string{api.FlagNotResponding}},
			"DOWN*", "DOWN*"},
		"allocated while another job completes": {api.Node{State: api.NodeAllocated,
			StateFlags: []string{api.FlagCompleting}}, "ALLOCATED+", "ALLOC+"},
		"idle and completing": {api.Node{State: api.NodeIdle, StateFlags: []string{api.FlagCompleting}},
			"COMPLETING", "COMP"},
		"reserved": {api.Node{State: api.NodeIdle, StateFlags: []string{api.FlagReserved}}, "RESERVED", "RESV"},
		"reserved, not responding": {api.Node{State: api.NodeIdle,
			StateFlags: []string{api.FlagReserved, api.FlagNotResponding}}, "IDLE*", "IDLE*"},
		"failed and drained in a maintenance window": {api.Node{State: api.NodeIdle,
			StateFlags: []string{api.FlagFail, maint, api.FlagDrain}}, "DRAINED$", "DRAIN$"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := nodeStateNum(&tc.node)
			got := [2]string{stateLong(s), stateCompact(s)}
			if diff := cmp.Diff([2]string{tc.long, tc.short}, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestSinfoDrainingNodeIsAllocated: sinfo makes a partly allocated node
// MIXED only when it is not draining, so the peer's "sinfo -t mix" leaves
// a draining node with free CPUs out and "-t alloc" lists it.
func TestSinfoDrainingNodeIsAllocated(t *testing.T) {
	n := api.Node{State: api.NodeMixed, StateFlags: []string{api.FlagDrain}, AllocCPUs: 2, CPUs: 64}
	s := nodeStateNum(&n)
	got := map[string]bool{"MIXED": sinfoStates["MIXED"](&n, s), "ALLOC": sinfoStates["ALLOC"](&n, s),
		"DRAINING": sinfoStates["DRAINING"](&n, s)}
	want := map[string]bool{"MIXED": false, "ALLOC": true, "DRAINING": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("-t matches (-want +got):\n%s", diff)
	}
	if got := stateLong(s); got != "DRAINING" {
		t.Errorf("state %q, want DRAINING", got)
	}
}
