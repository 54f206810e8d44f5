package jobopt

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPassedOptionVariables checks the SLURM_* variables the peer's batch
// scripts saw for options Loam does not act on (sbatch OPTION job.sh, then
// env in the script), beyond those every job has.
func TestPassedOptionVariables(t *testing.T) {
	tests := map[string]struct {
		args []string
		want []string
	}{
		"-m cyclic":                            {args: []string{"-m", "cyclic"}, want: []string{"SLURM_DISTRIBUTION=cyclic"}},
		"-m plane=2":                           {args: []string{"-m", "plane=2"}, want: []string{"SLURM_DISTRIBUTION=plane", "SLURM_DIST_PLANESIZE=2"}},
		"-O":                                   {args: []string{"-O"}, want: []string{"SLURM_OVERCOMMIT=1"}},
		"--threads-per-core=1":                 {args: []string{"--threads-per-core=1"}, want: []string{"SLURM_THREADS_PER_CORE=1"}},
		"--ntasks-per-core=1":                  {args: []string{"--ntasks-per-core=1"}, want: []string{"SLURM_NTASKS_PER_CORE=1"}},
		"--ntasks-per-socket=1":                {args: []string{"--ntasks-per-socket=1"}, want: []string{"SLURM_NTASKS_PER_SOCKET=1"}},
		"--gpu-bind=closest":                   {args: []string{"--gpu-bind=closest"}, want: []string{"SLURM_GPU_BIND=closest"}},
		"--acctg-freq=30":                      {args: []string{"--acctg-freq=30"}, want: []string{"SLURM_ACCTG_FREQ=30"}},
		"--gpu-freq=high":                      {args: []string{"--gpu-freq=high"}, want: []string{"SLURM_GPU_FREQ=high"}},
		"--profile=task":                       {args: []string{"--profile=task"}, want: []string{"SLURM_PROFILE=Task"}},
		"--cpu-freq=high":                      {args: []string{"--cpu-freq=high"}, want: []string{"SLURM_CPU_FREQ_REQ=High"}},
		"--cpu-freq range, governor":           {args: []string{"--cpu-freq=low-high:ondemand"}, want: []string{"SLURM_CPU_FREQ_REQ=Low-High:OnDemand"}},
		"--mem-bind=local":                     {args: []string{"--mem-bind=local"}, want: []string{"SLURM_MEM_BIND=local", "SLURM_MEM_BIND_VERBOSE=quiet"}},
		"--hint=nomultithread":                 {args: []string{"--hint=nomultithread"}, want: []string{"SLURM_HINT=nomultithread", "SLURM_THREADS_PER_CORE=1"}},
		"--ntasks-per-gpu=1":                   {args: []string{"-n2", "--ntasks-per-gpu=1"}, want: []string{"SLURM_NPROCS=2", "SLURM_NTASKS=2", "SLURM_NTASKS_PER_GPU=1"}},
		"--gpus-per-socket=1":                  {args: []string{"--gpus-per-socket=1", "--sockets-per-node=1"}, want: []string{"SLURM_GPUS_PER_SOCKET=1"}},
		"--wckey and --spread-job set nothing": {args: []string{"--wckey=abc", "--spread-job"}},
	}
	base := map[string]bool{"SLURM_JOB_NAME": true, "SLURM_SUBMIT_DIR": true, "SLURM_SUBMIT_HOST": true}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			res, err := submit(t, []string{"HOME=/home/u"}, "#!/bin/sh\n", append(tc.args, "job.sh")...)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, kv := range res.Request.Environment {
				k, _, _ := strings.Cut(kv, "=")
				if strings.HasPrefix(k, "SLURM_") && !base[k] {
					got = append(got, kv)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
