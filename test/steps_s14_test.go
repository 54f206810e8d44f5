//go:build integration

package test

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// stepsS14Script runs, in a two-node GPU job, what a training launch
// does: a relative script (srun ./show.sh), verbose GPU binding, a step
// with its own --ntasks-per-node, and -K after a failing task.
const stepsS14Script = `#!/bin/bash
#SBATCH -N2 -n4 --gres=gpu:4 -o out.txt
unset LOAM_CONF
cat > show.sh <<'EOF'
#!/bin/bash
echo "P=$SLURM_PROCID CVD=$CUDA_VISIBLE_DEVICES TB=${SLURMD_TRES_BIND-unset} NTPN=${SLURM_NTASKS_PER_NODE-unset}"
EOF
chmod +x show.sh
echo "== bind"
srun -l -n4 --gpu-bind=verbose,map_gpu:3,1 ./show.sh 2>&1 | sort -s -k1,1n
echo "== per-node"
srun -l -n4 --ntasks-per-node=2 ./show.sh 2>&1 | sort -s -k1,1n
echo "== kill"
srun -n4 -K bash -c 'if [ $SLURM_PROCID = 2 ]; then exit 3; fi; sleep 30' 2>kill.err
echo "rc=$?"
`

// TestStepsS14: the peer's lines for the same steps (round 14, salloc -N2
// --ntasks-per-node=2 --gres=gpu:4 on gpu[001-002]; the bind block again
// from this very script in round 17: -N2 -n4 lays the tasks out 3,1, and
// the peer binds no GPU for the one task of the second node, which sees
// all four): ./show.sh runs from
// the job's directory; each bound task prints slurmstepd's gpu-bind line
// and sees SLURMD_TRES_BIND with verbose kept; srun --ntasks-per-node=2
// puts SLURM_NTASKS_PER_NODE=2 in its tasks; after -K only the step's
// first node writes the "*** STEP ... CANCELLED ***" line.
func TestStepsS14(t *testing.T) {
	s := startSrunCluster(t, clustertest.Spec{Nodes: 2, CPUs: 4, GPUs: 4})
	dir := sharedDir(t)
	id := s.sbatch(t, dir, stepsS14Script, nil)
	s.waitJob(t, id, job.Completed, 2*nodedWait)
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		return string(b)
	}
	want := `== bind
0: gpu-bind: usable_gres=0x8; bit_alloc=0xF; local_inx=0; global_list=3; local_list=3
0: P=0 CVD=3 TB=gpu:verbose,map_gpu:3,1 NTPN=unset
1: gpu-bind: usable_gres=0x2; bit_alloc=0xF; local_inx=0; global_list=1; local_list=1
1: P=1 CVD=1 TB=gpu:verbose,map_gpu:3,1 NTPN=unset
2: gpu-bind: usable_gres=0x8; bit_alloc=0xF; local_inx=0; global_list=3; local_list=3
2: P=2 CVD=3 TB=gpu:verbose,map_gpu:3,1 NTPN=unset
3: P=3 CVD=0,1,2,3 TB=unset NTPN=unset
== per-node
0: P=0 CVD=0,1,2,3 TB=unset NTPN=2
1: P=1 CVD=0,1,2,3 TB=unset NTPN=2
2: P=2 CVD=0,1,2,3 TB=unset NTPN=2
3: P=3 CVD=0,1,2,3 TB=unset NTPN=2
== kill
rc=143
`
	if diff := cmp.Diff(want, read("out.txt")); diff != "" {
		t.Errorf("out.txt (-want +got):\n%s", diff)
	}
	var cancelled []string
	for _, l := range strings.Split(read("kill.err"), "\n") {
		if strings.Contains(l, "CANCELLED AT") {
			cancelled = append(cancelled, regexp.MustCompile(`STEP \d+\.\d+|AT \S+`).ReplaceAllString(l, "X"))
		}
	}
	sort.Strings(cancelled)
	if diff := cmp.Diff([]string{"slurmstepd-n01: error: *** X ON n01 CANCELLED X ***"}, cancelled); diff != "" {
		t.Errorf("cancel lines (-want +got):\n%s\nkill.err:\n%s", diff, read("kill.err"))
	}
}
