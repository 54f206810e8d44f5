package command

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmdata"
)

// TestShowJobLayoutLines: scontrol show job prints the CPU layout and
// binding options as the peer printed them for held
// `sbatch --hold OPTS --wrap=true` jobs (the running ones alike).
func TestShowJobLayoutLines(t *testing.T) {
	base := api.Job{JobState: job.Pending, NodeCount: 1, CPUs: 1, Tasks: 1, CPUsPerTask: 1}
	with := func(f func(j *api.Job)) api.Job { j := base; f(&j); return j }
	cases := map[string]struct {
		job  api.Job
		want []string // the NumNodes= line and the Socks/Node= line
	}{
		"defaults": {job: base, want: []string{
			"NumNodes=1 NumCPUs=1 NumTasks=1 CPUs/Task=1 ReqB:S:C:T=0:0:*:*",
			"Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*"}},
		"--hint=nomultithread": {job: with(func(j *api.Job) { j.ThreadsPerCore = 1 }), want: []string{
			"NumNodes=1 NumCPUs=1 NumTasks=1 CPUs/Task=1 ReqB:S:C:T=0:0:*:1",
			"Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*"}},
		"--hint=multithread": {job: with(func(j *api.Job) { j.NTasksPerCore = job.NTasksPerCoreAny }), want: []string{
			"NumNodes=1 NumCPUs=1 NumTasks=1 CPUs/Task=1 ReqB:S:C:T=0:0:*:*",
			"Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*"}},
		"--cores-per-socket=4": {job: with(func(j *api.Job) { j.CoresPerSocket = 4 }), want: []string{
			"NumNodes=1 NumCPUs=1 NumTasks=1 CPUs/Task=1 ReqB:S:C:T=0:0:4:*",
			"Socks/Node=* NtasksPerN:B:S:C=0:0:*:* CoreSpec=*"}},
		"-B 2:4:1": {job: with(func(j *api.Job) {
			j.CPUs, j.Tasks, j.SocketsPerNode, j.CoresPerSocket, j.ThreadsPerCore = 8, 8, 2, 4, 1
		}), want: []string{
			"NumNodes=1 NumCPUs=8 NumTasks=8 CPUs/Task=1 ReqB:S:C:T=0:0:4:1",
			"Socks/Node=2 NtasksPerN:B:S:C=0:0:*:* CoreSpec=*"}},
		"--ntasks-per-core=1 --ntasks-per-socket=2": {job: with(func(j *api.Job) { j.NTasksPerCore, j.NTasksPerSocket = 1, 2 }), want: []string{
			"NumNodes=1 NumCPUs=1 NumTasks=1 CPUs/Task=1 ReqB:S:C:T=0:0:*:*",
			"Socks/Node=* NtasksPerN:B:S:C=0:0:2:1 CoreSpec=*"}},
	}
	got, want := map[string][]string{}, map[string][]string{}
	for name, tc := range cases {
		lines := strings.Split(string((&jobFormatter{}).shapeLines(nil, &tc.job, "\n")), "\n")
		got[name], want[name] = []string{lines[0], lines[2]}, tc.want
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scontrol show job (-want +got):\n%s", diff)
	}
}

// TestShowJobBindingLines: --cpu-freq's line before Power= (with the
// blank Slurm leaves after a maximum) and --gpu-bind's TresBind after it.
func TestShowJobBindingLines(t *testing.T) {
	cases := map[string]struct {
		job  api.Job
		want string
	}{
		"--cpu-freq=high": {job: api.Job{CPUFreqMax: job.CPUFreqHigh},
			want: "\nCPU_max_freq=High \nPower="},
		"--cpu-freq=1000-2000:performance": {job: api.Job{CPUFreqMin: 1000, CPUFreqMax: 2000, CPUFreqGov: job.CPUFreqPerformance},
			want: "\nCPU_min_freq=1000 CPU_max_freq=2000 Governor=Performance\nPower="},
		"--cpu-freq=low-highm1": {job: api.Job{CPUFreqMin: job.CPUFreqLow, CPUFreqMax: job.CPUFreqHighM1},
			want: "\nCPU_min_freq=Low CPU_max_freq=Highm1 \nPower="},
		"--cpu-freq=performance": {job: api.Job{CPUFreqGov: job.CPUFreqPerformance},
			want: "\nGovernor=Performance\nPower="},
		"--cpu-freq=2000000": {job: api.Job{CPUFreqMax: 2000000},
			want: "\nCPU_max_freq=2000000 \nPower="},
		"--gpu-bind=closest --cpu-freq=high": {job: api.Job{TRESBind: "gpu:closest", CPUFreqMax: job.CPUFreqHigh},
			want: "\nCPU_max_freq=High \nPower=\nTresBind=gpu:closest"},
		"--gpu-bind=map_gpu:0,1": {job: api.Job{TRESBind: "gpu:map_gpu:0,1"},
			want: "\nPower=\nTresBind=gpu:map_gpu:0,1"},
	}
	got, want := map[string]string{}, map[string]string{}
	for name, tc := range cases {
		out := string((&jobFormatter{}).fileLines(nil, &tc.job, "\n"))
		got[name], want[name] = out[strings.Index(out, "WorkDir=")+len("WorkDir="):], tc.want
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scontrol show job (-want +got):\n%s", diff)
	}
}

