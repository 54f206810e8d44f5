package command

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestSqueueSweepPeer replays the second recording of the peer's squeue
// (testdata/peer/capture-squeue-sweep.sh): field widths on NULL values and
// node lists, every -O name, sorting on several keys, state, partition,
// account and node filters, over running, held, throttled and dependent
// jobs and arrays.
func TestSqueueSweepPeer(t *testing.T) {
	jobs := peerJobs(t, "testdata/peer/squeue-sweep/jobs.txt")
	nodes := peerNodes(t, "testdata/peer/nodes.txt")
	parts := peerPartitions(t)
	replaySqueue(t, "testdata/peer/squeue-sweep/cases", func(now int64) *fakeController {
		return &fakeController{now: now, jobs: jobs, partitions: parts, nodes: nodes, config: api.ConfigResponse{ClusterName: "peer"}}
	})
}

// TestSqueueArgErrors: command lines the peer refuses, or takes, with
// the peer's messages and exit codes (copied from its output).
func TestSqueueArgErrors(t *testing.T) {
	cases := map[string]struct {
		args   []string
		stdout string
		stderr string
		exit   int
	}{
		"job id past INT_MAX is negative": {args: []string{"-j", "2147483648"},
			stderr: "squeue: error: Invalid job id: 2147483648\n", exit: 1},
		"job id near UINT32_MAX is negative": {args: []string{"-j", "4294967294"},
			stderr: "squeue: error: Invalid job id: 4294967294\n", exit: 1},
		"job id of eleven digits": {args: []string{"-j", "12345678901"},
			stderr: "squeue: error: Invalid job id: 12345678901\n", exit: 1},
		"largest job id is asked for": {args: []string{"-j", "2147483647"},
			stderr: "slurm_load_jobs error: Invalid job id specified\n", exit: 1},
		"step without a dot": {args: []string{"-s", "12"},
			stderr: "squeue: error: Invalid job_step id: 12.??\n", exit: 1},
		"step with an empty step part": {args: []string{"-s", "12."},
			stderr: "squeue: error: Invalid job_step id: 12.??\n", exit: 1},
		"step with an empty job part": {args: []string{"-s", ".1"},
			stderr: "squeue: error: Invalid job_step id: 1.??\n", exit: 1},
		"step of job zero": {args: []string{"-s", "0.1"},
			stderr: "squeue: error: Invalid job_step id: 0.1\n", exit: 1},
		"negative step": {args: []string{"-s", "12.-1"},
			stderr: "squeue: error: Invalid job_step id: 12.-1\n", exit: 1},
		"array task without a step": {args: []string{"-s", "12_3"},
			stderr: "squeue: error: Invalid job_step id: 12_3.??\n", exit: 1},
		"second entry bad": {args: []string{"-s", "12.0,x"},
			stderr: "squeue: error: Invalid job_step id: x.??\n", exit: 1},
		"job id overflowing in a step": {args: []string{"-s", "2147483648.1"},
			stderr: "squeue: error: Invalid job_step id: 2147483648.1\n", exit: 1},
		"step name that is not a number": {args: []string{"-s", "12.x", "-h", "-o", "%i"}},
		"step id overflowing to zero":    {args: []string{"-s", "12.4294967296", "-h", "-o", "%i"}},
		"percent at the end": {args: []string{"-o", "%i %."},
			stdout: "JOBID %.\n", stderr: "squeue: error: Invalid job format specification: \n"},
		"percent before percent": {args: []string{"-o", "%.%i|%5%j"},
			stdout: "%.JOBID|%5NAME\n",
			stderr: "squeue: error: Invalid job format specification: \n" +
				"squeue: error: Invalid job format specification: \n"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{now: 1795950000}
			te := newTestEnv(f, 1795950000)
			code := Squeue(context.Background(), te.Env, tc.args)
			if diff := cmp.Diff(tc.stdout, te.stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.stderr, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			if code != tc.exit {
				t.Errorf("exit = %d, want %d", code, tc.exit)
			}
		})
	}
}

