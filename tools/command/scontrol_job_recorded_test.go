package command

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestShowJobRecordedOptions: the options Loam records without acting on
// them (--reboot, --delay-boot, --cluster-constraint, --network, --bb,
// --power, --gres-flags, --gpus-per-socket) where and as the peer's
// scontrol printed them for held `sbatch --hold OPTS --wrap=true` jobs:
// the Requeue= line, then everything from Features= to the end.
func TestShowJobRecordedOptions(t *testing.T) {
	base := api.Job{JobID: 7943, JobState: job.Pending, NodeCount: 1, CPUs: 1, Tasks: 1, CPUsPerTask: 1,
		Requeue: true, BatchFlag: true, WorkDir: "/tmp", StdIn: "/dev/null"}
	with := func(f func(j *api.Job)) api.Job { j := base; f(&j); return j }
	tail := func(lines ...string) []string {
		return append(lines, "Command=(null)", "WorkDir=/tmp", "StdErr=/tmp/slurm-7943.out", "StdIn=/dev/null",
			"StdOut=/tmp/slurm-7943.out")
	}
	features := "Features=(null) DelayBoot=00:00:00"
	share := "OverSubscribe=OK Contiguous=0 Licenses=(null) Network=(null)"
	requeue := "Requeue=1 Restarts=0 BatchFlag=1 Reboot=0 ExitCode=0:0"
	cases := map[string]struct {
		job     api.Job
		requeue string
		want    []string
	}{
		"none": {job: base, requeue: requeue, want: append(tail(features, share), "Power=")},
		"--reboot": {job: with(func(j *api.Job) { j.Reboot, j.Exclusive = true, "exclusive" }),
			requeue: "Requeue=1 Restarts=0 BatchFlag=1 Reboot=1 ExitCode=0:0",
			want:    append(tail(features, "OverSubscribe=NO Contiguous=0 Licenses=(null) Network=(null)"), "Power=")},
		"--delay-boot=5": {job: with(func(j *api.Job) { j.DelayBoot = 300 }), requeue: requeue,
			want: append(tail("Features=(null) DelayBoot=00:05:00", share), "Power=")},
		"--delay-boot=1-0": {job: with(func(j *api.Job) { j.DelayBoot = 86400 }), requeue: requeue,
			want: append(tail("Features=(null) DelayBoot=1-00:00:00", share), "Power=")},
		"--delay-boot=-1": {job: with(func(j *api.Job) { j.DelayBoot = api.UnlimitedSeconds }), requeue: requeue,
			want: append(tail("Features=(null) DelayBoot=UNLIMITED", share), "Power=")},
		"--delay-boot=-5": {job: with(func(j *api.Job) { j.DelayBoot = int64(uint32(1<<32 - 432000)) }), requeue: requeue,
			want: append(tail("Features=(null) DelayBoot=49705-06:28:16", share), "Power=")},
		"--cluster-constraint=x": {job: with(func(j *api.Job) { j.ClusterFeatures = "x" }), requeue: requeue,
			want: append(tail(features, "ClusterFeatures=x", share), "Power=")},
		"--cluster-constraint=x --reservation=vtest": {job: with(func(j *api.Job) { j.ClusterFeatures, j.Reservation = "x", "vtest" }),
			requeue: requeue, want: append(tail(features, "ClusterFeatures=x", "Reservation=vtest", share), "Power=")},
		"--network=foo": {job: with(func(j *api.Job) { j.Network = "foo" }), requeue: requeue,
			want: append(tail(features, "OverSubscribe=OK Contiguous=0 Licenses=(null) Network=foo"), "Power=")},
		"--bb=capacity=1G": {job: with(func(j *api.Job) { j.BurstBuffer = "capacity=1G" }), requeue: requeue,
			want: append(tail(features, share), "BurstBuffer=capacity=1G", "Power=")},
		"--power=level": {job: with(func(j *api.Job) { j.Power = "LEVEL" }), requeue: requeue,
			want: append(tail(features, share), "Power=LEVEL")},
		"--gres-flags=enforce-binding --gres=gpu:1": {job: with(func(j *api.Job) { j.GresFlags, j.TRESPerNode = "enforce-binding", "gres:gpu:1" }),
			requeue: requeue, want: append(tail(features, share), "Power=", "GresEnforceBind=Yes", "TresPerNode=gres:gpu:1")},
		"--gres-flags=disable-binding": {job: with(func(j *api.Job) { j.GresFlags = "disable-binding" }), requeue: requeue,
			want: append(tail(features, share), "Power=", "GresEnforceBind=No")},
		"--gres-flags=enforce-binding --kill-on-invalid-dep=no": {job: with(func(j *api.Job) { j.GresFlags, j.NoKillInvDep = "enforce-binding", true }),
			requeue: requeue, want: append(tail(features, share), "Power=", "GresEnforceBind=YesKillOInInvalidDependent=No")},
		"--gres-flags=enforce-binding --spread-job": {job: with(func(j *api.Job) { j.GresFlags, j.SpreadJob = "enforce-binding", true }),
			requeue: requeue, want: append(tail(features, share), "Power=", "GresEnforceBind=YesSpreadJob=Yes")},
		"--gpus-per-socket=2 --gpus-per-node=4 --sockets-per-node=2": {job: with(func(j *api.Job) {
			j.SocketsPerNode, j.TRESPerNode, j.TRESPerSocket = 2, "gres:gpu:4", "gres:gpu:2"
		}), requeue: requeue, want: append(tail(features, share), "Power=", "TresPerNode=gres:gpu:4", "TresPerSocket=gres:gpu:2")},
		// sbatch --hold --gres-flags=enforce-binding --kill-on-invalid-dep=yes --spread-job --bb=capacity=1G
		// --cpu-freq=high --network=foo --delay-boot=5 --power=level --cluster-constraint=x --gpus-per-socket=2
		// --sockets-per-node=2 --gpus-per-node=4 --gpus=8 --gpus-per-task=1 -n8 --cpus-per-gpu=1 --mem-per-gpu=1G
		// --gpu-bind=closest --reboot --switches=1 --wrap=true
		"all together": {job: with(func(j *api.Job) {
			j.Reboot, j.Exclusive, j.DelayBoot, j.ClusterFeatures, j.Network = true, "exclusive", 300, "x", "foo"
			j.RequiredSwitch, j.WaitForSwitch, j.BurstBuffer, j.CPUFreqMax, j.Power = 1, 300, "capacity=1G", job.CPUFreqHigh, "LEVEL"
			j.GresFlags, j.KillInvDep, j.SpreadJob, j.CPUsPerGPU, j.MemoryPerGPU, j.TRESBind = "enforce-binding", true, true, 1, 1024, "gpu:closest"
			j.TRESPerJob, j.TRESPerNode, j.TRESPerSocket, j.TRESPerTask = "gres:gpu:8", "gres:gpu:4", "gres:gpu:2", "gres:gpu:1"
		}), requeue: "Requeue=1 Restarts=0 BatchFlag=1 Reboot=1 ExitCode=0:0", want: append(tail("Features=(null) DelayBoot=00:05:00",
			"ClusterFeatures=x", "OverSubscribe=NO Contiguous=0 Licenses=(null) Network=foo"),
			"Switches=1@00:05:00", "BurstBuffer=capacity=1G", "CPU_max_freq=High ", "Power=LEVEL",
			"GresEnforceBind=YesKillOInInvalidDependent=YesSpreadJob=Yes", "CpusPerTres=gres:gpu:1", "MemPerTres=gres:gpu:1024",
			"TresBind=gpu:closest", "TresPerJob=gres:gpu:8", "TresPerNode=gres:gpu:4", "TresPerSocket=gres:gpu:2", "TresPerTask=gres:gpu:1")},
	}
	got, want := map[string][]string{}, map[string][]string{}
	for name, tc := range cases {
		lines := strings.Split(strings.TrimRight(string((&jobFormatter{}).appendJob(nil, &tc.job)), "\n "), "\n   ")
		var from int
		for i, l := range lines {
			if strings.HasPrefix(l, "Features=") {
				from = i
			}
		}
		got[name], want[name] = append([]string{lines[4]}, lines[from:]...), append([]string{tc.requeue}, tc.want...)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("scontrol show job (-want +got):\n%s", diff)
	}
}

