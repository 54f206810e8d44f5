package command

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// TestScontrolUpdateSwitches checks what scontrol update reads from
// Switches= and wait-for-switch= and its messages, from the peer: its
// shows after each update (max_switch_wait=300) were Switches=3@10 ->
// 3@00:05:00, Switc=5@2 -> 5@00:02:00, Switches=4@ and 2@x -> 4@00:05:00
// (an unreadable time wraps to a huge wait, capped), Switches=x and
// Switches= -> no line (cleared), Switches=2x@3 -> the count only,
// " 4@1:30" -> 4@00:02:00 (minutes rounded up), -1 -> 4294967295, and
// wait-for-switch=30 -> 00:00:30; a tag under five letters is not
// supported.
func TestScontrolUpdateSwitches(t *testing.T) {
	count := func(n int) *int { return &n }
	wait := func(n int64) *int64 { return &n }
	cases := map[string]struct {
		args     []string
		want     *api.JobUpdate // nil: nothing is sent
		wantErr  string
		wantCode int
	}{
		"a count":                             {args: []string{"Switches=3"}, want: &api.JobUpdate{Switches: count(3)}},
		"a count and minutes":                 {args: []string{"Switches=3@10"}, want: &api.JobUpdate{Switches: count(3), SwitchWait: wait(600)}},
		"five letters":                        {args: []string{"Switc=5@2"}, want: &api.JobUpdate{Switches: count(5), SwitchWait: wait(120)}},
		"any case":                            {args: []string{"switches=1@1-0"}, want: &api.JobUpdate{Switches: count(1), SwitchWait: wait(86400)}},
		"seconds round up to minutes":         {args: []string{"Switches= 4@1:30"}, want: &api.JobUpdate{Switches: count(4), SwitchWait: wait(120)}},
		"zero minutes":                        {args: []string{"Switches=1@0"}, want: &api.JobUpdate{Switches: count(1), SwitchWait: wait(0)}},
		"zero clears":                         {args: []string{"Switches=0"}, want: &api.JobUpdate{Switches: count(0)}},
		"text clears":                         {args: []string{"Switches=x"}, want: &api.JobUpdate{Switches: count(0)}},
		"nothing clears":                      {args: []string{"Switches="}, want: &api.JobUpdate{Switches: count(0)}},
		"an empty time wraps":                 {args: []string{"Switches=4@"}, want: &api.JobUpdate{Switches: count(4), SwitchWait: wait(4294967176)}},
		"an unreadable time wraps":            {args: []string{"Switches=2@x"}, want: &api.JobUpdate{Switches: count(2), SwitchWait: wait(4294967176)}},
		"an unlimited time wraps":             {args: []string{"Switches=5@-1"}, want: &api.JobUpdate{Switches: count(5), SwitchWait: wait(4294967236)}},
		"text before the @":                   {args: []string{"Switches=2x@3"}, want: &api.JobUpdate{Switches: count(2)}},
		"a negative count is 32 bits":         {args: []string{"Switches=-1"}, want: &api.JobUpdate{Switches: count(4294967295)}},
		"wait-for-switch":                     {args: []string{"wait-for-switch=30"}, want: &api.JobUpdate{SwitchWait: wait(30)}},
		"wait-for-switch, shortest":           {args: []string{"WAIT-FOR=7"}, want: &api.JobUpdate{SwitchWait: wait(7)}},
		"a large wait goes to the controller": {args: []string{"wait-for-switch=99999"}, want: &api.JobUpdate{SwitchWait: wait(99999)}},
		"a wait that is no number": {args: []string{"wait-for-switch=x"},
			wantErr: "scontrol: error: Invalid wait-for-switch value: x\n", wantCode: 1},
		"a negative wait": {args: []string{"wait-for-switch=-1"},
			wantErr: "scontrol: error: Invalid wait-for-switch value: -1\n", wantCode: 1},
		"a tag too short": {args: []string{"swi=1"},
			wantErr: "Update of this parameter is not supported: swi=1\nRequest aborted\n", wantCode: 1},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) { checkJobUpdate(t, tc.args, tc.want, tc.wantErr, tc.wantCode) })
	}
}

// TestScontrolShowJobSwitches: the Switches= line as the peer prints it
// for "sbatch --hold --switches=2@10": right after StdOut=, before
// Power=; with days past a day; none without --switches. A job that is
// not a batch job gets it after WorkDir= (and Comment=), where Slurm
// puts it too.
func TestScontrolShowJobSwitches(t *testing.T) {
	cases := map[string]struct {
		job  api.Job
		want []string
	}{
		"a batch job": {job: api.Job{JobID: 2532, BatchFlag: true, WorkDir: "/tmp", StdOut: "/tmp/slurm-2532.out",
			RequiredSwitch: 2, WaitForSwitch: 300},
			want: []string{"StdOut=/tmp/slurm-2532.out", "Switches=2@00:05:00", "Power="}},
		"no wait": {job: api.Job{RequiredSwitch: 1, WorkDir: "/tmp", Comment: "c"},
			want: []string{"WorkDir=/tmp", "Comment=c ", "Switches=1@00:00:00", "Power="}},
		"days": {job: api.Job{RequiredSwitch: 3, WaitForSwitch: 86400 + 3661, WorkDir: "/tmp"},
			want: []string{"WorkDir=/tmp", "Switches=3@1-01:01:01", "Power="}},
		"none": {job: api.Job{WorkDir: "/tmp"}, want: []string{"Command=(null)", "WorkDir=/tmp", "Power="}},
	}
	for name, tc := range cases {
		lines := strings.Split(string((&jobFormatter{}).fileLines(nil, &tc.job, "\n")), "\n")
		got := lines[len(lines)-len(tc.want):]
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}
