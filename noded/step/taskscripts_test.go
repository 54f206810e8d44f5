package step

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

func scriptFile(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "script.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// setConfScripts gives the fixture's job slurm.conf's TaskProlog and
// TaskEpilog, as the node daemon writes them into launch.json.
func setConfScripts(t *testing.T, stepDir, prolog, epilog string) {
	t.Helper()
	path := filepath.Join(filepath.Dir(stepDir), spool.LaunchFile)
	var l spool.Launch
	if err := spool.ReadJSON(path, &l); err != nil {
		t.Fatal(err)
	}
	l.TaskProlog, l.TaskEpilog = prolog, epilog
	if err := spool.WriteJSON(path, l); err != nil {
		t.Fatal(err)
	}
}

// TestStepTaskScripts: as on the peer, slurm.conf's TaskProlog runs
// before srun's --task-prolog (which sees its exports), both print to
// the task's output; a failing --task-prolog ends the task with its
// status and slurmstepd's line ("--task-prolog failed status=7"); the
// epilogs run after each task, --task-epilog first.
func TestStepTaskScripts(t *testing.T) {
	iso := isolator(t)
	marks := filepath.Join(t.TempDir(), "marks")
	confProlog := scriptFile(t, "echo 'export A=1'; echo 'print conf'\n")
	confEpilog := scriptFile(t, `echo "conf $SLURM_SCRIPT_CONTEXT $SLURM_PROCID B=${B-unset}" >> `+marks+"\n")
	tests := map[string]struct {
		step      api.StepCreateRequest
		want      stepOutcome
		wantMarks string
	}{
		"both prologs and epilogs in order": {
			step: api.StepCreateRequest{Argv: []string{"sh", "-c", "echo A=$A B=$B"},
				TaskProlog: scriptFile(t, `echo "export B=$A-2"; echo 'print user'`+"\n"),
				TaskEpilog: scriptFile(t, `echo "user $SLURM_SCRIPT_CONTEXT $SLURM_PROCID" >> `+marks+"\n")},
			want: stepOutcome{Hello: true, Done: true, Stdout: map[uint32]string{0: "conf\nuser\nA=1 B=1-2\n"},
				Stderr: map[uint32]string{}, Exits: map[int]job.ExitCode{0: {}}},
			wantMarks: "user epilog_task 0\nconf epilog_task 0 B=unset\n",
		},
		"a failing --task-prolog ends the task with its status": {
			step: api.StepCreateRequest{Argv: []string{"sh", "-c", "echo ran"},
				TaskProlog: scriptFile(t, "echo 'print user prolog'; echo 'export U=1'; exit 7\n")},
			want: stepOutcome{Hello: true, Done: true, Stdout: map[uint32]string{0: "conf\nuser prolog\n"},
				Stderr: map[uint32]string{0: "slurmstepd-n1: error: --task-prolog failed status=7\n"},
				Exits:  map[int]job.ExitCode{0: {Status: 7}}},
			wantMarks: "conf epilog_task 0 B=unset\n",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_ = os.Remove(marks)
			srun := newFakeSrun(t)
			go srun.serve()
			tc.step.StdIn = "none"
			dir := stepFixture(t, srun, &tc.step, []int{0})
			setConfScripts(t, dir, confProlog, confEpilog)
			done := runFixture(t, iso, dir)
			got := srun.collect(nil)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("what srun heard (-want +got):\n%s", diff)
			}
			if code := <-done; code != 0 {
				t.Errorf("step process exit status %d", code)
			}
			data, _ := os.ReadFile(marks)
			if diff := cmp.Diff(tc.wantMarks, string(data)); diff != "" {
				t.Errorf("epilogs (-want +got):\n%s", diff)
			}
		})
	}
}
