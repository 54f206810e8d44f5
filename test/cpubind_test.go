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

// cpuBindScript runs two-task steps in a job on a node with CpuBind=cores
// and prints each task's allowed CPUs: by default, with --cpu-bind=none,
// after scontrol clears the node's CpuBind, and after it sets the
// partition's.
const cpuBindScript = `#!/bin/bash
#SBATCH -n2 -o out.txt
unset LOAM_CONF
show() { echo "== $1"; shift; srun -n2 -l "$@" grep Cpus_allowed_list /proc/self/status | sort | tr '\t' ' '; }
scontrol show node n01 | head -n1
show default
show none --cpu-bind=none
scontrol update NodeName=n01 CpuBind=off
scontrol show node n01 | head -n1
show off
scontrol update PartitionName=normal CpuBind=threads
scontrol show partition normal | grep -o 'Default=.*'
show partition
`

// TestCPUBindDefault: a step without --cpu-bind is bound as its nodes'
// CpuBind says (one CPU per task with cores), --cpu-bind=none is not,
// CpuBind=off clears the node's, and the partition's applies then; the
// node's CpuBind shows in scontrol show node as the peer prints it.
func TestCPUBindDefault(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 1, CPUs: 2, NodeExtra: "CpuBind=Core"})
	dir := sharedDir(t)
	id := s.sbatch(t, dir, cpuBindScript, nil)
	s.waitJob(t, id, job.Completed, nodedWait)
	out, err := os.ReadFile(filepath.Join(dir, "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	for _, want := range []string{"NodeName=n01 Arch=x86_64 CpuBind=cores CoresPerSocket=",
		"NodeName=n01 Arch=x86_64 CoresPerSocket=", "Default=YES CpuBind=threads  QoS=N/A"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in the job's output:\n%s", want, text)
		}
	}
	steps := cpuBindSteps(text)
	bound := func(name string) {
		l := steps[name]
		single := regexp.MustCompile(`^\d+$`)
		if len(l) != 2 || !single.MatchString(l[0]) || !single.MatchString(l[1]) || l[0] == l[1] {
			t.Errorf("step %s: tasks' CPUs %q, want one CPU each, different:\n%s", name, l, text)
		}
	}
	unbound := func(name string) {
		if l := steps[name]; len(l) != 2 || l[0] != l[1] || regexp.MustCompile(`^\d+$`).MatchString(l[0]) {
			t.Errorf("step %s: tasks' CPUs %q, want both the job's CPUs:\n%s", name, l, text)
		}
	}
	bound("default")
	unbound("none")
	unbound("off")
	bound("partition")
}

// cpuBindSteps reads the "== step" sections of the script's output into
// each task's Cpus_allowed_list, in task order.
func cpuBindSteps(text string) map[string][]string {
	out := map[string][]string{}
	step := ""
	for _, line := range strings.Split(text, "\n") {
		if name, ok := strings.CutPrefix(line, "== "); ok {
			step = name
			continue
		}
		if _, cpus, ok := strings.Cut(line, "Cpus_allowed_list: "); ok && step != "" {
			out[step] = append(out[step], strings.TrimSpace(cpus))
		}
	}
	return out
}
