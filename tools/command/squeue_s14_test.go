package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// s14Jobs are jobs as the peer's were submitted with sbatch --wrap: no
// -o (the controller's default name), an array task, and one with -o.
func s14Jobs() []api.Job {
	task := 0
	base := api.Job{UserID: 0, UserName: "root", Partition: "normal", BatchFlag: true, WorkDir: "/tmp/s14b",
		JobState: job.Pending, StateReason: job.ReasonJobHeldUser, NodeCount: 1, CPUs: 1, TimeLimit: 3600,
		SubmitTime: 1795990000}
	held, task0, named := base, base, base
	held.JobID, held.Name, held.Account, held.StdOut = 20388, "heldjob", "research", "/tmp/s14b/slurm-%j.out"
	held.MemoryPerNode = 2048 // --mem=2G
	task0.JobID, task0.ArrayJobID, task0.ArrayTaskID = 20395, 20390, &task
	task0.Name, task0.StdOut = "arr", "/tmp/s14b/slurm-%A_%a.out"
	held.StdOutDefault, task0.StdOutDefault = true, true // the controller's name: no -o
	named.JobID, named.Name, named.StdOut, named.StdErr = 20400, "named", "/tmp/s14b/out-%j.txt", "/tmp/s14b/err-%j.txt"
	return []api.Job{held, task0, named}
}

// TestSqueueS14Peer: squeue cases the peer answered this way.
func TestSqueueS14Peer(t *testing.T) {
	cases := map[string]struct {
		args   []string
		stdout string
		stderr string
		exit   int
	}{
		// Slurm keeps no path for a job submitted without -o and squeue
		// prints its own default with the job's id; a given -o prints
		// as given.
		"default output names": {args: []string{"-h", "-j", "20388,20395,20400", "-S", "i",
			"-O", "jobid:12,stderr:30,stdout:30"},
			stdout: "20388       /tmp/s14b/slurm-20388.out     /tmp/s14b/slurm-20388.out     \n" +
				"20395       /tmp/s14b/slurm-20395.out     /tmp/s14b/slurm-20395.out     \n" +
				"20400       /tmp/s14b/err-%j.txt          /tmp/s14b/out-%j.txt          \n"},
		// --noconvert prints memory in MB.
		"memory converted": {args: []string{"-h", "-j", "20388", "-o", "%m"}, stdout: "2G\n"},
		"memory not converted": {args: []string{"-h", "-j", "20388", "--noconvert", "-o", "%m|%.8m"},
			stdout: "2048M|   2048M\n"},
		"memory not converted, long format": {args: []string{"-j", "20388", "--noconvert", "-O", "minmemory:8"},
			stdout: "MIN_MEMO\n2048M   \n"},
		// squeue compares names, accounts and QOS without case.
		"name in capitals": {args: []string{"-h", "-n", "HELDJOB", "-o", "%i %j"}, stdout: "20388 heldjob\n"},
		"account in capitals": {args: []string{"-h", "-A", "RESEARCH,x", "-o", "%i %a"},
			stdout: "20388 research\n"},
		"a cluster is refused": {args: []string{"-M", "peer"}, exit: 1,
			stderr: "squeue: error: Problem talking to database\n" +
				"squeue: error: 'peer' can't be reached now, or it is an invalid entry for --cluster.  " +
				"Use 'sacctmgr list clusters' to see available clusters.\n"},
		"every cluster is refused": {args: []string{"--clusters=ALL", "-h"}, exit: 1,
			stderr: "squeue: error: Problem talking to database\n" +
				"squeue: error: No clusters can be reached now. Contact your admin to resolve the problem.\n"},
		// -i reads its number with C's atoi: "1x" is 1, so the next
		// option's error is the one printed.
		"iterate with a trailing letter": {args: []string{"-i", "1x", "-t", "drain"}, exit: 1,
			stderr: "squeue: error: Invalid job state specified: drain\n" +
				"squeue: error: Valid job states include: PENDING,RUNNING,SUSPENDED,COMPLETED,CANCELLED,FAILED," +
				"TIMEOUT,NODE_FAIL,PREEMPTED,BOOT_FAIL,DEADLINE,OUT_OF_MEMORY,COMPLETING,CONFIGURING,RESIZING," +
				"RESV_DEL_HOLD,REQUEUED,REQUEUE_FED,REQUEUE_HOLD,REVOKED,SIGNALING,SPECIAL_EXIT,STAGE_OUT,STOPPED\n\n"},
		"an earlier bad option wins": {args: []string{"-t", "bogus", "-M", "x"}, exit: 1,
			stderr: "squeue: error: Invalid job state specified: bogus\n" +
				"squeue: error: Valid job states include: PENDING,RUNNING,SUSPENDED,COMPLETED,CANCELLED,FAILED," +
				"TIMEOUT,NODE_FAIL,PREEMPTED,BOOT_FAIL,DEADLINE,OUT_OF_MEMORY,COMPLETING,CONFIGURING,RESIZING," +
				"RESV_DEL_HOLD,REQUEUED,REQUEUE_FED,REQUEUE_HOLD,REVOKED,SIGNALING,SPECIAL_EXIT,STAGE_OUT,STOPPED\n\n"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			te := newTestEnv(&fakeController{now: 1795990100, jobs: s14Jobs()}, 1795990100)
			code := Squeue(context.Background(), te.Env, tc.args)
			if diff := cmp.Diff(tc.stdout, te.stdout.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.stderr, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			if code != tc.exit {
				t.Errorf("exit %d, want %d", code, tc.exit)
			}
		})
	}
}

// TestSqueueS14ClustersEnv: SLURM_CLUSTERS is refused before the options
// are read, naming the variable, as the peer does.
func TestSqueueS14ClustersEnv(t *testing.T) {
	te := newTestEnv(&fakeController{now: 1795990100, jobs: s14Jobs()}, 1795990100)
	te.Environ = append(te.Environ, "SLURM_CLUSTERS=peer")
	code := Squeue(context.Background(), te.Env, []string{"--bogus"})
	want := "squeue: error: Problem talking to database\n" +
		"squeue: error: 'peer' can't be reached now, or it is an invalid entry for SLURM_CLUSTERS.  " +
		"Use 'sacctmgr list clusters' to see available clusters.\n"
	if diff := cmp.Diff(want, te.stderr.String()); diff != "" || code != 1 {
		t.Errorf("exit %d; stderr (-want +got):\n%s", code, diff)
	}
}
