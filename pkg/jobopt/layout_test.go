package jobopt

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/job"
)

// TestLayoutOptions checks the CPU layout sbatch keeps from -B, the layout
// options and --hint, the task count it derives and the variables the job
// sees, against the peer's jobs (scontrol show job's ReqB:S:C:T,
// Socks/Node, NtasksPerN:B:S:C and NumTasks; env in the script).
func TestLayoutOptions(t *testing.T) {
	type layout struct {
		S, C, T, PerCore, PerSocket, NTasks int
		Env                                 []string
	}
	tests := map[string]struct {
		env  []string
		args []string
		want layout
	}{
		// ReqB:S:C:T=0:0:4:1 Socks/Node=2 NumTasks=8
		"-B 2:4:1": {args: []string{"-B", "2:4:1"},
			want: layout{S: 2, C: 4, T: 1, NTasks: 8, Env: []string{"SLURM_NPROCS=8", "SLURM_NTASKS=8", "SLURM_THREADS_PER_CORE=1"}}},
		"-B 2": {args: []string{"-B", "2"}, want: layout{S: 2, NTasks: 2, Env: []string{"SLURM_NPROCS=2", "SLURM_NTASKS=2"}}},
		// NumNodes=2-2 NumTasks=16
		"-N2 -B 2:4:1":   {args: []string{"-N2", "-B", "2:4:1"}, want: layout{S: 2, C: 4, T: 1, NTasks: 16, Env: []string{"SLURM_NPROCS=16", "SLURM_NTASKS=16", "SLURM_THREADS_PER_CORE=1"}}},
		"-N1-2 -B 2:4:1": {args: []string{"-N1-2", "-B", "2:4:1"}, want: layout{S: 2, C: 4, T: 1, Env: []string{"SLURM_THREADS_PER_CORE=1"}}},
		"-n3 -B 2:4:1":   {args: []string{"-n3", "-B", "2:4:1"}, want: layout{S: 2, C: 4, T: 1, NTasks: 3, Env: []string{"SLURM_NPROCS=3", "SLURM_NTASKS=3", "SLURM_THREADS_PER_CORE=1"}}},
		"-B *:4":         {args: []string{"-B", "*:4"}, want: layout{C: 4, NTasks: 4, Env: []string{"SLURM_NPROCS=4", "SLURM_NTASKS=4"}}},
		"-B 2-4:3-5":     {args: []string{"-B", "2-4:3-5"}, want: layout{S: 2, C: 3, NTasks: 6, Env: []string{"SLURM_NPROCS=6", "SLURM_NTASKS=6"}}},
		// NumNodes=2-2 NumCPUs=4 NumTasks=4 Socks/Node=2
		"-N2 --sockets-per-node=2": {args: []string{"-N2", "--sockets-per-node=2"}, want: layout{S: 2, NTasks: 4, Env: []string{"SLURM_NPROCS=4", "SLURM_NTASKS=4"}}},
		"--sockets-per-node=2":     {args: []string{"--sockets-per-node=2"}, want: layout{S: 2}},
		"--cores-per-socket=4":     {args: []string{"--cores-per-socket=4"}, want: layout{C: 4}},
		"--threads-per-core=2":     {args: []string{"--threads-per-core=2"}, want: layout{T: 2, Env: []string{"SLURM_THREADS_PER_CORE=2"}}},
		"--ntasks-per-core=1":      {args: []string{"--ntasks-per-core=1"}, want: layout{PerCore: 1, Env: []string{"SLURM_NTASKS_PER_CORE=1"}}},
		"--ntasks-per-socket=2":    {args: []string{"--ntasks-per-socket=2"}, want: layout{PerSocket: 2, Env: []string{"SLURM_NTASKS_PER_SOCKET=2"}}},
		"--hint=nomultithread": {args: []string{"--hint=nomultithread"},
			want: layout{T: 1, Env: []string{"SLURM_HINT=nomultithread", "SLURM_THREADS_PER_CORE=1"}}},
		"--hint=compute_bound": {args: []string{"--hint=compute_bound"},
			want: layout{T: 1, Env: []string{"SLURM_HINT=compute_bound", "SLURM_THREADS_PER_CORE=1"}}},
		"--hint=memory_bound": {args: []string{"--hint=memory_bound"},
			want: layout{C: 1, T: 1, Env: []string{"SLURM_HINT=memory_bound", "SLURM_THREADS_PER_CORE=1"}}},
		// ReqB:S:C:T=0:0:*:* NtasksPerN:B:S:C=0:0:*:*, yet the job sees 65535
		"--hint=multithread": {args: []string{"--hint=multithread"},
			want: layout{PerCore: job.NTasksPerCoreAny, Env: []string{"SLURM_HINT=multithread", "SLURM_NTASKS_PER_CORE=65535"}}},
		// --hint gives way to --ntasks-per-core and -B on the command line
		"--hint=nomultithread --ntasks-per-core=1": {args: []string{"--hint=nomultithread", "--ntasks-per-core=1"},
			want: layout{PerCore: 1, Env: []string{"SLURM_NTASKS_PER_CORE=1"}}},
		"--hint=nomultithread -B 2": {args: []string{"--hint=nomultithread", "-B", "2"},
			want: layout{S: 2, NTasks: 2, Env: []string{"SLURM_NPROCS=2", "SLURM_NTASKS=2"}}},
		// ... and drops --sockets-per-node with -B's reset
		"--hint=nomultithread --sockets-per-node=2": {args: []string{"--hint=nomultithread", "--sockets-per-node=2"},
			want: layout{T: 1, Env: []string{"SLURM_HINT=nomultithread", "SLURM_THREADS_PER_CORE=1"}}},
		"--hint=compute_bound --cores-per-socket=4": {args: []string{"--hint=compute_bound", "--cores-per-socket=4"},
			want: layout{T: 1, Env: []string{"SLURM_HINT=compute_bound", "SLURM_THREADS_PER_CORE=1"}}},
		"-N1 --hint=nomultithread": {args: []string{"-N1", "--hint=nomultithread"},
			want: layout{T: 1, NTasks: 1, Env: []string{"SLURM_HINT=nomultithread", "SLURM_NPROCS=1", "SLURM_NTASKS=1", "SLURM_THREADS_PER_CORE=1"}}},
		// SLURM_HINT alone keeps --sockets-per-node (Socks/Node=2 ...:*:1)
		"SLURM_HINT=nomultithread --sockets-per-node=2": {env: []string{"SLURM_HINT=nomultithread"}, args: []string{"--sockets-per-node=2"},
			want: layout{S: 2, T: 1, Env: []string{"SLURM_HINT=nomultithread", "SLURM_THREADS_PER_CORE=1"}}},
		// ReqB:S:C:T=0:0:*:1: the command line's --hint drops the variable's count
		"SBATCH_THREADS_PER_CORE=2 --hint=compute_bound": {env: []string{"SBATCH_THREADS_PER_CORE=2"}, args: []string{"--hint=compute_bound"},
			want: layout{T: 1, Env: []string{"SLURM_HINT=compute_bound", "SLURM_THREADS_PER_CORE=1"}}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			res, err := submit(t, append([]string{"HOME=/home/u"}, tc.env...), "#!/bin/sh\n", append(tc.args, "job.sh")...)
			if err != nil {
				t.Fatal(err)
			}
			r := res.Request
			got := layout{S: r.SocketsPerNode, C: r.CoresPerSocket, T: r.ThreadsPerCore, PerCore: r.NTasksPerCore,
				PerSocket: r.NTasksPerSocket, NTasks: r.NTasks}
			for _, kv := range r.Environment {
				if slicesHasPrefix(kv, "SLURM_HINT=", "SLURM_THREADS_PER_CORE=", "SLURM_NTASKS", "SLURM_NPROCS=") {
					got.Env = append(got.Env, kv)
				}
			}
			sort.Strings(got.Env)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if !strings.Contains(strings.Join(res.Warnings, "\n"), "Loam ignores") {
				t.Errorf("warnings %q: want a \"Loam ignores\" line, as Loam does not place by the layout", res.Warnings)
			}
		})
	}
}

