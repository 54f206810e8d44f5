package command

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// allocatingFake answers slurm_allocation_lookup's question with al.
type allocatingFake struct {
	*fakeController
	al *api.Allocation
}

func (f allocatingFake) WaitAllocation(context.Context, *api.AllocationWaitRequest) (*api.Allocation, error) {
	return f.al, nil
}

// TestScontrolResizeFiles: NumNodes= inside a job's environment writes
// Slurm's two resize scripts (for the variables the environment has) and
// prints how to use them; several jobs at once are refused without a
// word (exit 1); outside a job nothing is written.
func TestScontrolResizeFiles(t *testing.T) {
	jobs := []api.Job{{JobID: 12, JobState: job.Running, NodeCount: 2}, {JobID: 13, JobState: job.Running}}
	al := &api.Allocation{JobID: 12, Ready: true, NodeList: "gpu03",
		Nodes: []api.NodeAllocation{{Node: "gpu03", CPUs: 4}}}
	run := func(environ []string, args ...string) (int, string, string, string) {
		f := &fakeController{jobs: jobs}
		te := newTestEnv(f, 1795950000)
		te.Cwd = t.TempDir()
		te.Environ = append(te.Environ, environ...)
		te.Dial = func(context.Context) (Controller, error) { return allocatingFake{f, al}, nil }
		code := Scontrol(context.Background(), te.Env, args)
		return code, te.stdout.String(), te.stderr.String(), te.Cwd
	}
	inJob := []string{"SLURM_JOBID=12", "SLURM_JOB_NODELIST=gpu[03,07]", "SLURM_NNODES=2", "SLURM_JOB_NUM_NODES=2",
		"SLURM_JOB_CPUS_PER_NODE=4(x2)", "SLURM_TASKS_PER_NODE=1(x2)"}
	code, out, errOut, dir := run(inJob, "update", "jobid=12", "NumNodes=1")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	wantOut := "To reset Slurm environment variables, execute\n" +
		"  For bash or sh shells:  . ./slurm_job_12_resize.sh\n" +
		"  For csh shells:         source ./slurm_job_12_resize.csh\n"
	if diff := cmp.Diff(wantOut, out); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
	sh, err := os.ReadFile(filepath.Join(dir, "slurm_job_12_resize.sh"))
	if err != nil {
		t.Fatal(err)
	}
	wantSh := "export SLURM_JOB_NODELIST=\"gpu03\"\nexport SLURM_NNODES=1\nexport SLURM_JOB_NUM_NODES=1\n" +
		"export SLURM_JOB_CPUS_PER_NODE=\"4\"\nunset SLURM_NPROCS\nunset SLURM_NTASKS\nunset SLURM_TASKS_PER_NODE\n"
	if diff := cmp.Diff(wantSh, string(sh)); diff != "" {
		t.Errorf("resize.sh (-want +got):\n%s", diff)
	}
	csh, err := os.ReadFile(filepath.Join(dir, "slurm_job_12_resize.csh"))
	if err != nil || string(csh[:35]) != "setenv SLURM_JOB_NODELIST \"gpu03\"\ns" {
		t.Errorf("resize.csh: %q, %v", csh, err)
	}

	if code, out, errOut, _ := run(inJob, "update", "jobid=12,13", "NumNodes=1"); code != 1 || out+errOut != "" {
		t.Errorf("two jobs: exit %d, output %q; want 1 and nothing", code, out+errOut)
	}
	code, out, _, dir = run(nil, "update", "jobid=12", "NumNodes=1")
	if entries, _ := os.ReadDir(dir); code != 0 || out != "" || len(entries) != 0 {
		t.Errorf("outside a job: exit %d, stdout %q, %d files", code, out, len(entries))
	}
}
