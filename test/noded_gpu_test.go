//go:build integration

package test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loamhpc/loam/noded/nodedtest"
)

func nodedtestSpec() nodedtest.ClusterSpec { return nodedtest.ClusterSpec{GPUs: 4} }

// TestNodedGPUIsolation: a job given GPUs 1 and 2 of four sees their
// global indices in CUDA_VISIBLE_DEVICES, may open their device files
// (ENXIO: the fake devices have no driver) and is refused the others by
// the devices cgroup (EPERM).
func TestNodedGPUIsolation(t *testing.T) {
	cl := nodedCluster(t, nodedtestSpec())
	p := startNoded(t, cl, 0)
	reg := cl.Ctld.Registers()[0]
	if len(reg.GPUs) != 4 {
		t.Fatalf("registered GPUs %+v", reg.GPUs)
	}
	dev := filepath.Join(cl.Nodes[0].Spool, "dev", "nvidia")
	req := batch(t, cl.Nodes[0], 201, `
echo "CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES SLURM_JOB_GPUS=$SLURM_JOB_GPUS SLURM_GPUS_ON_NODE=$SLURM_GPUS_ON_NODE"
for i in 0 1 2 3; do
	out=$( { exec 3<>"`+dev+`$i"; } 2>&1 )
	echo "nvidia$i: ${out##*: }"
done`)
	req.Alloc.GPUs = []int{1, 2}
	req.Nodes[0].GPUs = []int{1, 2}
	p.launch(req)
	if ev := ended(t, cl, 201); ev.ExitCode.String() != "0:0" {
		t.Fatalf("job ended %+v", ev)
	}
	want := []string{
		"CUDA_VISIBLE_DEVICES=1,2 SLURM_JOB_GPUS=1,2 SLURM_GPUS_ON_NODE=2",
		"nvidia0: Operation not permitted",
		"nvidia1: No such device or address",
		"nvidia2: No such device or address",
		"nvidia3: Operation not permitted",
	}
	got := strings.Split(strings.TrimSpace(output(t, req)), "\n")
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("job saw:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
