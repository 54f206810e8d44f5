package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// seffStep is a step whose tasks used cpuUsec and peaked at rssKB each
// (the first task; the others used nothing and peaked lower).
func seffStep(id string, tasks int, cpuUsec, rssKB int64) api.AcctStep {
	u := &api.StepUsage{Nodes: []api.NodeUsage{{Node: "cpu01", Tasks: []api.TaskUsage{{UserUsec: cpuUsec, MaxRSS: rssKB * 1024}}}}}
	for k := 1; k < tasks; k++ {
		u.Nodes[0].Tasks = append(u.Nodes[0].Tasks, api.TaskUsage{Task: k, MaxRSS: 1024})
	}
	return api.AcctStep{StepID: id, Tasks: tasks, Usage: u}
}

// seffJob is a finished single-CPU job of root with 1G per CPU (the
// peer's DefMemPerCPU), which each case changes.
func seffJob(id uint32, f func(j *api.AcctJob)) api.AcctJob {
	j := api.AcctJob{JobID: id, UserName: "root", State: job.Completed, StartTime: 1795946400, EndTime: 1795946401,
		NodeCount: 1, CPUs: 1, AllocTRES: "billing=1,cpu=1,mem=1G,node=1", MemPerCPU: 1024}
	f(&j)
	return j
}

