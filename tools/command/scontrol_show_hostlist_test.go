package command

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// TestScontrolShowHostlistVerbs: hostnames, hostlist and hostlistsorted read
// lists as Slurm's hostlist_create and print what the peer printed,
// including where Slurm is lenient and its error words and exit codes.
func TestScontrolShowHostlistVerbs(t *testing.T) {
	tests := map[string]struct {
		args             []string
		nodelist         string // SLURM_NODELIST; unset when empty
		wantOut, wantErr string
		wantExit         int
	}{
		"no argument reads SLURM_NODELIST": {args: []string{"show", "hostnames"}, nodelist: "b[1-2]",
			wantOut: "b1\nb2\n"},
		"no argument and no SLURM_NODELIST": {args: []string{"show", "hostnames"},
			wantErr: "scontrol: error: host list is empty\n"},
		"an empty argument prints nothing": {args: []string{"show", "hostnames", ""}},
		"an empty argument to hostlist is an empty line": {args: []string{"show", "hostlist", ""},
			wantOut: "\n"},
		"unclosed bracket becomes a name": {args: []string{"show", "hostnames", "n[1,2,m3"},
			wantOut: "n]\n2\nm3\n"},
		"stray closing bracket is part of a name": {args: []string{"show", "hostlist", "n1-3]"},
			wantOut: "n1-3]\n"},
		"text after the last group": {args: []string{"show", "hostnames", "n[1-3].foo.com"},
			wantErr: "Invalid hostlist: n[1-3].foo.com\n"},
		"text after the last group fails hostlist": {args: []string{"show", "hostlist", "n[1-3]x"},
			wantErr: "Invalid hostlist: n[1-3]x\n", wantExit: 1},
		"a range past MAX_RANGE": {args: []string{"show", "hostlist", "n[1-100000]"},
			wantErr:  "scontrol: error: _parse_single_range: Too many hosts in range `1-100000'\nInvalid hostlist: n[1-100000]\n",
			wantExit: 1},
		"an empty range": {args: []string{"show", "hostnames", "n[1,,2]"},
			wantErr: "scontrol: error: _parse_single_range: Invalid range: `'\nInvalid hostlist: n[1,,2]\n"},
		"a range without upper bound": {args: []string{"show", "hostnames", "n[1-]"}, wantOut: "n1\n"},
		"strtoul widths":              {args: []string{"show", "hostlist", "n[+1-2]"}, wantOut: "n[01-02]\n"},
		"sorted keeps duplicates": {args: []string{"show", "hostlistsorted", "n[1-3],n[2-5]"},
			wantOut: "n[1-2,2-3,3-5]\n"},
		"sorted mixes widths and prefixes": {args: []string{"show", "hostlistsorted", "gpu001,gpu002,cpu001,n[01-03],n[1-3]"},
			wantOut: "cpu001,gpu[001-002],n[1-3,01-03]\n"},
		"a bad range two groups before the last drops its entry": {args: []string{"show", "hostlist", "n1,a[3-1]b[1-2]c[1],n2"},
			wantOut: "n[1-2]\n",
			wantErr: "scontrol: error: _parse_single_range: Invalid range: `3-1'\n" +
				"scontrol: error: _parse_single_range: Invalid range: `3-1'\n"},
		"hostlist needs a list, even quiet": {args: []string{"-Q", "show", "hostlist"},
			wantOut: scontrolHelp, wantErr: "invalid encode argument\n", wantExit: 1},
		"groups before the last": {args: []string{"show", "hostlist", "a[1-2]b[3-4]c[5-6]"},
			wantOut: "a1b3c[5-6],a2b3c[5-6],a1b4c[5-6],a2b4c[5-6]\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			te := newTestEnv(&fakeController{}, 1795950000)
			if tc.nodelist != "" {
				te.Environ = append(te.Environ, "SLURM_NODELIST="+tc.nodelist)
			}
			code := Scontrol(context.Background(), te.Env, tc.args)
			if diff := cmp.Diff(tc.wantOut, te.stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantErr, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			if code != tc.wantExit {
				t.Errorf("exit = %d, want %d", code, tc.wantExit)
			}
		})
	}
}

// TestScontrolShowJobZero: job id 0 (also an empty id) is every job, as the
// peer prints for `scontrol show job 0`; a task after it selects that task
// of every array, and none is "Job 0_T not found".
func TestScontrolShowJobZero(t *testing.T) {
	tests := map[string]struct {
		args     []string
		wantIDs  []string
		wantErr  string
		wantExit int
	}{
		"zero is every job":      {args: []string{"show", "job", "0"}, wantIDs: []string{"JobId=12", "JobId=13"}},
		"an empty id is too":     {args: []string{"show", "job="}, wantIDs: []string{"JobId=12", "JobId=13"}},
		"a plus sign reads as 0": {args: []string{"show", "job", "+0"}, wantIDs: []string{"JobId=12", "JobId=13"}},
		"a task of no array":     {args: []string{"show", "job", "0_99"}, wantErr: "Job 0_99 not found\n", wantExit: 1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{jobs: []api.Job{{JobID: 12, JobState: "RUNNING"}, {JobID: 13, JobState: "PENDING"}}}
			te := newTestEnv(f, 1795950000)
			code := Scontrol(context.Background(), te.Env, tc.args)
			var got []string
			for _, line := range strings.Split(te.stdout.String(), "\n") {
				if id, _, ok := strings.Cut(line, " "); ok && strings.HasPrefix(id, "JobId=") {
					got = append(got, id)
				}
			}
			if diff := cmp.Diff(tc.wantIDs, got); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
			if tc.wantErr != "" && !strings.Contains(te.stdout.String()+te.stderr.String(), tc.wantErr) {
				t.Errorf("output %q lacks %q", te.stdout.String()+te.stderr.String(), tc.wantErr)
			}
			if code != tc.wantExit {
				t.Errorf("exit = %d, want %d", code, tc.wantExit)
			}
			// The controller answers job id 0 with "Invalid job id": ask for all.
			for _, q := range f.queries {
				if len(q.JobIDs) > 0 {
					t.Errorf("query for job ids %q, want every job", q.JobIDs)
				}
			}
		})
	}
}
