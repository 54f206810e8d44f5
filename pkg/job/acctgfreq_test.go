package job

import (
	"slices"
	"testing"
)

// TestAcctgFreq: what the peer's sbatch refused as a bad item ("Invalid
// --acctg-freq specification") and what its slurmctld refused ("Invalid
// accounting frequency requested", JobAcctGatherFrequency unset, so 30)
// with a memory limit and with --mem=0.
func TestAcctgFreq(t *testing.T) {
	tests := []struct {
		spec      string
		bad       []string
		allowed   bool // with a memory limit
		allowedM0 bool // --mem=0
	}{
		{spec: "30", allowed: true, allowedM0: true},
		{spec: "task=5", allowed: true, allowedM0: true},
		{spec: "xenergy=3", allowed: true, allowedM0: true},
		{spec: " 5", allowed: true, allowedM0: true},
		{spec: "5x", allowed: true, allowedM0: true},
		{spec: "", allowed: true, allowedM0: true},
		{spec: "energy=60", allowed: true, allowedM0: true},
		{spec: "foo,bar", bad: []string{"foo", "bar"}},
		{spec: "energy=x", bad: []string{"energy=x"}},
		{spec: "-1", bad: []string{"-1"}},
		{spec: "-2", allowed: false, allowedM0: true},
		{spec: "31", allowed: false, allowedM0: true},
		{spec: "0", allowed: false, allowedM0: true},
		{spec: "task=60", allowed: false, allowedM0: true},
		{spec: "task=0", allowed: false, allowedM0: true},
		{spec: "0,energy=5", allowed: false, allowedM0: true},
	}
	for _, tc := range tests {
		if got := BadAcctgFreqItems(tc.spec); !slices.Equal(got, tc.bad) {
			t.Errorf("BadAcctgFreqItems(%q) = %q, want %q", tc.spec, got, tc.bad)
		}
		if tc.bad != nil {
			continue
		}
		if got := TaskAcctgFreqAllowed(tc.spec, "30", true); got != tc.allowed {
			t.Errorf("TaskAcctgFreqAllowed(%q) with a memory limit = %v, want %v", tc.spec, got, tc.allowed)
		}
		if got := TaskAcctgFreqAllowed(tc.spec, "30", false); got != tc.allowedM0 {
			t.Errorf("TaskAcctgFreqAllowed(%q) with --mem=0 = %v, want %v", tc.spec, got, tc.allowedM0)
		}
	}
	// JobAcctGatherFrequency=task=0 turns the check off; one without a
	// task interval bounds it only by Slurm's NO_VAL16.
	if !TaskAcctgFreqAllowed("0", "task=0", true) || !TaskAcctgFreqAllowed("600", "energy=5", true) {
		t.Error("cluster settings without a task bound should allow any interval")
	}
}
