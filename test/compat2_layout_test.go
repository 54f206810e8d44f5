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

const compat2LayoutScript = `#!/bin/bash
echo "TPN=$SLURM_TASKS_PER_NODE CPN=$SLURM_JOB_CPUS_PER_NODE NL=$SLURM_JOB_NODELIST ON=$SLURM_CPUS_ON_NODE" > layout.txt
scontrol show job -d $SLURM_JOB_ID >> layout.txt
`

// TestCompat2TaskLayout runs -N3 -n4 on idle nodes and checks the layout
// the peer (Slurm 22.05) shows for it: the first node holds the rest,
// SLURM_TASKS_PER_NODE=2,1(x2), and scontrol -d names the CPU ids.
func TestCompat2TaskLayout(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 3, CPUs: 8})
	dir := sharedDir(t)
	id := s.sbatch(t, dir, compat2LayoutScript, nil, "-N3", "-n4")
	s.waitJob(t, id, job.Completed, nodedWait)
	out, err := os.ReadFile(filepath.Join(dir, "layout.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	if first := strings.SplitN(got, "\n", 2)[0]; first != "TPN=2,1(x2) CPN=2,1(x2) NL=n[01-03] ON=2" {
		t.Errorf("environment: %q", first)
	}
	for _, re := range []string{`(?m)^     Nodes=n01 CPU_IDs=0-1 Mem=\d+ GRES=$`, `(?m)^     Nodes=n\[02-03\] CPU_IDs=0 Mem=\d+ GRES=$`, `NumNodes=3 NumCPUs=4 NumTasks=4`} {
		if !regexp.MustCompile(re).MatchString(got) {
			t.Errorf("scontrol show job -d lacks %s:\n%s", re, got)
		}
	}
}

// TestCompat2TaskSpill runs -N3 -n18 on idle 8-CPU nodes, where no node
// holds the rest: as the peer fills node by node (-N3 -n70 on its 32-CPU
// nodes runs 32(x2),6), the job runs 8(x2),2.
func TestCompat2TaskSpill(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 3, CPUs: 8})
	dir := sharedDir(t)
	id := s.sbatch(t, dir, compat2LayoutScript, nil, "-N3", "-n18")
	s.waitJob(t, id, job.Completed, nodedWait)
	out, err := os.ReadFile(filepath.Join(dir, "layout.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	if first := strings.SplitN(got, "\n", 2)[0]; first != "TPN=8(x2),2 CPN=8(x2),2 NL=n[01-03] ON=8" {
		t.Errorf("environment: %q", first)
	}
	for _, re := range []string{`(?m)^     Nodes=n\[01-02\] CPU_IDs=0-7 Mem=\d+ GRES=$`, `(?m)^     Nodes=n03 CPU_IDs=0-1 Mem=\d+ GRES=$`} {
		if !regexp.MustCompile(re).MatchString(got) {
			t.Errorf("scontrol show job -d lacks %s:\n%s", re, got)
		}
	}
}
