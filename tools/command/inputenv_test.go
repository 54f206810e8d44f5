package command

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// peerTaskList is the task list of the peer's job 17395, submitted with
// -a 1,3,7,12,15,22,30,41,43,47,55,60,71,72,80,91,93,99,101,115,122,130.
const peerTaskList = "1,3,7,12,15,22,30,41,43,47,55,60,71-72,80,91,93,99,101,115,122,130"

// TestBitstrLen checks squeue -o '%i|%K' and scontrol show job's
// ArrayTaskId under each SLURM_BITSTR_LEN against the peer's output.
func TestBitstrLen(t *testing.T) {
	cut64 := "1,3,7,12,15,22,30,41,43,47,55,60,71-72,80,91,93,99,101,115,1..."
	cases := map[string]struct {
		env      []string
		throttle int
		squeue   string
		scontrol string
	}{
		"unset: 64 bytes, ids cut to 31": {squeue: "17395_[1,3,7,12,15,22,30,41,43,|" + cut64,
			scontrol: cut64},
		"unset with a throttle": {throttle: 2, squeue: "17395_[1,3,7,12,15,22,30,41,43,|" + cut64 + "%2",
			scontrol: cut64 + "%2"},
		"empty: the whole list": {env: []string{"SLURM_BITSTR_LEN="},
			squeue: "17395_[" + peerTaskList + "]|" + peerTaskList, scontrol: peerTaskList},
		"zero: the whole list": {env: []string{"SLURM_BITSTR_LEN=0"},
			squeue: "17395_[" + peerTaskList + "]|" + peerTaskList, scontrol: peerTaskList},
		"text: the whole list": {env: []string{"SLURM_BITSTR_LEN=abc"},
			squeue: "17395_[" + peerTaskList + "]|" + peerTaskList, scontrol: peerTaskList},
		"negative: 64 bytes, ids whole": {env: []string{"SLURM_BITSTR_LEN=-1"},
			squeue: "17395_[" + cut64 + "]|" + cut64, scontrol: cut64},
		"ten": {env: []string{"SLURM_BITSTR_LEN=10"}, squeue: "17395_[1,3,7,...]|1,3,7,...", scontrol: "1,3,7,..."},
		"ten with a throttle": {env: []string{"SLURM_BITSTR_LEN=10"}, throttle: 2,
			squeue: "17395_[1,3,7,...%2]|1,3,7,...%2", scontrol: "1,3,7,...%2"},
		"68 cuts": {env: []string{"SLURM_BITSTR_LEN=68"},
			squeue:   "17395_[1,3,7,12,15,22,30,41,43,47,55,60,71-72,80,91,93,99,101,115,122,1...]|1,3,7,12,15,22,30,41,43,47,55,60,71-72,80,91,93,99,101,115,122,1...",
			scontrol: "1,3,7,12,15,22,30,41,43,47,55,60,71-72,80,91,93,99,101,115,122,1..."},
		"69 fits":  {env: []string{"SLURM_BITSTR_LEN=69"}, squeue: "17395_[" + peerTaskList + "]|" + peerTaskList, scontrol: peerTaskList},
		"one":      {env: []string{"SLURM_BITSTR_LEN=1"}, squeue: "17395_[]|", scontrol: ""},
		"three":    {env: []string{"SLURM_BITSTR_LEN=3"}, squeue: "17395_[..]|..", scontrol: ".."},
		"five":     {env: []string{"SLURM_BITSTR_LEN=5"}, squeue: "17395_[1...]|1...", scontrol: "1..."},
		"six":      {env: []string{"SLURM_BITSTR_LEN=6"}, squeue: "17395_[1,...]|1,...", scontrol: "1,..."},
		"big fits": {env: []string{"SLURM_BITSTR_LEN=200"}, squeue: "17395_[" + peerTaskList + "]|" + peerTaskList, scontrol: peerTaskList},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{now: peerTimeNow, jobs: []api.Job{{JobID: 17395, ArrayJobID: 17395,
				ArrayTaskString: peerTaskList, ArrayMaxTasks: tc.throttle, Name: "s13barr", UserName: "root",
				Partition: "normal", JobState: job.Pending, NodeCount: 1, SubmitTime: peerTimeNow}}}
			te := newTestEnv(f, peerTimeNow)
			te.Environ = append(te.Environ, tc.env...)
			if code := Squeue(context.Background(), te.Env, []string{"-h", "-j", "17395", "-o", "%i|%K"}); code != 0 {
				t.Fatalf("squeue exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.squeue+"\n", te.stdout.String()); diff != "" {
				t.Errorf("squeue (-want +got):\n%s", diff)
			}
			te.stdout.Reset()
			if code := Scontrol(context.Background(), te.Env, []string{"-o", "show", "job", "17395"}); code != 0 {
				t.Fatalf("scontrol exit %d: %s", code, te.stderr)
			}
			want := "JobId=17395 ArrayJobId=17395 ArrayTaskId=" + tc.scontrol + " "
			if got := te.stdout.String(); len(got) < len(want) || got[:len(want)] != want {
				t.Errorf("scontrol show job starts %q, want %q", got, want)
			}
		})
	}
}

