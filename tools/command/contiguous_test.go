package command

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestContiguousShown: --contiguous as the peer shows it for
// "sbatch -H -p batch -N2 --contiguous": scontrol show job's
// "OverSubscribe=OK Contiguous=1 Licenses=(null) Network=(null)", and
// squeue's %O and -O contiguous ("CONTIGUOUS|CONTI|CONTIGUOUS|" over
// "1|    1|1         |" for -o '%O|%.5O|%10O|').
func TestContiguousShown(t *testing.T) {
	const now = 1795950000
	on := api.Job{JobID: 3029, Name: "s.sh", UserName: "root", Partition: "batch", JobState: job.Pending,
		StateReason: job.ReasonJobHeldUser, NodeCount: 2, Contiguous: true}
	line := string((&jobFormatter{}).shapeLines(nil, &on, "\n"))
	if !strings.Contains(line, "OverSubscribe=OK Contiguous=1 Licenses=(null) Network=(null)\n") {
		t.Errorf("show job: no Contiguous=1 line in\n%s", line)
	}
	off := on
	off.JobID, off.Contiguous = 3030, false
	if line := string((&jobFormatter{}).shapeLines(nil, &off, "\n")); !strings.Contains(line, " Contiguous=0 ") {
		t.Errorf("show job: no Contiguous=0 in\n%s", line)
	}
	tests := map[string]struct {
		args []string
		want string
	}{
		"%O": {[]string{"-j", "3029", "-o", "%O|%.5O|%10O|"},
			"CONTIGUOUS|CONTI|CONTIGUOUS|\n1|    1|1         |\n"},
		"-O contiguous": {[]string{"-j", "3029", "-O", "contiguous:5,jobid"},
			"CONTIJOBID               \n1    3029                \n"},
		"without the flag": {[]string{"-h", "-j", "3030", "-o", "%O"}, "0\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{now: now, jobs: []api.Job{on, off}}
			te := newTestEnv(f, now)
			if code := Squeue(context.Background(), te.Env, tc.args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.want, te.stdout.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestScontrolUpdateContiguous: what scontrol update reads from
// Contiguous=, from the peer: yes/no prefixes, numbers, nothing (0: the
// peer cleared the flag), "Cont=" (three letters), and its messages for
// values it refuses and for "Co=".
func TestScontrolUpdateContiguous(t *testing.T) {
	val := func(n int) *int { return &n }
	cases := map[string]struct {
		arg      string
		want     *int // nil: nothing is sent
		wantErr  string
		wantCode int
	}{
		"one":           {arg: "Contiguous=1", want: val(1)},
		"zero":          {arg: "Contiguous=0", want: val(0)},
		"yes":           {arg: "Contiguous=yes", want: val(1)},
		"n":             {arg: "Contiguous=n", want: val(0)},
		"nothing":       {arg: "Contiguous=", want: val(0)},
		"two":           {arg: "Contiguous=2", want: val(2)},
		"three letters": {arg: "Cont=1", want: val(1)},
		"text": {arg: "Contiguous=abc",
			wantErr: "scontrol: error: Invalid Contiguous value: abc\n", wantCode: 1},
		"negative": {arg: "Contiguous=-1",
			wantErr: "scontrol: error: Invalid Contiguous value: -1\n", wantCode: 1},
		"too large": {arg: "Contiguous=65536",
			wantErr: "scontrol: error: Invalid Contiguous value: 65536\n", wantCode: 1},
		"NO_VAL16": {arg: "Contiguous=65534",
			wantErr: "scontrol: error: Invalid Contiguous value: 65534\n", wantCode: 1},
		"a blank and a sign": {arg: "Contiguous= +1", want: val(1)},
		"two letters": {arg: "Co=1",
			wantErr: "Update of this parameter is not supported: Co=1\nRequest aborted\n", wantCode: 1},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var want *api.JobUpdate
			if tc.want != nil {
				want = &api.JobUpdate{Contiguous: tc.want}
			}
			checkJobUpdate(t, []string{tc.arg}, want, tc.wantErr, tc.wantCode) // scontrol_update_job_test.go
		})
	}
}
