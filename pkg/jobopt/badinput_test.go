package jobopt

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBadInputAgainstPeer checks sbatch's own refusals of bad values
// against what the peer's sbatch printed (standard error, exit status).
// A case with no wantLines is accepted and sent to the controller, which
// makes the refusal (wantNodeList is then what it is sent).
func TestBadInputAgainstPeer(t *testing.T) {
	tests := map[string]struct {
		args         []string
		wantCode     int
		wantLines    []string
		wantWarnings []string
		wantNodeList string
	}{
		// _validate_ntasks_per_gpu, as the peer's sbatch prints it.
		"--ntasks-per-gpu with --gpus-per-task": {args: []string{"-n2", "--gpus-per-task=1", "--ntasks-per-gpu=1"}, wantCode: 1,
			wantLines: []string{"sbatch: fatal: --gpus-per-task is mutually exclusive with --ntasks-per-gpu and SLURM_NTASKS_PER_GPU"}},
		"--ntasks-per-gpu with --ntasks-per-node": {args: []string{"--ntasks-per-node=2", "--ntasks-per-gpu=1", "--gpus=2"}, wantCode: 1,
			wantLines: []string{"sbatch: fatal: --ntasks-per-node is mutually exclusive with --ntasks-per-gpu and SLURM_NTASKS_PER_GPU"}},
		"--ntasks-per-gpu with --gpus-per-socket": {args: []string{"--gpus-per-socket=1", "--sockets-per-node=2", "--ntasks-per-gpu=1", "--gpus=2"}, wantCode: 1,
			wantLines: []string{"sbatch: fatal: --gpus-per-socket is mutually exclusive with --ntasks-per-gpu and SLURM_NTASKS_PER_GPU"}},
		"--ntasks-per-gpu and --ntasks-per-tres that differ": {args: []string{"--ntasks-per-gpu=1", "--ntasks-per-tres=2", "--gpus=2"}, wantCode: 1,
			wantLines: []string{"sbatch: fatal: Inconsistent values set to --ntasks-per-gpu=1 and --ntasks-per-tres=2 "}},
		"--ntasks-per-tres=0": {args: []string{"--ntasks-per-tres=0", "--gpus=2"}, wantCode: 1,
			wantLines: []string{`sbatch: error: Invalid numeric value "0" for --ntasks-per-tres.`}},
		"--get-user-env=bad": {args: []string{"--get-user-env=bad"}, wantCode: 255,
			wantLines: []string{"sbatch: error: Invalid --get-user-env specification"}},
		"--get-user-env=10x": {args: []string{"--get-user-env=10x"}, wantCode: 255,
			wantLines: []string{"sbatch: error: Invalid --get-user-env specification"}},
		"--get-user-env with a space before the mode": {args: []string{"--get-user-env= S"}, wantCode: 255,
			wantLines: []string{"sbatch: error: Invalid --get-user-env specification"}},
		"--get-user-env=+-1": {args: []string{"--get-user-env=+-1"}, wantCode: 255,
			wantLines: []string{"sbatch: error: Invalid --get-user-env specification"}},
		"--get-user-env=10Lx passes": {args: []string{"--get-user-env=10Lx"}},
		"--get-user-env=-5 passes":   {args: []string{"--get-user-env=-5"}},
		"--get-user-env=l passes":    {args: []string{"--get-user-env=l"}},
		"-w with a reversed range": {args: []string{"-w", "gpu[3-1]"}, wantCode: 1,
			wantLines: []string{"sbatch: error: _parse_single_range: Invalid range: `3-1'", "sbatch: error: memory allocation failure"}},
		"-w with letters in brackets": {args: []string{"-w", "gpu[a-b]"}, wantCode: 1,
			wantLines: []string{"sbatch: error: _parse_single_range: Invalid range: `a-b'", "sbatch: error: memory allocation failure"}},
		"-w with empty brackets": {args: []string{"-w", "gpu[]"}, wantCode: 1,
			wantLines: []string{"sbatch: error: _parse_single_range: Invalid range: `'", "sbatch: error: memory allocation failure"}},
		"-w with text after the brackets": {args: []string{"-w", "gpu[001-002]x"}, wantCode: 1,
			wantLines: []string{"sbatch: error: memory allocation failure"}},
		"-w with nested brackets": {args: []string{"-w", "gpu[[1]]"}, wantCode: 1,
			wantLines: []string{"sbatch: error: memory allocation failure"}},
		"-w with a bad range in the middle group": {args: []string{"-w", "gpu[1-3]b[3-1]c[1],gpu001"}, wantCode: 1,
			wantLines: []string{"sbatch: error: _parse_single_range: Invalid range: `3-1'", "sbatch: error: memory allocation failure"}},
		// The peer then prints "Batch job submission failed: Invalid node
		// name specified": the controller refuses the repaired name.
		"-w with an unclosed bracket goes to the controller": {args: []string{"-w", "bad["}, wantNodeList: "bad]"},
		"-w with an unclosed range goes to the controller":   {args: []string{"-w", "gpu[001-"}, wantNodeList: "gpu]"},
		// The peer: the range four times (sbatch reads the list twice),
		// then the controller's "Node count specification invalid" for
		// the empty list.
		"-w whose only entry Slurm drops": {args: []string{"-w", "a[3-1]b[1-2]c[1]"},
			wantWarnings: []string{
				"sbatch: error: _parse_single_range: Invalid range: `3-1'", "sbatch: error: _parse_single_range: Invalid range: `3-1'",
				"sbatch: error: _parse_single_range: Invalid range: `3-1'", "sbatch: error: _parse_single_range: Invalid range: `3-1'"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			res, err := submit(t, []string{"HOME=/home/u"}, "#!/bin/sh\n", append(tc.args, "job.sh")...)
			if tc.wantLines != nil {
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("err = %v, want a refusal", err)
				}
				if diff := cmp.Diff(tc.wantLines, e.Lines); diff != "" || e.Code != tc.wantCode {
					t.Errorf("exit %d, want %d; lines (-want +got):\n%s", e.Code, tc.wantCode, diff)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantWarnings, res.Warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			if res.Request.NodeList != tc.wantNodeList {
				t.Errorf("node list %q, want %q", res.Request.NodeList, tc.wantNodeList)
			}
		})
	}
}
