package batchscript

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRobustCheckSize: Slurm's default max_script_size (4 MiB), measured
// against the peer: a script of exactly 4 MiB is taken, one byte more is
// refused with slurmctld's words.
func TestRobustCheckSize(t *testing.T) {
	tests := map[string]struct {
		size int
		want []string
	}{
		"a small script":       {size: 20},
		"exactly the limit":    {size: MaxScriptBytes},
		"one byte over":        {size: MaxScriptBytes + 1, want: []string{"Batch job submission failed: Pathname of a file, directory or other parameter too long"}},
		"a script of a 100 MB": {size: 100 << 20, want: []string{"Batch job submission failed: Pathname of a file, directory or other parameter too long"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			err := CheckSize("#!/bin/sh\n" + strings.Repeat("#", tc.size-10))
			var got []string
			if err != nil {
				got = err.(*Error).Lines
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