// TestSeffReport: seff's text for each kind of job, the expected text
// as Slurm 22.05's seff printed it for the same job on a cluster with
// accounting (job ids and figures as there).
func TestSeffReport(t *testing.T) {
	cases := map[string]struct {
		job  api.AcctJob
		want string
	}{
		"one task: no estimate, no per-core part": {
			job: seffJob(26, func(j *api.AcctJob) {
				j.Elapsed, j.MemPerCPU, j.MemPerNode = 66, 0, 1024
				j.Steps = []api.AcctStep{seffStep("batch", 1, 13351000, 318460)}
			}),
			want: "Job ID: 26\nCluster: acct\nUser/Group: root/root\nState: COMPLETED (exit code 0)\nCores: 1\n" +
				"CPU Utilized: 00:00:13\nCPU Efficiency: 19.70% of 00:01:06 core-walltime\nJob Wall-clock time: 00:01:06\n" +
				"Memory Utilized: 311.00 MB\nMemory Efficiency: 30.37% of 1.00 GB\n",
		},
		"steps: CPU summed with the microseconds rounded once, the batch step peaked highest": {
			job: seffJob(27, func(j *api.AcctJob) {
				j.Elapsed, j.CPUs, j.AllocTRES, j.MemPerCPU, j.MemPerNode = 70, 3, "billing=3,cpu=3,mem=2G,node=1", 0, 2048
				j.Steps = []api.AcctStep{seffStep("batch", 1, 27000, 21780), seffStep("0", 2, 14660000, 3156), seffStep("1", 1, 349000, 4748)}
			}),
			want: "Job ID: 27\nCluster: acct\nUser/Group: root/root\nState: COMPLETED (exit code 0)\nNodes: 1\nCores per node: 3\n" +
				"CPU Utilized: 00:00:15\nCPU Efficiency: 7.14% of 00:03:30 core-walltime\nJob Wall-clock time: 00:01:10\n" +
				"Memory Utilized: 21.27 MB\nMemory Efficiency: 1.04% of 2.00 GB\n",
		},
		"two nodes with --mem: the peak times the tasks, per node": {
			job: seffJob(58, func(j *api.AcctJob) {
				j.Elapsed, j.CPUs, j.NodeCount, j.AllocTRES, j.MemPerCPU, j.MemPerNode = 40, 2, 2, "billing=2,cpu=2,mem=2G,node=2", 0, 1024
				j.Steps = []api.AcctStep{seffStep("batch", 1, 12000, 10560), seffStep("0", 2, 191000, 23012)}
			}),
			want: "Job ID: 58\nCluster: acct\nUser/Group: root/root\nState: COMPLETED (exit code 0)\nNodes: 2\nCores per node: 1\n" +
				"CPU Utilized: 00:00:00\nCPU Efficiency: 0.00% of 00:01:20 core-walltime\nJob Wall-clock time: 00:00:40\n" +
				"Memory Utilized: 44.95 MB (estimated maximum)\nMemory Efficiency: 2.19% of 2.00 GB (1.00 GB/node)\n",
		},
		"--mem-per-cpu: per core": {
			job: seffJob(57, func(j *api.AcctJob) {
				j.Elapsed, j.CPUs, j.AllocTRES, j.MemPerCPU = 40, 2, "billing=2,cpu=2,mem=1000M,node=1", 500
				j.Steps = []api.AcctStep{seffStep("batch", 1, 11000, 10948), seffStep("0", 2, 273000, 32696)}
			}),
			want: "Job ID: 57\nCluster: acct\nUser/Group: root/root\nState: COMPLETED (exit code 0)\nNodes: 1\nCores per node: 2\n" +
				"CPU Utilized: 00:00:00\nCPU Efficiency: 0.00% of 00:01:20 core-walltime\nJob Wall-clock time: 00:00:40\n" +
				"Memory Utilized: 63.86 MB (estimated maximum)\nMemory Efficiency: 6.39% of 1000.00 MB (500.00 MB/core)\n",
		},
		"pending: no efficiency, one core": {
			job: seffJob(54, func(j *api.AcctJob) {
				j.State, j.StartTime, j.EndTime, j.AllocTRES = job.Pending, 0, 0, ""
			}),
			want: "Job ID: 54\nCluster: acct\nUser/Group: root/root\nState: PENDING\nCores: 1\n" +
				"Efficiency not available for jobs in the PENDING state.\n",
		},
		"running: no exit code, the warning": {
			job: seffJob(55, func(j *api.AcctJob) {
				j.State, j.EndTime, j.Elapsed = job.Running, 0, 83
				j.Steps = []api.AcctStep{{StepID: "batch", Tasks: 1}}
			}),
			want: "Job ID: 55\nCluster: acct\nUser/Group: root/root\nState: RUNNING\nCores: 1\n" +
				"CPU Utilized: 00:00:00\nCPU Efficiency: 0.00% of 00:01:23 core-walltime\nJob Wall-clock time: 00:01:23\n" +
				"Memory Utilized: 0.00 MB (estimated maximum)\nMemory Efficiency: 0.00% of 1.00 GB (1.00 GB/core)\n" +
				"WARNING: Efficiency statistics may be misleading for RUNNING jobs.\n",
		},
		"failed: the exit status": {
			job: seffJob(56, func(j *api.AcctJob) {
				j.State, j.ExitCode, j.EndTime = job.Failed, job.ExitCode{Status: 3}, j.StartTime
			}),
			want: "Job ID: 56\nCluster: acct\nUser/Group: root/root\nState: FAILED (exit code 3)\nCores: 1\n" +
				"CPU Utilized: 00:00:00\nCPU Efficiency: 0.00% of 00:00:00 core-walltime\nJob Wall-clock time: 00:00:00\n" +
				"Memory Utilized: 0.00 MB (estimated maximum)\nMemory Efficiency: 0.00% of 1.00 GB (1.00 GB/core)\n",
		},
		"array task: its own id, then the array's": {
			job: seffJob(25, func(j *api.AcctJob) {
				j.ArrayJobID, j.ArrayTaskID, j.State, j.Elapsed = 23, new(1), job.Cancelled, 4
			}),
			want: "Job ID: 25\nArray Job ID: 23_1\nCluster: acct\nUser/Group: root/root\nState: CANCELLED (exit code 0)\nCores: 1\n" +
				"CPU Utilized: 00:00:00\nCPU Efficiency: 0.00% of 00:00:04 core-walltime\nJob Wall-clock time: 00:00:04\n" +
				"Memory Utilized: 0.00 MB (estimated maximum)\nMemory Efficiency: 0.00% of 1.00 GB (1.00 GB/core)\n",
		},
		"cancelled before it started: one core, nothing used": {
			job: seffJob(21, func(j *api.AcctJob) {
				j.State, j.StartTime, j.EndTime, j.AllocTRES, j.CPUs = job.Cancelled, 0, 0, "", 1
			}),
			want: "Job ID: 21\nCluster: acct\nUser/Group: root/root\nState: CANCELLED (exit code 0)\nCores: 1\n" +
				"CPU Utilized: 00:00:00\nCPU Efficiency: 0.00% of 00:00:00 core-walltime\nJob Wall-clock time: 00:00:00\n" +
				"Memory Utilized: 0.00 MB (estimated maximum)\nMemory Efficiency: 0.00% of 1.00 GB (1.00 GB/core)\n",
		},
		"GPU job: Slurm's lines, then Loam's GPU count": {
			job: seffJob(15, func(j *api.AcctJob) {
				j.CPUs, j.NodeCount, j.GPUs, j.AllocTRES = 2, 2, 2, "billing=2,cpu=2,gres/gpu=2,mem=2G,node=2"
			}),
			want: "Job ID: 15\nCluster: acct\nUser/Group: root/root\nState: COMPLETED (exit code 0)\nNodes: 2\nCores per node: 1\n" +
				"CPU Utilized: 00:00:00\nCPU Efficiency: 0.00% of 00:00:00 core-walltime\nJob Wall-clock time: 00:00:00\n" +
				"Memory Utilized: 0.00 MB (estimated maximum)\nMemory Efficiency: 0.00% of 2.00 GB (1.00 GB/core)\nGPUs: 2\n",
		},
		// Not on the peer (its DefMemPerCPU gives every job memory): the
		// source's forms with a request of 0.
		"no memory request": {
			job: seffJob(30, func(j *api.AcctJob) {
				j.MemPerCPU, j.AllocTRES, j.Elapsed = 0, "billing=1,cpu=1,node=1", 10
				j.Steps = []api.AcctStep{seffStep("batch", 1, 5000000, 2048)}
			}),
			want: "Job ID: 30\nCluster: acct\nUser/Group: root/root\nState: COMPLETED (exit code 0)\nCores: 1\n" +
				"CPU Utilized: 00:00:05\nCPU Efficiency: 50.00% of 00:00:10 core-walltime\nJob Wall-clock time: 00:00:10\n" +
				"Memory Utilized: 2.00 MB\nMemory Efficiency: 0.00% of 0.00 MB\n",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{acct: []api.AcctJob{tc.job}, config: api.ConfigResponse{ClusterName: "acct"}}
			te := newTestEnv(f, 1795950000)
			if code := Seff(context.Background(), te.Env, []string{u32(tc.job.JobID)}); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.want, te.stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSeffErrors: the command line and lookup failures, with Slurm's
// seff's text and exit status.
func TestSeffErrors(t *testing.T) {
	usage := seffUsage
	meta := seffJob(23, func(j *api.AcctJob) { j.ArrayJobID, j.ArrayTaskString, j.State = 23, "2-5", job.Cancelled })
	cases := map[string]struct {
		args         []string
		acct         []api.AcctJob
		code         int
		stdout, errs string
	}{
		"no job":                 {code: 1, stdout: usage},
		"two jobs":               {args: []string{"1", "2"}, code: 1, stdout: usage},
		"-h":                     {args: []string{"-h", "1"}, code: 1, stdout: usage},
		"-v before all":          {args: []string{"-hv"}, code: 1, stdout: "seff Version 2.1\n"},
		"an unknown job":         {args: []string{"99999"}, code: 2, errs: "Job not found.\n"},
		"not a job id":           {args: []string{"abc"}, code: 1, errs: "seff: fatal: Bad job/step specified: abc\n"},
		"an array's unsplit row": {args: []string{"23"}, acct: []api.AcctJob{meta}, code: 3, errs: "Badly formatted array jobid 23 with task_id = -2\n"},
		"an unknown option is skipped": {args: []string{"-x", "54"}, acct: []api.AcctJob{seffJob(54, func(j *api.AcctJob) { j.State, j.AllocTRES = job.Pending, "" })},
			errs: "Unknown option: x\n", stdout: "Job ID: 54\nCluster: acct\nUser/Group: root/root\nState: PENDING\nCores: 1\n" +
				"Efficiency not available for jobs in the PENDING state.\n"},
		"options stop at the job": {args: []string{"1", "-d"}, code: 1, stdout: usage},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{acct: tc.acct, config: api.ConfigResponse{ClusterName: "acct"}}
			te := newTestEnv(f, 1795950000)
			code := Seff(context.Background(), te.Env, tc.args)
			got := struct {
				Code         int
				Stdout, Errs string
			}{code, te.stdout.String(), te.stderr.String()}
			want := struct {
				Code         int
				Stdout, Errs string
			}{tc.code, tc.stdout, tc.errs}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestSeffDebug: -d's raw line before the report, as seff prints it.
func TestSeffDebug(t *testing.T) {
	j := seffJob(26, func(j *api.AcctJob) {
		j.Elapsed, j.MemPerCPU, j.MemPerNode = 66, 0, 1024
		j.Steps = []api.AcctStep{seffStep("batch", 1, 13351000, 318460)}
	})
	te := newTestEnv(&fakeController{acct: []api.AcctJob{j}, config: api.ConfigResponse{ClusterName: "acct"}}, 1795950000)
	if code := Seff(context.Background(), te.Env, []string{"-d", "26"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	want := "Slurm data: JobID ArrayJobID User Group State Clustername Ncpus Nnodes Ntasks Reqmem PerNode Cput Walltime Mem ExitStatus\n" +
		"Slurm data: 26  root root COMPLETED acct 1 1 1 1048576 1 13 66 318460 0\n\n"
	if got := te.stdout.String(); len(got) < len(want) || got[:len(want)] != want {
		t.Errorf("stdout starts\n%q\nwant\n%q", got, want)
	}
}

// TestSeffUnits: seff's sizes (kilobytes in, the largest unit of at
// least one out, two decimals), percentages and times.
func TestSeffUnits(t *testing.T) {
	sizes := map[string]struct {
		kb   float64
		want string
	}{
		"nothing is megabytes":      {0, "0.00 MB"},
		"under a kilobyte":          {0.5, "0.50 KB"},
		"kilobytes":                 {512, "512.00 KB"},
		"just under a megabyte":     {1023, "1023.00 KB"},
		"a MaxRSS of 318460K":       {318460, "311.00 MB"},
		"1000M stays megabytes":     {1024000, "1000.00 MB"},
		"a gigabyte":                {1 << 20, "1.00 GB"},
		"4 GB":                      {4 << 20, "4.00 GB"},
		"terabytes round at two":    {1.5 * (1 << 30), "1.50 TB"},
		"355.47 GB from the manual": {372736000, "355.47 GB"},
	}
	for name, tc := range sizes {
		if got := seffKB(tc.kb); got != tc.want {
			t.Errorf("%s: seffKB(%v) = %q, want %q", name, tc.kb, got, tc.want)
		}
	}
	times := map[string]struct {
		secs int64
		want string
	}{
		"zero":            {0, "00:00:00"},
		"a day less one":  {86399, "23:59:59"},
		"a day":           {86400, "1-00:00:00"},
		"days over nine":  {32*86400 + 8*3600 + 47*60 + 36, "32-08:47:36"},
		"minutes, padded": {16 * 60, "00:16:00"},
	}
	for name, tc := range times {
		if got := seffTime(tc.secs); got != tc.want {
			t.Errorf("%s: seffTime(%d) = %q, want %q", name, tc.secs, got, tc.want)
		}
	}
	pcts := map[string]struct {
		used, of float64
		want     string
	}{
		"of nothing":        {5, 0, "0.00%"},
		"five of eight":     {600, 960, "62.50%"},
		"rounded to two":    {21780, 2 << 20, "1.04%"},
		"over a hundred":    {3, 2, "150.00%"},
		"a thousandth":      {1, 100000, "0.00%"},
		"thirty of a GB":    {0.3 * (4 << 20), 4 << 20, "30.00%"},
		"the peer's 19.70%": {13, 66, "19.70%"},
	}
	for name, tc := range pcts {
		if got := seffPercent(tc.used, tc.of); got != tc.want {
			t.Errorf("%s: seffPercent(%v, %v) = %q, want %q", name, tc.used, tc.of, got, tc.want)
		}
	}
}