// TestSqueueStepsPeer lists the steps of a peer job (an srun step on two
// nodes and the batch step) as the peer printed them: step -O names,
// NULL strings in narrow fields, and -s lists read with strtol, where
// "J.batch" and "J.x" name step 0.
func TestSqueueStepsPeer(t *testing.T) {
	start := time.Date(2026, 11, 29, 18, 35, 6, 0, time.UTC).Unix()
	base := api.Step{JobID: 13047, UserName: "root", State: job.Running, Partition: "normal", StartTime: start}
	srun, batch := base, base
	srun.StepID, srun.Name, srun.Nodes, srun.NodeCount, srun.Tasks, srun.CPUs = "0", "stepa", "cpu[001-002]", 2, 2, 2
	batch.StepID, batch.Name, batch.Nodes, batch.NodeCount, batch.Tasks = "batch", "batch", "cpu001", 1, 1
	gpu := base
	gpu.JobID, gpu.StepID, gpu.Name, gpu.Nodes, gpu.NodeCount, gpu.Tasks, gpu.CPUs = 13048, "0", "sleep", "gpu001", 1, 2, 4
	gpu.TRESPerStep, gpu.TRESPerNode, gpu.TRESPerTask = "cpu:4", "gres:gpu:1", "cpu:2"
	cases := map[string]struct {
		args []string
		now  int64
		want string
	}{
		"step -O names and widths": {args: []string{"-s", "-j", "13047", "-O",
			"stepid:14,arrayjobid:.13,arraytaskid:14,jobid:7,cpufreq:24,numtasksX:6,tres-per-step:14,network:4"},
			now: 1795977393,
			want: "STEPID         ARRAY_JOB_IDARRAY_TASK_ID JOB_ID CPU_FREQ                TASKS TRES_PER_STEP NETW\n" +
				"13047.0                   0N/A           13047  Unknown-Unknown:Unknown 2     (null)            \n" +
				"13047.batch               0N/A           13047  0-0:0                   1     (null)            \n"},
		"batch in a list is step 0": {args: []string{"-s", "13047.batch,13047.0", "-o", "%i|%5j|%.3N|%M"},
			now: 1795977395, want: "STEPID|NAME |NODELIST|TIME\n13047.0|stepa|cpu[001-002]|1:29\n"},
		"step name read as 0": {args: []string{"-s", "13047.x", "-h"}, now: 1795977393,
			want: "        13047.0    stepa    normal     root      1:27 cpu[001-002]\n"},
		"node filter on the step's nodes": {args: []string{"-s", "-j", "13047", "-o", "%i %U", "-w", "cpu002"},
			now: 1795977395, want: "STEPID UID\n13047.0 0\n"},
		"partition filter": {args: []string{"-s", "-j", "13047", "-o", "%i", "-p", "batch"},
			now: 1795977395, want: "STEPID\n"},
		// The peer's srun -n2 -c2 --gres=gpu:1 step in a --gres=gpu:8 job.
		"the step's TRES per step, node and task": {args: []string{"-s", "-j", "13048", "-h", "-O",
			"stepid:9,tres-per-step:7,tres-per-node:11,tres-per-job:7,gres:11,tres-per-task:6"},
			now: 1795977393, want: "13048.0  cpu:4  gres:gpu:1 cpu:4  gres:gpu:1 cpu:2 \n"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeStepLister{fakeController: &fakeController{now: tc.now,
				nodes: peerNodes(t, "testdata/peer/nodes.txt")}, steps: []api.Step{srun, batch, gpu}}
			te := newTestEnv(f.fakeController, tc.now)
			te.Dial = func(context.Context) (Controller, error) { return f, nil }
			if code := Squeue(context.Background(), te.Env, tc.args); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.want, te.stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
		})
	}
}
