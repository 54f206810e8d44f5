//go:build integration

package test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// srunMPScript runs --multi-prog steps inside a two-node job, then looks
// at a running step with scontrol show step and squeue -s.
const srunMPScript = `#!/bin/bash
#SBATCH -N2 --ntasks-per-node=2 --gres=gpu:2 -o out.txt
unset LOAM_CONF
cat > mp.conf <<'EOF'
# rank-specific programs
0,2   echo even %t %o
1,x3  echo never
EOF
srun -l --multi-prog mp.conf; echo rc=$?
cat > mp.conf <<'EOF'
0,2   echo even %t %o
1,3   sh -c 'echo odd $SLURM_PROCID on $SLURMD_NODENAME "$0"'
EOF
srun -l --multi-prog mp.conf x | sort; echo rc=${PIPESTATUS[0]}
srun -n2 --multi-prog mp.conf; echo rc=$?
printf '0 sleep 30\n1 sleep 30\n' > sl.conf
srun -n2 --multi-prog sl.conf &
for i in $(seq 100); do scontrol show step $SLURM_JOB_ID.1 >/dev/null 2>&1 && break; sleep 0.1; done
scontrol show step $SLURM_JOB_ID > show.txt; echo show=$?
scontrol -o show step $SLURM_JOB_ID.1 >> show.txt
scontrol show step $SLURM_JOB_ID.7 >> show.txt; echo missing=$?
squeue -s -j $SLURM_JOB_ID > squeue.txt
kill %1; wait
`

// TestSrunMPBatch runs srun --multi-prog on two real node daemons (each
// task its own command, srun's refusal of a bad file in the peer's
// words), and scontrol show step and squeue -s on the running step.
func TestSrunMPBatch(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 2, CPUs: 4, GPUs: 2})
	dir := sharedDir(t)
	id := s.sbatch(t, dir, srunMPScript, nil)
	s.waitJob(t, id, job.Completed, nodedWait)
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	out := regexp.MustCompile(`(?m)^.*(CANCELLED AT|Force Terminated|error: n0\d: task).*\n`).ReplaceAllString(read("out.txt"), "")
	want := `srun: error: Invalid task range specification (x3)
srun: error: Line 3 of configuration file mp.conf invalid
rc=1
0: even 0 0 x
1: odd 1 on n01 x
2: even 2 1 x
3: odd 3 on n02 x
rc=0
srun: error: Invalid task id, 2 >= ntasks
srun: error: Line 1 of configuration file mp.conf invalid
rc=1
show=0
missing=1
srun: forcing job termination
srun: Job step aborted: Waiting up to 4 seconds for job step to finish.
`
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("job output (-want +got):\n%s", diff)
	}
	show := regexp.MustCompile(`StartTime=\S+`).ReplaceAllString(read("show.txt"), "StartTime=<t>")
	show = regexp.MustCompile(`SrunHost:Pid=([^(]\S*):\d+`).ReplaceAllString(show, "SrunHost:Pid=<host>:<pid>")
	wantShow := fmt.Sprintf(`StepId=%[1]d.batch UserId=0 StartTime=<t> TimeLimit=UNLIMITED
   State=RUNNING Partition=normal NodeList=n01
   Nodes=1 CPUs=0 Tasks=1 Name=batch Network=(null)
   TRES=(null)
   ResvPorts=(null)
   CPUFreqReq=Default
   SrunHost:Pid=(null):0

StepId=%[1]d.1 UserId=0 StartTime=<t> TimeLimit=UNLIMITED
   State=RUNNING Partition=normal NodeList=n[01-02]
   Nodes=2 CPUs=4 Tasks=2 Name=sl.conf Network=(null)
   TRES=cpu=4,mem=400M,node=2
   ResvPorts=(null)
   CPUFreqReq=Default Dist=Cyclic
   SrunHost:Pid=<host>:<pid>
   TresPerNode=gres:gpu:2

StepId=%[1]d.1 UserId=0 StartTime=<t> TimeLimit=UNLIMITED State=RUNNING Partition=normal NodeList=n[01-02] Nodes=2 CPUs=4 Tasks=2 Name=sl.conf Network=(null) TRES=cpu=4,mem=400M,node=2 ResvPorts=(null) CPUFreqReq=Default Dist=Cyclic SrunHost:Pid=<host>:<pid> TresPerNode=gres:gpu:2
Job step %[1]d.7 not found
`, id) // DefMemPerCPU=100 in the test cluster
	if diff := cmp.Diff(wantShow, show); diff != "" {
		t.Errorf("scontrol show step (-want +got):\n%s", diff)
	}
	wantQueue := fmt.Sprintf(`         STEPID     NAME PARTITION     USER      TIME NODELIST
%15s  sl.conf    normal     root      0:00 n[01-02]
%15s    batch    normal     root      0:00 n01
`, fmt.Sprintf("%d.1", id), fmt.Sprintf("%d.batch", id))
	queue := regexp.MustCompile(`0:0\d`).ReplaceAllString(read("squeue.txt"), "0:00")
	if diff := cmp.Diff(wantQueue, queue); diff != "" {
		t.Errorf("squeue -s (-want +got):\n%s", diff)
	}
}
