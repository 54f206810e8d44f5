//go:build integration

package test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

const s17LayoutScript = `#!/bin/bash
echo "TPN=$SLURM_TASKS_PER_NODE CPN=$SLURM_JOB_CPUS_PER_NODE GPUS=$SLURM_GPUS_ON_NODE" > layout.txt
srun -l bash -c 'echo $SLURM_NODEID $CUDA_VISIBLE_DEVICES' 2>&1 | sort >> layout.txt
scontrol show job -d $SLURM_JOB_ID >> layout.txt
`

// TestS17GPUTaskLayout runs -N2 -n4 --gpus-per-task=1 on idle 4-GPU
// nodes: as the peer (Slurm 22.05) runs it, the first node holds 3 tasks
// with 3 GPUs and the second 1 with 1 (SLURM_TASKS_PER_NODE=3,1), and
// every task of srun in the job sees its own GPU. The nodes, given CPUs=8
// alone, have a socket a CPU (as in Slurm), and Slurm's GPU core filter
// keeps the four cores of the node's four GPUs' tasks, dropping from the
// lowest sockets first: the second node's task runs on CPU 4.
func TestS17GPUTaskLayout(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 2, CPUs: 8, GPUs: 4})
	dir := sharedDir(t)
	id := s.sbatch(t, dir, s17LayoutScript, nil, "-N2", "-n4", "--gpus-per-task=1")
	s.waitJob(t, id, job.Completed, nodedWait)
	out, err := os.ReadFile(filepath.Join(dir, "layout.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	if first := strings.SplitN(got, "\n", 2)[0]; first != "TPN=3,1 CPN=3,1 GPUS=3" {
		t.Errorf("environment: %q", first)
	}
	for _, re := range []string{`(?m)^0: 0 0$`, `(?m)^1: 0 1$`, `(?m)^2: 0 2$`, `(?m)^3: 1 0$`,
		`(?m)^     Nodes=n01 CPU_IDs=\S+ Mem=\d+ GRES=gpu:3\(IDX:0-2\)$`, `(?m)^     Nodes=n02 CPU_IDs=4 Mem=\d+ GRES=gpu:1\(IDX:0\)$`} {
		if !regexp.MustCompile(re).MatchString(got) {
			t.Errorf("layout lacks %s:\n%s", re, got)
		}
	}
}

// TestS17GPUsFillNodes runs --gpus=6 over two idle 4-GPU nodes: the
// first node fills (4,2, as the peer's --gpus=12 on 8-GPU nodes holds
// 8,4), and srun in the job, which reads SLURM_GPUS=6, gets them all.
func TestS17GPUsFillNodes(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 2, CPUs: 8, GPUs: 4})
	dir := sharedDir(t)
	id := s.sbatch(t, dir, s17LayoutScript, nil, "--gpus=6")
	s.waitJob(t, id, job.Completed, nodedWait)
	out, err := os.ReadFile(filepath.Join(dir, "layout.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	for _, re := range []string{`(?m)^0: 0 0,1,2,3$`, `(?m)^1: 1 0,1$`,
		`(?m)^     Nodes=n01 CPU_IDs=0 Mem=\d+ GRES=gpu:4\(IDX:0-3\)$`, `(?m)^     Nodes=n02 CPU_IDs=0 Mem=\d+ GRES=gpu:2\(IDX:0-1\)$`} {
		if !regexp.MustCompile(re).MatchString(got) {
			t.Errorf("layout lacks %s:\n%s", re, got)
		}
	}
}