// TestSqueueRecordedOptions: squeue -O's columns of the recorded options
// as the peer printed them for job 8003 (--bb=capacity=1G --network=foo
// --delay-boot=5 --cluster-constraint=x --gpus-per-socket=2
// --sockets-per-node=2 --reboot), 8004 (--delay-boot=-1) and 8005
// (none).
func TestSqueueRecordedOptions(t *testing.T) {
	pending := func(id uint32) api.Job {
		return api.Job{JobID: id, Name: "wrap", UserName: "root", Partition: "normal", BatchFlag: true,
			JobState: job.Pending, StateReason: job.ReasonJobHeldUser, Hold: true, NodeCount: 1, CPUs: 1,
			TimeLimit: 3600, SubmitTime: 1795990000}
	}
	all := pending(8003)
	all.BurstBuffer, all.ClusterFeatures, all.DelayBoot, all.Network = "capacity=1G", "x", 300, "foo"
	all.Reboot, all.Exclusive, all.SocketsPerNode, all.TRESPerSocket = true, "exclusive", 2, "gres:gpu:2"
	unlimited := pending(8004)
	unlimited.DelayBoot = api.UnlimitedSeconds
	jobs := []api.Job{pending(8005), unlimited, all}
	want := "JOBID               BURST_BUFFER        CLUSTER_FEATURES    DELAY_BOOT          NETWORK             REBOOT              TRES_PER_SOCKET     \n" +
		"8005                (null)              (null)              0:00                (null)              0                   N/A                 \n" +
		"8004                (null)              (null)              INVALID             (null)              0                   N/A                 \n" +
		"8003                capacity=1G         x                   5:00                foo                 1                   gres:gpu:2          \n"
	te := newTestEnv(&fakeController{now: 1795990100, jobs: jobs}, 1795990100)
	args := strings.Fields("-j 8003,8004,8005 -O jobid,burstbuffer,clusterfeature,delayboot,network,reboot,tres-per-socket")
	if code := Squeue(context.Background(), te.Env, args); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	if diff := cmp.Diff(want, te.stdout.String()); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
}
