package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestScontrolUpdateJobParse checks the values update job reads from
// each KEY=VALUE and the messages, exit codes and sends of Slurm 22.05's
// scontrol for values it cannot read (texts captured from the peer).
func TestScontrolUpdateJobParse(t *testing.T) {
	const now = jobUpdateNow
	cases := map[string]struct {
		args     []string
		want     *api.JobUpdate // nil: nothing is sent
		wantErr  string
		wantCode int
	}{
		"a node range": {args: []string{"NumNodes=2-3"}, want: &api.JobUpdate{MinNodes: pint(2), MaxNodes: pint(3)}},
		"one node count keeps the maximum": {args: []string{"NumNodes=2"},
			want: &api.JobUpdate{MinNodes: pint(2)}},
		"no nodes goes to the controller": {args: []string{"NumNodes=0"},
			want: &api.JobUpdate{MinNodes: pint(0)}},
		"a node count that is no number": {args: []string{"NumNodes=abc"},
			wantErr: "scontrol: error: Invalid numeric value \"abc\" for requested node count.\n"},
		"a node range without its end": {args: []string{"NumNodes=2-"},
			wantErr: "scontrol: error: Invalid numeric value \"2-\" for requested node count.\n"},
		"an admin comment": {args: []string{"AdminComment=ops note"}, want: &api.JobUpdate{AdminComment: pstr("ops note")}},
		"tasks per node":   {args: []string{"TasksPerNode=2"}, want: &api.JobUpdate{TasksPerNode: pint(2)}},
		"tasks per node of NO_VAL16": {args: []string{"TasksPerNode=65534"},
			wantErr: "scontrol: error: Invalid TasksPerNode value: 65534\n", wantCode: 1},
		"a working directory": {args: []string{"WorkDir=/var"}, want: &api.JobUpdate{WorkDir: pstr("/var")}},
		"an end time that is no time is sent as nothing": {args: []string{"EndTime=garbage"},
			wantErr: "Invalid time specification (pos=0): garbage\n"},
		"CPUs":          {args: []string{"NumCPUs=4"}, want: &api.JobUpdate{NumCPUs: pint(4)}},
		"a CPU range":   {args: []string{"NumCPUs=4-8"}, want: &api.JobUpdate{NumCPUs: pint(4), MaxCPUs: pint(8)}},
		"CPUs in units": {args: []string{"NumCPUs=1k"}, want: &api.JobUpdate{NumCPUs: pint(1024)}},
		"no CPUs": {args: []string{"NumCPUs=0"},
			wantErr: "scontrol: error: Invalid NumCPUs value: 0\n", wantCode: 1},
		"a CPU range upside down": {args: []string{"NumCPUs=2-1"},
			wantErr: "scontrol: error: Invalid NumCPUs value: 2-1\n", wantCode: 1},
		"CPUs that are no number": {args: []string{"NumCPUs=abc"},
			wantErr: "scontrol: error: Invalid numeric value \"abc\" for NumCPUs.\nscontrol: error: Invalid NumCPUs value: abc\n", wantCode: 1},
		"a CPU range without its end": {args: []string{"NumCPUs=4-"},
			wantErr: "scontrol: error: Invalid numeric value \"4-\" for NumCPUs.\nscontrol: error: Invalid NumCPUs value: 4-\n", wantCode: 1},
		"too many CPUs": {args: []string{"NumCPUs=3-9999999999"},
			wantErr: "scontrol: error: Numeric argument (9999999999) to big for NumCPUs.\nscontrol: error: Invalid NumCPUs value: 3-9999999999\n", wantCode: 1},
		"tasks":            {args: []string{"NumTasks=4"}, want: &api.JobUpdate{NumTasks: pint(4)}},
		"no tasks is sent": {args: []string{"NumTasks=0"}, want: &api.JobUpdate{NumTasks: pint(0)}},
		"a task count that is no number": {args: []string{"NumTasks=abc"},
			wantErr: "scontrol: error: Invalid NumTasks value: abc\n", wantCode: 1},
		"a negative task count": {args: []string{"NumTasks=-1"},
			wantErr: "scontrol: error: Invalid NumTasks value: -1\n", wantCode: 1},
		"memory per CPU":  {args: []string{"MinMemoryCPU=3000"}, want: &api.JobUpdate{MemPerCPU: i64(3000)}},
		"memory per node": {args: []string{"MinMemoryNode=0"}, want: &api.JobUpdate{MemPerNode: i64(0)}},
		"memory with a unit": {args: []string{"MinMemoryCPU=2G"},
			wantErr: "scontrol: error: Invalid MinMemoryCPU value: 2G\n", wantCode: 1},
		"node memory that is no number": {args: []string{"MinMemoryNode=abc"},
			wantErr: "scontrol: error: Invalid MinMemoryNode value: abc\n", wantCode: 1},
		"temporary disk in MB":         {args: []string{"MinTmpDiskNode=1024"}, want: &api.JobUpdate{MinTmpDisk: i64(1024)}},
		"temporary disk, shortest tag": {args: []string{"mintm=3"}, want: &api.JobUpdate{MinTmpDisk: i64(3)}},
		"temporary disk with a sign":   {args: []string{"MinTmpDiskNode=+7"}, want: &api.JobUpdate{MinTmpDisk: i64(7)}},
		"temporary disk after a blank": {args: []string{"MinTmpDiskNode= 8"}, want: &api.JobUpdate{MinTmpDisk: i64(8)}},
		"no temporary disk value is 0": {args: []string{"MinTmpDiskNode="}, want: &api.JobUpdate{MinTmpDisk: i64(0)}},
		"temporary disk with a unit": {args: []string{"MinTmpDiskNode=1G"},
			wantErr: "scontrol: error: Invalid MinTmpDiskNode value: 1G\n", wantCode: 1},
		"negative temporary disk": {args: []string{"MinTmpDiskNode=-1"},
			wantErr: "scontrol: error: Invalid MinTmpDiskNode value: -1\n", wantCode: 1},
		"temporary disk of NO_VAL": {args: []string{"MinTmpDiskNode=4294967294"},
			wantErr: "scontrol: error: Invalid MinTmpDiskNode value: 4294967294\n", wantCode: 1},
		"temporary disk too short a tag": {args: []string{"MinT=5"},
			wantErr: "Update of this parameter is not supported: MinT=5\nRequest aborted\n", wantCode: 1},
		"a throttle that is no number is none": {args: []string{"ArrayTaskThrottle=abc"},
			want: &api.JobUpdate{ArrayMaxTasks: pint(0)}},
		"a negative throttle": {args: []string{"ArrayTaskThrottle=-1"},
			wantErr: "scontrol: error: Invalid ArrayTaskThrottle value\n", wantCode: 1},
		"an unreadable start time alone": {args: []string{"StartTime=garbage"},
			wantErr: "Invalid time specification (pos=0): garbage\nNo changes specified\n", wantCode: 1},
		"an unreadable start time among others": {args: []string{"StartTime=now+abc", "Comment=x"},
			want: &api.JobUpdate{Comment: pstr("x")}, wantErr: "Invalid time specification (pos=3): now+abc\n"},
		"a bad month": {args: []string{"StartTime=2026-13-01"},
			wantErr: "Invalid time specification (pos=5): 2026-13-01\nNo changes specified\n", wantCode: 1},
		"a start time already past is now": {args: []string{"StartTime=2020-01-01"},
			want: &api.JobUpdate{BeginTime: i64(now)}},
		"a priority that is no number": {args: []string{"Priority=abc"},
			wantErr: "scontrol: error: Invalid Priority value: abc\n", wantCode: 1},
		"requeue off":            {args: []string{"Requeue=0"}, want: &api.JobUpdate{Requeue: new(bool)}},
		"a reservation":          {args: []string{"ReservationName=s12h_a"}, want: &api.JobUpdate{Reservation: pstr("s12h_a")}},
		"out of its reservation": {args: []string{"reservationname="}, want: &api.JobUpdate{Reservation: pstr("")}},
		"Slurm's shortest form":  {args: []string{"res=s12h_a"}, want: &api.JobUpdate{Reservation: pstr("s12h_a")}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) { checkJobUpdate(t, tc.args, tc.want, tc.wantErr, tc.wantCode) })
	}
}

