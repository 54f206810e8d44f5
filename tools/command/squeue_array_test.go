package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// squeueArrayJobs: array 100 (--array=0-9%3), then plain job 101, then
// tasks 0-2 split off as jobs 102-104, all started in the same second,
// the rest of the array pending (the peer's jobs 17324-17330, renumbered).
func squeueArrayJobs() []api.Job {
	const start = 1795950000
	task := func(id uint32, t int) api.Job {
		return api.Job{JobID: id, ArrayJobID: 100, ArrayTaskID: intp(t), ArrayMaxTasks: 3, Name: "wrap",
			UserName: "root", Partition: "normal", JobState: job.Running, StartTime: start,
			NodeCount: 1, Nodes: "cpu001", Priority: 12}
	}
	return []api.Job{
		{JobID: 100, ArrayJobID: 100, ArrayTaskString: "3-9", ArrayMaxTasks: 3, ArrayTaskCount: 7, Name: "wrap",
			UserName: "root", Partition: "normal", JobState: job.Pending, StateReason: "JobArrayTaskLimit",
			NodeCount: 1, Priority: 12},
		task(102, 0), task(103, 1), task(104, 2),
		{JobID: 101, Name: "wrap", UserName: "root", Partition: "normal", JobState: job.Running,
			StartTime: start, NodeCount: 1, Nodes: "cpu001", Priority: 12},
	}
}

// TestSqueueArraySingleIDOrder checks the order of an array's tasks that
// started in the same second: with one id, Slurm's squeue lists them from
// the one-job answer (newest split first); with more ids, from the
// controller's list (oldest split first). Expected texts are the peer's.
func TestSqueueArraySingleIDOrder(t *testing.T) {
	cases := map[string]struct {
		args []string
		want string
	}{
		"one array id lists the newest split task first": {
			args: []string{"-j", "100", "-o", "%i %T"},
			want: "JOBID STATE\n100_[3-9%3] PENDING\n100_2 RUNNING\n100_1 RUNNING\n100_0 RUNNING\n",
		},
		"one array id with -r": {
			args: []string{"-j", "100", "-r", "-t", "R", "-o", "%i %A"},
			want: "JOBID JOBID\n100_2 104\n100_1 103\n100_0 102\n",
		},
		"two ids keep the controller's list order": {
			args: []string{"-j", "100,101", "-t", "R", "-o", "%i"},
			want: "JOBID\n100_0\n101\n100_1\n100_2\n",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			te := newTestEnv(&fakeController{now: 1795950030, jobs: squeueArrayJobs()}, 1795950030)
			if code := Squeue(context.Background(), te.Env, tc.args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.want, te.stdout.String()); diff != "" {
				t.Errorf("squeue %q (-want +got):\n%s", tc.args, diff)
			}
		})
	}
}
