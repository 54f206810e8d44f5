package command

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSbcastEmptyCompress: "--compress=" and SBCAST_COMPRESS="" name an
// unknown type (the peer warns), while a bare -C means lz4.
func TestSbcastEmptyCompress(t *testing.T) {
	const noJob = "sbcast: error: Need a job id to run this command.  Run from within a Slurm job or use the --jobid option.\n"
	const unknown = "sbcast: error: Compression type '' unknown, disabling compression support.\n"
	tests := map[string]struct {
		env    []string
		args   []string
		stderr string
	}{
		"empty value":    {args: []string{"--compress=", "a", "b"}, stderr: unknown + noJob},
		"empty variable": {env: []string{"SBCAST_COMPRESS="}, args: []string{"a", "b"}, stderr: unknown + noJob},
		"no value":       {args: []string{"-C", "a", "b"}, stderr: noJob},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, stderr, code := runSbcastTest(t, newFakeSbcast(), tc.env, tc.args...)
			if diff := cmp.Diff([]any{tc.stderr, 1}, []any{stderr, code}); diff != "" {
				t.Errorf("sbcast %v (-want +got):\n%s", tc.args, diff)
			}
		})
	}
}