// jobUpdateNow is checkJobUpdate's clock.
const jobUpdateNow = 1795950000

// checkJobUpdate runs "scontrol update JobId=12 ARGS" against pending
// job 12 and checks standard error, the exit code and the update sent
// (want nil: nothing is sent).
func checkJobUpdate(t *testing.T, args []string, want *api.JobUpdate, wantErr string, wantCode int) {
	t.Helper()
	f := &fakeController{jobs: []api.Job{{JobID: 12, JobState: job.Pending}}}
	te := newTestEnv(f, jobUpdateNow)
	code := Scontrol(context.Background(), te.Env, append([]string{"update", "JobId=12"}, args...))
	if diff := cmp.Diff(wantErr, te.stderr.String()); diff != "" {
		t.Errorf("stderr (-want +got):\n%s", diff)
	}
	if code != wantCode {
		t.Errorf("exit = %d, want %d", code, wantCode)
	}
	var sent []api.UpdateRequest
	if want != nil {
		sent = []api.UpdateRequest{{JobIDs: []string{"12"}, Update: *want}}
	}
	if diff := cmp.Diff(sent, f.updates); diff != "" {
		t.Errorf("sent (-want +got):\n%s", diff)
	}
}

// TestScontrolHoldNoSuchName: hold or release of a name no job has says
// nothing and exits 0, as the peer.
func TestScontrolHoldNoSuchName(t *testing.T) {
	for _, op := range []string{"hold", "uhold", "release"} {
		f := &fakeController{jobs: []api.Job{{JobID: 12, Name: "x", JobState: job.Pending}}}
		te := newTestEnv(f, 1795950000)
		code := Scontrol(context.Background(), te.Env, []string{op, "Name=nosuch"})
		if code != 0 || te.stderr.Len() != 0 || len(f.holds)+len(f.releases) != 0 {
			t.Errorf("%s: exit %d, stderr %q, holds %v releases %v; want silence", op, code, te.stderr, f.holds, f.releases)
		}
	}
}
