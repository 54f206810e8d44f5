package controller

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// TestBilling: the peer's billA partition over two 64-CPU, 512000 MB,
// 8-GPU nodes shows TRES=cpu=128,mem=1000G,node=2,billing=410,gres/gpu=16
// (250 with PriorityFlags=MAX_TRES), and its job holding cpu=4,mem=4G,
// gres/gpu=6 bills 17; a partition without weights bills CPUs.
func TestBilling(t *testing.T) {
	tests := map[string]struct {
		flags          string
		part, job, cpu int64
	}{
		"summed":   {"", 410, 17, 4},
		"MAX_TRES": {"PriorityFlags=MAX_TRES\n", 250, 12, 4},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			text := "ClusterName=t\nSlurmctldHost=ctl\nGresTypes=gpu\nAccountingStorageTRES=gres/gpu\n" + tc.flags +
				"NodeName=gpu[001-002] CPUs=64 RealMemory=512000 Gres=gpu:8\n" +
				`PartitionName=billA Nodes=gpu[001-002] TRESBillingWeights="CPU=1.0,Mem=0.25G,GRES/gpu=2.0"` + "\n" +
				"PartitionName=plain Nodes=gpu[001-002]\n"
			conf, err := slurmconf.Parse(fstest.MapFS{"slurm.conf": {Data: []byte(text)}}, "slurm.conf")
			if err != nil {
				t.Fatal(err)
			}
			p, _ := conf.Partition("billA")
			ap := api.Partition{TotalCPUs: 128, TotalNodes: 2, GRESTRES: newGPUTRESRule(conf).partTRES(conf, p.Nodes)}
			partBilling(conf, p, &ap)
			var job resource.TRES
			job.Set(resource.TRESCPU, 4)
			job.Set(resource.TRESMem, 4096)
			job.Set(resource.TRESNode, 2)
			job.Set(resource.TRESGPU, 6)
			setBilling(conf, &job, "billA")
			plain := append(resource.TRES{}, job...)
			setBilling(conf, &plain, "plain")
			got := []int64{ap.Billing, job.Get(resource.TRESBilling), plain.Get(resource.TRESBilling)}
			if diff := cmp.Diff([]int64{tc.part, tc.job, tc.cpu}, got); diff != "" || ap.TRESBillingWeights == "" {
				t.Errorf("billing (-want +got):\n%s weights %q", diff, ap.TRESBillingWeights)
			}
		})
	}
}
