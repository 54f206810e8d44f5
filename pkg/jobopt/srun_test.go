package jobopt

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// insideJob is the environment of a batch script of "sbatch -N2
// --ntasks-per-node=2 envjob.sh" on the peer, as far as srun reads it.
var insideJob = []string{"SLURM_JOB_ID=12", "SLURM_JOBID=12", "SLURM_NNODES=2", "SLURM_JOB_NUM_NODES=2",
	"SLURM_NTASKS=4", "SLURM_NPROCS=4", "SLURM_NTASKS_PER_NODE=2", "SLURM_JOB_NAME=envjob.sh", "PATH=/usr/bin:/bin"}

// stepShape is what a test compares of a parsed srun command line.
type stepShape struct {
	JobID         uint32
	Nodes         int
	Tasks         int
	TasksPerNode  int
	CPUsPerTask   int
	Name          string
	Command       []string
	Label         bool
	KillOnBadExit *int
	CPUBind       string
	Exact         bool
	Input, Output string
	Warnings      []string
}

func shapeOf(r *StepResult) stepShape {
	return stepShape{JobID: r.Step.JobID, Nodes: r.Request.MinNodes, Tasks: r.Request.NTasks,
		TasksPerNode: r.Request.NTasksPerNode, CPUsPerTask: r.Request.CPUsPerTask, Name: r.Request.Name,
		Command: r.Step.Command, Label: r.Step.Label, KillOnBadExit: r.Step.KillOnBadExit,
		CPUBind: r.Step.CPUBind, Exact: r.Step.Exact, Input: r.Step.Input, Output: r.Step.Output, Warnings: r.Warnings}
}

