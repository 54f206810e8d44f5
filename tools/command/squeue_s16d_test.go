package command

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// s16dSpecialExitJob is the peer's job 21708 after scontrol requeue
// State=SpecialExit: pending (held, JobHeldUser) with the special exit
// flag and its description.
func s16dSpecialExitJob() api.Job {
	return api.Job{JobID: 21708, Name: "s16dse", UserName: "root", Partition: "normal", BatchFlag: true,
		JobState: job.Pending, SpecialExit: true, StateReason: job.ReasonJobHeldUser, Hold: true,
		StateDescription: "job requeued in special exit state", NodeCount: 1, CPUs: 1, TimeLimit: 3600,
		SubmitTime: 1795990000, Restarts: 1}
}

// TestSqueueSpecialExitS16D: squeue shows a job in SPECIAL_EXIT as the
// peer did (ST=SE, STATE=SPECIAL_EXIT, squeue --json job_state), -t SE
// selects it and -t PD does not.
func TestSqueueSpecialExitS16D(t *testing.T) {
	cases := map[string]struct{ args, stdout string }{
		"default": {"-j 21708",
			"             JOBID PARTITION     NAME     USER ST       TIME  NODES NODELIST(REASON)\n" +
				"             21708    normal   s16dse     root SE       0:00      1 (job requeued in special exit state)\n"},
		"long": {"-h -l -j 21708",
			"             21708    normal   s16dse     root SPECIAL_       0:00   1:00:00      1 (job requeued in special exit state)\n"},
		"format letters": {"-h -j 21708 -o %t_%T_%r", "SE_SPECIAL_EXIT_job requeued in special exit state\n"},
		"long fields": {"-j 21708 -O jobid,state,statecompact,reason",
			"JOBID               STATE               ST                  REASON              \n" +
				"21708               SPECIAL_EXIT        SE                  job requeued in spec\n"},
		"-t SE":       {"-h -j 21708 -t SE -o %i_%t", "21708_SE\n"},
		"-t special":  {"-h -j 21708 -t special_exit -o %i_%t", "21708_SE\n"},
		"-t PD":       {"-h -j 21708 -t PD -o %i_%t", ""},
		"-t PD,SE":    {"-h -j 21708 -t PD,SE -o %i_%t", "21708_SE\n"},
		"no -t lists": {"-h -o %i_%t", "21708_SE\n"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			te := newTestEnv(&fakeController{now: 1795990100, jobs: []api.Job{s16dSpecialExitJob()}}, 1795990100)
			if code := Squeue(context.Background(), te.Env, strings.Fields(tc.args)); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.stdout, te.stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSqueueJSONSpecialExitS16D: squeue --json's job_state and
// state_reason for the job, as the peer printed them.
func TestSqueueJSONSpecialExitS16D(t *testing.T) {
	te := newTestEnv(&fakeController{now: 1795990100, jobs: []api.Job{s16dSpecialExitJob()}}, 1795990100)
	if code := Squeue(context.Background(), te.Env, []string{"--json"}); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	re := regexp.MustCompile(`"(job_state|state_reason)": "[^"]*"`)
	got := re.FindAllString(te.stdout.String(), -1)
	want := []string{`"job_state": "SPECIAL_EXIT"`, `"state_reason": "JobHeldUser"`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("squeue --json (-want +got):\n%s", diff)
	}
}

// TestSqueueJSONCPUsSetS16D: squeue --json lists JOB_CPUS_SET for -c only:
// the peer's -n2 --gpus-per-task=2 --cpus-per-gpu=3 job (CPUs/Task=6)
// had "flags": [], its -n2 -c5 job ["JOB_CPUS_SET"].
func TestSqueueJSONCPUsSetS16D(t *testing.T) {
	perGPU := api.Job{JobState: job.Pending, CPUsPerTask: 6, CPUsPerGPU: 3}
	perTask := api.Job{JobState: job.Pending, CPUsPerTask: 5}
	got := map[string][]string{
		"--gpus-per-task=2 --cpus-per-gpu=3": (&jobData{j: &perGPU}).flags(),
		"-c5":                                (&jobData{j: &perTask}).flags(),
	}
	want := map[string][]string{"--gpus-per-task=2 --cpus-per-gpu=3": nil, "-c5": {"JOB_CPUS_SET"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("flags (-want +got):\n%s", diff)
	}
}
