package slurmconf

import "testing"

// TestHealthCheckNodeStateString: scontrol show config's form of
// HealthCheckNodeState, as Slurm 22.05.8's health_check_node_state_str
// prints each value (called in the peer's libslurmfull).
func TestHealthCheckNodeStateString(t *testing.T) {
	tests := map[string]struct{ in, want string }{
		"one state":                         {"idle", "IDLE"},
		"CYCLE goes first":                  {"IDLE,CYCLE", "CYCLE,IDLE"},
		"states in Slurm's order":           {"mixed,alloc", "ALLOC,MIXED"},
		"the three states are not ANY":      {"MIXED,ALLOC,IDLE", "IDLE,ALLOC,MIXED"},
		"ANY":                               {"any", "ANY"},
		"ANY absorbs the states":            {"IDLE,ANY", "ANY"},
		"CYCLE alone means any state":       {"CYCLE", "CYCLE,ANY"},
		"CYCLE with ANY":                    {"ANY,cycle", "CYCLE,ANY"},
		"CYCLE with the three states":       {"cycle,mixed,idle,alloc", "CYCLE,IDLE,ALLOC,MIXED"},
		"Loam's NONDRAINED_IDLE comes last": {"NONDRAINED_IDLE,ALLOC", "ALLOC,NONDRAINED_IDLE"},
		"a bad value is shown upper-cased":  {"busy", "BUSY"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := HealthCheckNodeStateString(tc.in); got != tc.want {
				t.Errorf("HealthCheckNodeStateString(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
