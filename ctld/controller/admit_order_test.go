package controller

import (
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// TestAdmitPartitionsOrder checks the peer's partition lists: a pending
// job submitted with -p batch,urgent,normal shows urgent,normal,batch
// (PriorityTier order), a held one batch,urgent,normal (as given).
func TestAdmitPartitionsOrder(t *testing.T) {
	const conf = `ClusterName=peer
SlurmctldHost=localhost
NodeName=cpu[1-2] CPUs=32 RealMemory=128000
PartitionName=urgent Nodes=ALL PriorityTier=3 State=UP
PartitionName=normal Nodes=ALL Default=YES PriorityTier=2 State=UP
PartitionName=batch Nodes=ALL PriorityTier=1 State=UP
`
	c, err := slurmconf.Load(fstest.MapFS{"slurm.conf": {Data: []byte(conf)}}, "slurm.conf")
	if err != nil {
		t.Fatal(err)
	}
	cs, err := newConfState(c, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		hold bool
		want []string
	}{
		"pending: by PriorityTier": {false, []string{"urgent", "normal", "batch"}},
		"held: as given":           {true, []string{"batch", "urgent", "normal"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			a := &admitted{req: &job.Request{Partitions: []string{"batch", "urgent", "normal"}, Hold: tc.hold}}
			if aerr := admitPartitions(cs, a); aerr != nil {
				t.Fatal(aerr)
			}
			if diff := cmp.Diff(tc.want, a.partitions); diff != "" {
				t.Errorf("partitions (-want +got):\n%s", diff)
			}
		})
	}
}
