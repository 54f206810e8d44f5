package slurmconf

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// TestRLimits: which limits are propagated, and the two keys as the peer's
// scontrol show config prints them.
func TestRLimits(t *testing.T) {
	type out struct{ Set, Limits, Except string }
	tests := map[string]struct {
		conf string
		want out
	}{
		"unset: ALL":       {"", out{"ALL", "ALL", "(null)"}},
		"NONE":             {"PropagateResourceLimits=NONE\n", out{"NONE", "NONE", "(null)"}},
		"a list":           {"PropagateResourceLimits=CORE,STACK\n", out{"STACK,CORE", "CORE,STACK", "(null)"}},
		"RLIMIT_ prefixes": {"PropagateResourceLimits=RLIMIT_NOFILE\n", out{"NOFILE", "RLIMIT_NOFILE", "(null)"}},
		"Except: every other limit, PropagateResourceLimits (null)": {"PropagateResourceLimitsExcept=MEMLOCK,NOFILE\n",
			out{"CPU,FSIZE,DATA,STACK,CORE,RSS,NPROC,AS", "(null)", "MEMLOCK,NOFILE"}},
		"Except rules over a list": {"PropagateResourceLimits=CORE\nPropagateResourceLimitsExcept=MEMLOCK\n",
			out{"CPU,FSIZE,DATA,STACK,CORE,RSS,NPROC,NOFILE,AS", "(null)", "MEMLOCK"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			c := parseOK(t, tc.conf+limitsNodes)
			got := out{Set: c.PropagateRLimits.String()}
			for _, kv := range c.ShowConfig(ShowContext{}) {
				switch kv.Key {
				case "PropagateResourceLimits":
					got.Limits = kv.Value
				case "PropagateResourceLimitsExcept":
					got.Except = kv.Value
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if got := Default().PropagateRLimits.String(); got != "ALL" {
		t.Errorf("Default().PropagateRLimits = %s, want ALL", got)
	}
}

// TestRLimitsRefusals: a bad name is refused with the peer's words ("Bad
// rlimit name: stack": names are upper case).
func TestRLimitsRefusals(t *testing.T) {
	for name, tc := range map[string]struct{ line, want string }{
		"lower case": {"PropagateResourceLimits=RLIMIT_CORE,stack", `slurm.conf:3: PropagateResourceLimits: invalid value: Bad rlimit name: stack`},
		"unknown in Except": {"PropagateResourceLimitsExcept=BOGUS",
			`slurm.conf:3: PropagateResourceLimitsExcept: invalid value: Bad rlimit name: BOGUS`},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse(fstest.MapFS{"slurm.conf": {Data: []byte(header + tc.line + "\n" + limitsNodes)}}, "slurm.conf")
			checkErrorPrefixes(t, err, []string{tc.want})
		})
	}
}