// TestSrunParse checks srun's option handling against what the peer's
// srun printed for the same command lines inside that job (the warnings
// are its exact lines) and outside any job.
func TestSrunParse(t *testing.T) {
	one := 1
	tests := map[string]struct {
		env  []string
		args []string
		want stepShape
	}{
		"inside a job: the job's shape, the command's name": {env: insideJob, args: []string{"hostname"},
			want: stepShape{JobID: 12, Nodes: 2, Tasks: 4, TasksPerNode: 2, Name: "hostname", Command: []string{"hostname"}}},
		"-n1 shrinks the nodes": {env: insideJob, args: []string{"-n1", "true"},
			want: stepShape{JobID: 12, Nodes: 1, Tasks: 1, Name: "true", Command: []string{"true"},
				Warnings: []string{"srun: Warning: can't run 1 processes on 2 nodes, setting nnodes to 1"}}},
		"-N2 -n3 ignores the job's tasks per node": {env: insideJob, args: []string{"-N2", "-n3", "-l", "true"},
			want: stepShape{JobID: 12, Nodes: 2, Tasks: 3, Name: "true", Command: []string{"true"}, Label: true,
				Warnings: []string{"srun: Warning: can't honor --ntasks-per-node set to 2 which doesn't match the requested tasks 3 with the number of requested nodes 2. Ignoring --ntasks-per-node."}}},
		// The batch step of --gpus=16 --ntasks-per-node=8 on two nodes:
		// the peer's srun drops the 8 a node without a word.
		"-n8 on two nodes at 8 a node: dropped silently": {env: []string{"SLURM_JOB_ID=12", "SLURM_JOBID=12", "SLURM_NNODES=2",
			"SLURM_JOB_NUM_NODES=2", "SLURM_NTASKS=8", "SLURM_NPROCS=8", "SLURM_NTASKS_PER_NODE=8", "PATH=/usr/bin:/bin"}, args: []string{"true"},
			want: stepShape{JobID: 12, Nodes: 2, Tasks: 8, Name: "true", Command: []string{"true"}}},
		// The peer, in a -N4 --ntasks-per-node=1 job: srun -n2 only
		// says it runs on 2 nodes (1 a node matches them); in a -N4
		// --ntasks-per-node=2 one, -n3 says that first, then that 2 a
		// node does not match 3 tasks on 3 nodes.
		"-n2 on four nodes at 1 a node": {env: fourNodeJob("1", "4"), args: []string{"-n2", "true"},
			want: stepShape{JobID: 12, Nodes: 2, Tasks: 2, TasksPerNode: 1, Name: "true", Command: []string{"true"},
				Warnings: []string{"srun: Warning: can't run 2 processes on 4 nodes, setting nnodes to 2"}}},
		"-n3 on four nodes at 2 a node": {env: fourNodeJob("2", "8"), args: []string{"-n3", "true"},
			want: stepShape{JobID: 12, Nodes: 3, Tasks: 3, Name: "true", Command: []string{"true"},
				Warnings: []string{"srun: Warning: can't run 3 processes on 4 nodes, setting nnodes to 3",
					"srun: Warning: can't honor --ntasks-per-node set to 2 which doesn't match the requested tasks 3 with the number of requested nodes 3. Ignoring --ntasks-per-node."}}},
		"-N1 keeps the job's task count": {env: insideJob, args: []string{"-N1", "true"},
			want: stepShape{JobID: 12, Nodes: 1, Tasks: 4, Name: "true", Command: []string{"true"},
				Warnings: []string{"srun: Warning: can't honor --ntasks-per-node set to 2 which doesn't match the requested tasks 4 with the number of requested nodes 1. Ignoring --ntasks-per-node."}}},
		"-J names the step; options after the command are its own": {env: insideJob, args: []string{"-J", "train", "-K", "--cpu-bind=cores", "python", "-u", "x.py"},
			want: stepShape{JobID: 12, Nodes: 2, Tasks: 4, TasksPerNode: 2, Name: "train", Command: []string{"python", "-u", "x.py"},
				KillOnBadExit: &one, CPUBind: "cores"}},
		"outside a job: SLURM_JOB_NAME names it, -o and -i kept": {env: []string{"SLURM_JOB_NAME=nm"}, args: []string{"-N8", "-n64", "-o", "out-%t", "-i", "0", "true"},
			want: stepShape{Nodes: 8, Tasks: 64, Name: "nm", Command: []string{"true"}, Output: "out-%t", Input: "0"}},
		"sbatch -m plane=2 passes its plane on": {env: append([]string{"SLURM_DISTRIBUTION=plane", "SLURM_DIST_PLANESIZE=2"}, insideJob...), args: []string{"true"},
			want: stepShape{JobID: 12, Nodes: 2, Tasks: 4, TasksPerNode: 2, Name: "true", Command: []string{"true"}}},
		"--exact is kept for the step": {env: insideJob, args: []string{"-n2", "--exact", "true"},
			want: stepShape{JobID: 12, Nodes: 2, Tasks: 2, Name: "true", Command: []string{"true"}, Exact: true}},
		"--jobid attaches to a job": {args: []string{"--jobid=7", "-c2", "true"},
			want: stepShape{JobID: 7, CPUsPerTask: 2, Name: "true", Command: []string{"true"}}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Env: tc.env, Cwd: "/work"}
			got, err := p.Srun(tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, shapeOf(got)); diff != "" {
				t.Errorf("parsed (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSrunErrors checks the peer's messages and exit statuses for bad
// command lines.
func TestSrunErrors(t *testing.T) {
	tests := map[string]struct {
		args      []string
		wantCode  int
		wantLines []string
	}{
		"no command":     {args: nil, wantCode: 1, wantLines: []string{"srun: fatal: No command given to execute."}},
		"unknown option": {args: []string{"--foo", "true"}, wantCode: 255, wantLines: []string{"srun: unrecognized option '--foo'", `Try "srun --help" for more information`}},
		"bad --cpu-bind": {args: []string{"--cpu-bind=bogus", "true"}, wantCode: 1, wantLines: []string{`srun: error: unrecognized --cpu-bind argument "bogus"`, "srun: fatal: Failed to parse --cpu-bind= values."}},
		"bad --gpu-bind": {args: []string{"--gpu-bind=bogus", "true"}, wantCode: 255, wantLines: []string{"srun: error: Invalid --gpu-bind argument: gpu:bogus"}},
		"bad -n":         {args: []string{"-n", "abc", "true"}, wantCode: 1, wantLines: []string{`srun: error: Invalid numeric value "abc" for --ntasks.`}},
		"bad -W":         {args: []string{"-W", "1x", "true"}, wantCode: 1, wantLines: []string{`srun: error: Invalid numeric value "1x" for --wait.`}},
		"negative -W":    {args: []string{"--wait=-1", "true"}, wantCode: 1, wantLines: []string{`srun: error: Invalid numeric value "-1" for --wait.`}},
		"bad -K":         {args: []string{"--kill-on-bad-exit=1x", "true"}, wantCode: 1, wantLines: []string{`srun: error: Invalid numeric value "1x" for --kill-on-bad-exit.`}},
		"negative -K":    {args: []string{"--kill-on-bad-exit=-1", "true"}, wantCode: 1, wantLines: []string{`srun: error: Invalid numeric value "-1" for --kill-on-bad-exit.`}},
		"bad -N":         {args: []string{"-N", "0-x", "true"}, wantCode: 255, wantLines: []string{`srun: error: "x" is not a valid node count`}},
		"bad -m":         {args: []string{"-m", "foo", "true"}, wantCode: 255, wantLines: []string{"srun: error: Invalid --distribution specification"}},
		"-m plane":       {args: []string{"-m", "plane", "true"}, wantCode: 255, wantLines: []string{"srun: error: Invalid plane size or size not specified", "srun: error: Invalid --distribution specification"}},
		"-m arbitrary":   {args: []string{"-m", "arbitrary", "-n1", "true"}, wantCode: 1, wantLines: []string{"srun: error: With Arbitrary distribution you need to specify a nodelist or hostfile with the -w option"}},
		"bad --tmp":      {args: []string{"--tmp=abc", "true"}, wantCode: 255, wantLines: []string{"srun: error: Invalid --tmp specification"}},
		"-c with --cpus-per-gpu": {args: []string{"--cpus-per-gpu=2", "-c", "2", "--gpus=1", "true"}, wantCode: 1,
			wantLines: []string{"srun: error: --cpus-per-gpu is mutually exclusive with --cpus-per-task", "srun: error: Invalid generic resource (gres) specification"}},
		"map_cpu needs ids": {args: []string{"--cpu-bind=map_cpu", "true"}, wantCode: 1, wantLines: []string{`srun: error: unrecognized --cpu-bind argument "map_cpu"`, "srun: fatal: Failed to parse --cpu-bind= values."}},
		"--pty with -i":     {args: []string{"--pty", "-i", "none", "true"}, wantCode: 1, wantLines: []string{"srun: error: --error/--input/--output are incompatible with --pty"}},
		"--pty with -o":     {args: []string{"--pty", "-o", "x", "true"}, wantCode: 1, wantLines: []string{"srun: error: --error/--input/--output are incompatible with --pty"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := (&Parser{Cwd: "/work"}).Srun(tc.args)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v, want *Error", err)
			}
			if e.Code != tc.wantCode {
				t.Errorf("exit status %d, want %d", e.Code, tc.wantCode)
			}
			if diff := cmp.Diff(tc.wantLines, e.Lines); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSrunWaitOption: -W and SLURM_WAIT give the seconds srun waits
// after the first task ended.
func TestSrunWaitOption(t *testing.T) {
	for name, tc := range map[string]struct {
		env  []string
		args []string
		want int
	}{
		"not given":  {args: []string{"true"}},
		"-W 3":       {args: []string{"-W", "3", "true"}, want: 3},
		"--wait=10":  {args: []string{"--wait=10", "true"}, want: 10},
		"SLURM_WAIT": {env: []string{"SLURM_WAIT=2"}, args: []string{"true"}, want: 2},
	} {
		t.Run(name, func(t *testing.T) {
			r, err := (&Parser{Cwd: "/work", Env: tc.env}).Srun(tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if r.Step.Wait != tc.want {
				t.Errorf("Wait = %d, want %d", r.Step.Wait, tc.want)
			}
		})
	}
}

// TestSrunTestOnly: --test-only is srun's own now, not an ignored option.
func TestSrunTestOnly(t *testing.T) {
	r, err := (&Parser{Cwd: "/work"}).Srun([]string{"--test-only", "-n2", "true"})
	if err != nil {
		t.Fatal(err)
	}
	if !r.TestOnly || len(r.Warnings) != 0 || r.Request.NTasks != 2 {
		t.Errorf("TestOnly %v, warnings %q, tasks %d; want true, none, 2", r.TestOnly, r.Warnings, r.Request.NTasks)
	}
}

// TestSrunPtyOption checks that --pty (and SLURM_PTY, as the peer's
// srun reads no such variable: it stays off) sets the step's terminal.
func TestSrunPtyOption(t *testing.T) {
	tests := map[string]struct {
		env  []string
		args []string
		want bool
	}{
		"--pty":             {args: []string{"--pty", "bash", "-i"}, want: true},
		"no --pty":          {args: []string{"bash"}, want: false},
		"--pty is srun's":   {args: []string{"bash", "--pty"}, want: false},
		"no input variable": {env: []string{"SLURM_PTY=1"}, args: []string{"bash"}, want: false},
		"with a partition":  {args: []string{"-p", "debug", "--gres=gpu:1", "--pty", "bash", "-i"}, want: true},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := (&Parser{Env: tc.env, Cwd: "/work"}).Srun(tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if got.Step.Pty != tc.want {
				t.Errorf("Pty = %v, want %v", got.Step.Pty, tc.want)
			}
			if len(got.Warnings) != 0 {
				t.Errorf("warnings %q, want none", got.Warnings)
			}
		})
	}
}

func TestSallocParse(t *testing.T) {
	p := &Parser{Cwd: "/work", Env: []string{"SALLOC_PARTITION=batch", "SLURM_JOB_ID=3"}}
	got, err := p.Salloc([]string{"-N2", "--time=5", "bash", "-c", "true"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Step.JobID != 0 || got.Request.Name != SallocDefaultName || got.Request.MinNodes != 2 ||
		got.Request.TimeLimit == nil || len(got.Request.Partitions) != 1 || got.Request.Partitions[0] != "batch" {
		t.Errorf("salloc parsed %+v / %+v", got.Request, got.Step)
	}
	if diff := cmp.Diff([]string{"bash", "-c", "true"}, got.Step.Command); diff != "" {
		t.Errorf("command (-want +got):\n%s", diff)
	}
	if got, err := p.Salloc(nil); err != nil || len(got.Step.Command) != 0 {
		t.Errorf("salloc without a command: %v, %v", got, err)
	}
}

func TestCPUBindEnv(t *testing.T) {
	tests := map[string]struct {
		spec string
		want []string
	}{
		"none given": {spec: "", want: nil},
		"map_cpu as the peer sets it": {spec: "map_cpu:0,1", want: []string{"SLURM_CPU_BIND_VERBOSE=quiet",
			"SLURM_CPU_BIND_TYPE=map_cpu:", "SLURM_CPU_BIND_LIST=0,1", "SLURM_CPU_BIND=quiet,map_cpu:0,1"}},
		"verbose cores": {spec: "verbose,cores", want: []string{"SLURM_CPU_BIND_VERBOSE=verbose",
			"SLURM_CPU_BIND_TYPE=cores", "SLURM_CPU_BIND_LIST=", "SLURM_CPU_BIND=verbose,cores"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, CPUBindEnv(tc.spec)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzSrun(f *testing.F) {
	for _, s := range []string{"-N2 -n3 true", "--cpu-bind=map_cpu:0,1 -l x", "-K0 --gpu-bind=single:1 y", "--jobid=1.2 z", "-i none -o %t z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := splitArgs(line)
		res, err := (&Parser{Cwd: "/w", Env: insideJob}).Srun(args)
		if err == nil && res.Action == Submit && len(res.Step.Command) == 0 {
			t.Fatalf("srun %q parsed without a command", line)
		}
	})
}

func splitArgs(s string) []string {
	var out []string
	cur := ""
	for _, c := range s {
		if c == ' ' {
			if cur != "" {
				out = append(out, cur)
			}
			cur = ""
			continue
		}
		cur += string(c)
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

// TestSrunMPI: the peer's srun fails on an MPI type it cannot load (five
// lines, exit 1), prints its list for a final --mpi=list even without a
// command, and takes none; Loam ignores Slurm's PMI plugins with a
// warning.
func TestSrunMPI(t *testing.T) {
	foo := []string{
		"srun: error: Couldn't find the specified plugin name for mpi/foo looking at all files",
		"srun: error: cannot find mpi plugin for mpi/foo",
		"srun: error: MPI: Cannot create context for mpi/foo",
		"srun: error: MPI: Unable to load any plugin",
		"srun: error: Invalid MPI type 'foo', --mpi=list for acceptable types",
	}
	tests := map[string]struct {
		env      []string
		args     []string
		action   Action
		errLines []string
		warnings []string
	}{
		"an unknown type":            {args: []string{"--mpi=foo", "true"}, errLines: foo},
		"an unknown type in the env": {env: []string{"SLURM_MPI_TYPE=foo"}, args: []string{"true"}, errLines: foo},
		"list without a command":     {args: []string{"--mpi=list"}, action: ListMPI},
		"list, last of two":          {args: []string{"--mpi=none", "--mpi=list", "true"}, action: ListMPI},
		"list, then none":            {args: []string{"--mpi=list", "--mpi=none", "true"}},
		"none":                       {args: []string{"--mpi=none", "true"}},
		"pmix is ignored":            {args: []string{"--mpi=pmix", "true"}, warnings: []string{"srun: warning: Loam ignores --mpi"}},
		"names are case-sensitive": {args: []string{"--mpi=PMIX", "true"}, errLines: []string{
			"srun: error: Couldn't find the specified plugin name for mpi/PMIX looking at all files",
			"srun: error: cannot find mpi plugin for mpi/PMIX",
			"srun: error: MPI: Cannot create context for mpi/PMIX",
			"srun: error: MPI: Unable to load any plugin",
			"srun: error: Invalid MPI type 'PMIX', --mpi=list for acceptable types"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			res, err := (&Parser{Env: tc.env, Cwd: "/home/u", Now: testNow}).Srun(tc.args)
			if tc.errLines != nil {
				var e *Error
				if !errors.As(err, &e) || e.Code != ExitError || !cmp.Equal(e.Lines, tc.errLines) {
					t.Fatalf("err = %v, want exit 1 and %q", err, tc.errLines)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Action != tc.action || !cmp.Equal(res.Warnings, tc.warnings) {
				t.Errorf("action %v warnings %q, want %v %q", res.Action, res.Warnings, tc.action, tc.warnings)
			}
		})
	}
}

// TestSrunCPUsPerGPUInAJob: the step in a job skips the job GRES check
// that --cpus-per-gpu excludes -c (the peer runs srun -c1
// --cpus-per-gpu=1 in a job), and records whether --cpus-per-gpu was an
// option or the job's SLURM_CPUS_PER_GPU.
func TestSrunCPUsPerGPUInAJob(t *testing.T) {
	tests := map[string]struct {
		env   []string
		args  []string
		given bool
	}{
		"an option":         {env: insideJob, args: []string{"-c1", "--cpus-per-gpu=1", "true"}, given: true},
		"from the job only": {env: append([]string{"SLURM_CPUS_PER_GPU=2"}, insideJob...), args: []string{"true"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			p := &Parser{Env: tc.env, Cwd: "/work"}
			got, err := p.Srun(tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if got.Step.CPUsPerGPUGiven != tc.given {
				t.Errorf("CPUsPerGPUGiven = %v, want %v", got.Step.CPUsPerGPUGiven, tc.given)
			}
		})
	}
}

// fourNodeJob is the environment of a four-node batch job with
// --ntasks-per-node=npn and ntasks tasks.
func fourNodeJob(npn, ntasks string) []string {
	return []string{"SLURM_JOB_ID=12", "SLURM_JOBID=12", "SLURM_NNODES=4", "SLURM_JOB_NUM_NODES=4",
		"SLURM_NTASKS=" + ntasks, "SLURM_NPROCS=" + ntasks, "SLURM_NTASKS_PER_NODE=" + npn, "PATH=/usr/bin:/bin"}
}