// TestBindingOptions checks --gpu-bind and --cpu-freq as the job keeps them.
func TestBindingOptions(t *testing.T) {
	res, err := submit(t, []string{"HOME=/home/u"}, "#!/bin/sh\n", "--gpu-bind=verbose,closest", "--cpu-freq=1000-2000:perf", "job.sh")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Request.TRESBind, "gpu:verbose,closest"; got != want {
		t.Errorf("TRESBind = %q, want %q", got, want)
	}
	want := &job.CPUFreq{Min: 1000, Max: 2000, Gov: job.CPUFreqPerformance}
	if diff := cmp.Diff(want, res.Request.CPUFreq); diff != "" {
		t.Errorf("CPUFreq (-want +got):\n%s", diff)
	}
	// The peer: sbatch: error: Invalid --gpu-bind argument: gpu:foo (exit 255)
	_, err = submit(t, []string{"HOME=/home/u"}, "#!/bin/sh\n", "--gpu-bind=foo", "job.sh")
	e, ok := err.(*Error)
	if !ok || e.Code != ExitClient || len(e.Lines) != 1 || e.Lines[0] != "sbatch: error: Invalid --gpu-bind argument: gpu:foo" {
		t.Errorf("--gpu-bind=foo: %#v", err)
	}
	// The peer: min cpu-frec (medium) must be < max cpu-freq (3000000)
	_, err = submit(t, []string{"HOME=/home/u"}, "#!/bin/sh\n", "--cpu-freq=medium-3000000:ondemand", "job.sh")
	e, ok = err.(*Error)
	if !ok || strings.Join(e.Lines, "\n") != "sbatch: error: min cpu-frec (medium) must be < max cpu-freq (3000000)\nsbatch: error: Invalid --cpu-freq argument" {
		t.Errorf("--cpu-freq=medium-3000000:ondemand: %#v", err)
	}
}
