package jobopt

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// TestS16TasksPerGPUDerivesGPUs: the peer's srun -n4 --ntasks-per-gpu=2
// without a GPU option is given two GPUs (CUDA_VISIBLE_DEVICES 0 for tasks
// 0,1 and 1 for tasks 2,3). Inside an allocation the step asks for no
// count: it gets the job's GPUs and the controller raises its tasks to
// match (a job without GPUs refuses it, "Step requested GRES but job
// doesn't have GRES"). A GPU option given keeps its own count.
func TestS16TasksPerGPUDerivesGPUs(t *testing.T) {
	tests := map[string]struct {
		args []string
		env  []string
		want []resource.GRES
	}{
		"-n4, two per GPU":         {args: []string{"-n4", "--ntasks-per-gpu=2", "true"}, want: gpus(2)},
		"-n2, one per GPU":         {args: []string{"-n2", "--ntasks-per-gpu=1", "true"}, want: gpus(2)},
		"inside an allocation":     {args: []string{"-n2", "--ntasks-per-gpu=1", "true"}, env: []string{"SLURM_JOB_ID=7"}},
		"--gpus given":             {args: []string{"-n4", "--ntasks-per-gpu=2", "--gpus=1", "true"}, want: gpus(1)},
		"without --ntasks-per-gpu": {args: []string{"-n4", "true"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Prog: "srun", Cwd: "/work", Now: testNow, Env: tc.env}
			res, err := p.Srun(tc.args)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if diff := cmp.Diff(tc.want, res.Request.GPUs); diff != "" {
				t.Errorf("GPUs (-want +got):\n%s", diff)
			}
		})
	}
}

func gpus(n int64) []resource.GRES { return []resource.GRES{{Name: "gpu", Count: n}} }

// TestS16SbatchTasksPerGPU: the peer's sbatch -n4 --ntasks-per-gpu=2
// runs with two GPUs (CUDA_VISIBLE_DEVICES=0,1) and shows NtasksPerTRES=2
// without TresPerJob; with --gpus the count is the one given.
func TestS16SbatchTasksPerGPU(t *testing.T) {
	type got struct {
		GPUs      []resource.GRES
		PerGPU    int
		FromTasks bool
	}
	tests := map[string]struct {
		args []string
		want got
	}{
		"-n4, two per GPU":   {args: []string{"-n4", "--ntasks-per-gpu=2"}, want: got{gpus(2), 2, true}},
		"-N3, three per GPU": {args: []string{"-N3", "--ntasks-per-gpu=3"}, want: got{gpus(3), 3, true}},
		"--gpus given":       {args: []string{"-n4", "--ntasks-per-gpu=2", "--gpus=1"}, want: got{gpus(1), 2, false}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Cwd: "/work", Now: testNow}
			cl, err := p.CommandLine(append(tc.args, "--wrap=true"))
			if err != nil {
				t.Fatal(err)
			}
			res, err := p.Submission(cl, nil)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			r := res.Request
			if diff := cmp.Diff(tc.want, got{r.GPUs, r.NTasksPerGPU, r.GPUsFromTasks}); diff != "" {
				t.Errorf("request (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSbatchTasksPerGPURefusals: --ntasks-per-gpu without a GPU option
// needs tasks to count GPUs from, in multiples of it; the peer's sbatch
// and salloc print these lines and exit 1.
func TestSbatchTasksPerGPURefusals(t *testing.T) {
	noTasks := "gres_job_state_validate: --ntasks-per-tres needs either a GRES GPU specification or a node/ntask specification"
	notMultiple := "Failed to validate job spec, -n/--ntasks has to be a multiple of --ntasks-per-gpu."
	tests := map[string]struct {
		prog string
		args []string
		want []string // nil: accepted
	}{
		"alone":            {"sbatch", []string{"--ntasks-per-gpu=2"}, []string{noTasks, job.MsgInvalidGRES}},
		"-N range":         {"sbatch", []string{"-N2-3", "--ntasks-per-gpu=2"}, []string{noTasks, job.MsgInvalidGRES}},
		"-n3, two per GPU": {"sbatch", []string{"-n3", "--ntasks-per-gpu=2"}, []string{notMultiple, job.MsgInvalidGRES}},
		"salloc alone":     {"salloc", []string{"--ntasks-per-gpu=2"}, []string{noTasks, job.MsgInvalidGRES}},
		"-n3 with --gpus":  {"sbatch", []string{"-n3", "--gpus=2", "--ntasks-per-gpu=2"}, nil},
		"-N3, two per GPU": {"sbatch", []string{"-N3", "--ntasks-per-gpu=2"}, nil},
		"-n4, two per GPU": {"sbatch", []string{"-n4", "--ntasks-per-gpu=2"}, nil},
		// The task count is looked for before -c meets --cpus-per-gpu.
		"-c3 --cpus-per-gpu=2": {"sbatch", []string{"-c3", "--cpus-per-gpu=2", "--ntasks-per-gpu=2"}, []string{noTasks, job.MsgInvalidGRES}},
		// --gpus-per-task counts a task a node of a fixed -N only.
		"--gpus-per-task -N1-2": {"sbatch", []string{"-N1-2", "--gpus-per-task=1"},
			[]string{"Failed to validate job spec. --gpus-per-task used without either --gpus or -n/--ntasks is not allowed.", job.MsgInvalidGRES}},
		"--gpus-per-task -N2": {"sbatch", []string{"-N2", "--gpus-per-task=1"}, nil},
		"--gpus-per-task -N1 -c2": {"sbatch", []string{"-N1", "-c2", "--gpus-per-task=2"},
			[]string{"Failed to validate job spec. --gpus-per-task used without either --gpus or -n/--ntasks is not allowed.", job.MsgInvalidGRES}},
		"-G4 --gpus-per-task=1 -N2": {"sbatch", []string{"-G4", "--gpus-per-task=1", "-N2"},
			[]string{"Failed to validate job spec. Based on --gpus and --gpus-per-task number of requested tasks differ from -n/--ntasks.", job.MsgInvalidGRES}},
		"-G4 --gpus-per-task=2 -N2": {"sbatch", []string{"-G4", "--gpus-per-task=2", "-N2"}, nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Prog: tc.prog, Cwd: "/work", Now: testNow}
			var err error
			if tc.prog == "salloc" {
				_, err = p.Salloc(append(tc.args, "true"))
			} else {
				var cl *CommandLine
				if cl, err = p.CommandLine(append(tc.args, "--wrap=true")); err != nil {
					t.Fatal(err)
				}
				_, err = p.Submission(cl, nil)
			}
			var got []string
			if e, ok := err.(*Error); ok {
				if e.Code != ExitError {
					t.Errorf("exit status %d, want %d", e.Code, ExitError)
				}
				for _, l := range e.Lines {
					got = append(got, strings.TrimPrefix(l, tc.prog+": error: "))
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("refusal lines (-want +got):\n%s", diff)
			}
		})
	}
}