// TestSbatchExitErrorVariable checks SLURM_EXIT_ERROR against the peer's
// sbatch: the status of a failed submission and of a missing script, 1
// for --test-only, atoi's reading of the value, and the error for a value
// that reads as 0 (then the status stays 1), printed even on success.
func TestSbatchExitErrorVariable(t *testing.T) {
	partErr := "sbatch: error: Batch job submission failed: Invalid partition name specified\n"
	zero := "sbatch: error: SLURM_EXIT_ERROR has zero value\n"
	cases := map[string]struct {
		value  string
		args   []string
		reject bool
		stderr string
		exit   int
	}{
		"a rejected job":       {value: "7", args: []string{"-p", "nosuch", "--wrap", "true"}, reject: true, stderr: partErr, exit: 7},
		"a missing script":     {value: "7", args: []string{"nosuchfile.sh"}, stderr: "sbatch: error: Unable to open file nosuchfile.sh\n", exit: 7},
		"--test-only stays 1":  {value: "7", args: []string{"--test-only", "-p", "nosuch", "--wrap", "true"}, reject: true, stderr: "allocation failure: Invalid partition name specified\n", exit: 1},
		"atoi reads a prefix":  {value: " 5x", args: []string{"-p", "nosuch", "--wrap", "true"}, reject: true, stderr: partErr, exit: 5},
		"negative wraps":       {value: "-1", args: []string{"-p", "nosuch", "--wrap", "true"}, reject: true, stderr: partErr, exit: 255},
		"the low 8 bits":       {value: "300", args: []string{"-p", "nosuch", "--wrap", "true"}, reject: true, stderr: partErr, exit: 44},
		"zero is refused":      {value: "0", args: []string{"-p", "nosuch", "--wrap", "true"}, reject: true, stderr: zero + partErr, exit: 1},
		"text reads as zero":   {value: "abc", args: []string{"-p", "nosuch", "--wrap", "true"}, reject: true, stderr: zero + partErr, exit: 1},
		"zero said on success": {value: "0", args: []string{"--hold", "--wrap", "true"}, stderr: zero, exit: 0},
		"option errors are 255": {value: "7", args: []string{"--time=garbage", "--wrap", "true"},
			stderr: "sbatch: error: Invalid --time specification\n", exit: 255},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{now: peerTimeNow}
			if tc.reject {
				f.err = api.NewError(api.CodeInvalidPartitionName)
			}
			te := newTestEnv(f, peerTimeNow)
			te.Environ = append(te.Environ, "SLURM_EXIT_ERROR="+tc.value)
			code := Sbatch(context.Background(), te.Env, tc.args)
			if diff := cmp.Diff(tc.stderr, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			if code != tc.exit {
				t.Errorf("exit %d, want %d", code, tc.exit)
			}
		})
	}
}

// TestStepExitVariablesZero checks that salloc and srun say, first, that
// SLURM_EXIT_ERROR and SLURM_EXIT_IMMEDIATE read as 0, as the peer's did.
func TestStepExitVariablesZero(t *testing.T) {
	for prog, run := range map[string]func(context.Context, *Env, []string) int{"salloc": Salloc, "srun": Srun} {
		t.Run(prog, func(t *testing.T) {
			te := newTestEnv(&fakeController{now: peerTimeNow}, peerTimeNow)
			te.Environ = append(te.Environ, "SLURM_EXIT_ERROR=0", "SLURM_EXIT_IMMEDIATE=abc")
			code := run(context.Background(), te.Env, []string{"--bogus"})
			want := prog + ": error: SLURM_EXIT_ERROR has zero value\n" + prog + ": error: SLURM_EXIT_IMMEDIATE has zero value\n" +
				prog + ": unrecognized option '--bogus'\nTry \"" + prog + " --help\" for more information\n"
			if diff := cmp.Diff(want, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			if code != 255 {
				t.Errorf("exit %d, want 255", code)
			}
		})
	}
}