// layoutJobs are the peer's held jobs of testdata/peer/squeue_layout*.txt:
// sbatch --hold OPTS --wrap=true for OPTS --hint=nomultithread,
// --hint=compute_bound, --hint=multithread, --threads-per-core=2,
// --sockets-per-node=2, --cores-per-socket=4, -B 2:4:1, -B 2,
// --ntasks-per-core=1, --ntasks-per-socket=2, --gpu-bind=closest.
func layoutJobs() []api.Job {
	set := []func(j *api.Job){
		func(j *api.Job) { j.ThreadsPerCore = 1 },
		func(j *api.Job) { j.ThreadsPerCore = 1 },
		func(j *api.Job) { j.NTasksPerCore = job.NTasksPerCoreAny },
		func(j *api.Job) { j.ThreadsPerCore = 2 },
		func(j *api.Job) { j.SocketsPerNode = 2 },
		func(j *api.Job) { j.CoresPerSocket = 4 },
		func(j *api.Job) { j.SocketsPerNode, j.CoresPerSocket, j.ThreadsPerCore = 2, 4, 1 },
		func(j *api.Job) { j.SocketsPerNode = 2 },
		func(j *api.Job) { j.NTasksPerCore = 1 },
		func(j *api.Job) { j.NTasksPerSocket = 2 },
		func(j *api.Job) { j.TRESBind = "gpu:closest" },
	}
	var out []api.Job
	for i, f := range set {
		j := api.Job{JobID: uint32([]int{2718, 2719, 2720, 2723, 2724, 2725, 2726, 2727, 2728, 2729, 2730}[i]),
			UserName: "root", Partition: "normal", BatchFlag: true, JobState: job.Pending,
			StateReason: job.ReasonJobHeldUser, NodeCount: 1, CPUs: 1, Tasks: 1, Name: "wrap"}
		f(&j)
		out = append(out, j)
	}
	return out
}

// TestSqueueLayoutFields: squeue's layout columns print the options as
// the peer's squeue did for the same jobs.
func TestSqueueLayoutFields(t *testing.T) {
	for file, args := range map[string][]string{
		"squeue_layout.txt":         {"-S", "i", "-O", "jobid,sockets,cores,threads,sct,ntpercore,ntpersocket,tres-bind"},
		"squeue_layout_letters.txt": {"-S", "i", "-o", "%i %H %I %J %z"},
	} {
		t.Run(file, func(t *testing.T) {
			want, err := os.ReadFile("testdata/peer/" + file)
			if err != nil {
				t.Fatal(err)
			}
			te := newTestEnv(&fakeController{now: 1796008400, jobs: layoutJobs()}, 1796008400)
			code := Squeue(context.Background(), te.Env, args)
			if diff := cmp.Diff(string(want), te.stdout.String()); diff != "" || code != 0 {
				t.Errorf("exit %d, stderr %q; stdout (-want +got):\n%s", code, te.stderr, diff)
			}
		})
	}
}

// TestSqueueJSONLayout: squeue --json's layout and frequency members as
// the peer printed them, Slurm 22.05's cpu_frequency_minumum spelling
// and cpus_per_task (null without a minimum frequency) included.
func TestSqueueJSONLayout(t *testing.T) {
	cases := map[string]struct {
		job  api.Job
		want map[string]string
	}{
		"-B 2:4:1": {job: api.Job{SocketsPerNode: 2, CoresPerSocket: 4, ThreadsPerCore: 1},
			want: map[string]string{"sockets_per_node": "2", "cores_per_socket": "4", "threads_per_core": "1", "tasks_per_core": "null"}},
		"--hint=multithread": {job: api.Job{NTasksPerCore: job.NTasksPerCoreAny},
			want: map[string]string{"tasks_per_core": "null", "threads_per_core": "null"}},
		"--ntasks-per-core=1 --ntasks-per-socket=2 --gpu-bind=closest": {
			job:  api.Job{NTasksPerCore: 1, NTasksPerSocket: 2, TRESBind: "gpu:closest"},
			want: map[string]string{"tasks_per_core": "1", "tasks_per_socket": "2", "tres_bind": `"gpu:closest"`}},
		"--cpu-freq=high": {job: api.Job{CPUsPerTask: 1, CPUFreqMax: job.CPUFreqHigh},
			want: map[string]string{"cpus_per_task": "null", "cpu_frequency_minimum": "null", "cpu_frequency_maximum": "2147483651",
				"cpu_frequency_governor": "null"}},
		"--cpu-freq=1000-2000:performance": {job: api.Job{CPUsPerTask: 1, CPUFreqMin: 1000, CPUFreqMax: 2000, CPUFreqGov: job.CPUFreqPerformance},
			want: map[string]string{"cpus_per_task": "1", "cpu_frequency_minumum": "1000", "cpu_frequency_maximum": "2000",
				"cpu_frequency_governor": "2181038080"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			j := tc.job
			j.JobState = job.Pending
			rec := (&jobData{j: &j, jobDataSource: &jobDataSource{}}).record()
			for k, want := range tc.want {
				v, ok := rec.Get(k)
				if !ok {
					t.Errorf("%s: missing", k)
					continue
				}
				if got := string(slurmdata.JSON(v)); got != want {
					t.Errorf("%s = %s, want %s", k, got, want)
				}
			}
		})
	}
}
