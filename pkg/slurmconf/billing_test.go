package slurmconf

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// peerWeights are the weights of the peer's billA and billB partitions.
const peerWeights, peerWeightsB = "CPU=1.0,Mem=0.25G,GRES/gpu=2.0", "CPU=0.5,Mem=0.3G"

// TestBill: billing= of jobs on the Slurm 22.05 peer (squeue -O
// tres-alloc and sacct AllocTRES, ReqTRES) in partitions with
// TRESBillingWeights, summed and with PriorityFlags=MAX_TRES; the
// weighted sum is cut, never rounded (7.5 bills 7, 2.73 bills 2).
func TestBill(t *testing.T) {
	tests := map[string]struct {
		weights string
		maxTRES bool
		counts  map[string]int64
		want    int64
	}{
		"no weights bill the CPUs":         {"", false, map[string]int64{"cpu": 6, "mem": 6144}, 6},
		"cpu=6,mem=6G is 7.5, billed 7":    {peerWeights, false, map[string]int64{"cpu": 6, "mem": 6144}, 7},
		"cpu=6,mem=200M":                   {peerWeights, false, map[string]int64{"cpu": 6, "mem": 200}, 6},
		"cpu=4,mem=4G,gres/gpu=6":          {peerWeights, false, map[string]int64{"cpu": 4, "mem": 4096, "gres/gpu": 6}, 17},
		"cpu=3,mem=2100M":                  {peerWeights, false, map[string]int64{"cpu": 3, "mem": 2100}, 3},
		"cpu=2,mem=20G":                    {peerWeights, false, map[string]int64{"cpu": 2, "mem": 20480}, 7},
		"cpu=2,mem=3000M is 2.73":          {peerWeights, false, map[string]int64{"cpu": 2, "mem": 3000}, 2},
		"cpu=2,mem=2G,gres/gpu=2 is 6.5":   {peerWeights, false, map[string]int64{"cpu": 2, "mem": 2048, "gres/gpu": 2}, 6},
		"pending cpu=3,mem=3G,gres/gpu=1":  {peerWeights, false, map[string]int64{"cpu": 3, "mem": 3072, "gres/gpu": 1}, 5},
		"billB cpu=3,mem=1500M":            {peerWeightsB, false, map[string]int64{"cpu": 3, "mem": 1500}, 1},
		"partition billA":                  {peerWeights, false, map[string]int64{"cpu": 128, "mem": 1024000, "node": 2, "gres/gpu": 16}, 410},
		"partition billB":                  {peerWeightsB, false, map[string]int64{"cpu": 128, "mem": 1024000, "node": 2}, 364},
		"MAX_TRES cpu=5,mem=10G,gpu=1":     {peerWeights, true, map[string]int64{"cpu": 5, "mem": 10240, "gres/gpu": 1}, 5},
		"MAX_TRES cpu=1,mem=10G":           {peerWeights, true, map[string]int64{"cpu": 1, "mem": 10240}, 2},
		"MAX_TRES cpu=2,mem=2G,gpu=3":      {peerWeights, true, map[string]int64{"cpu": 2, "mem": 2048, "gres/gpu": 3}, 6},
		"MAX_TRES two nodes, job totals":   {peerWeights, true, map[string]int64{"cpu": 4, "mem": 20480, "node": 2}, 5},
		"MAX_TRES pending":                 {peerWeights, true, map[string]int64{"cpu": 3, "mem": 3072, "gres/gpu": 1}, 3},
		"MAX_TRES partition billA":         {peerWeights, true, map[string]int64{"cpu": 128, "mem": 1024000, "node": 2, "gres/gpu": 16}, 250},
		"MAX_TRES adds global licenses":    {"CPU=1,License/matlab=3", true, map[string]int64{"cpu": 4, "license/matlab": 2}, 10},
		"untracked GPUs are not billed":    {peerWeights, false, map[string]int64{"cpu": 2}, 2},
		"memory weight without unit is MB": {"Mem=0.001", false, map[string]int64{"mem": 10000}, 10},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			w, err := ParseBillingWeights(tc.weights)
			if tc.weights == "" {
				w, err = BillingWeights{}, nil
			}
			if err != nil {
				t.Fatal(err)
			}
			got := w.Bill(func(n string) int64 { return tc.counts[n] }, tc.maxTRES)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Bill (-want +got):\n%s", diff)
			}
		})
	}
}

// TestBillingKeys: TRESBillingWeights and PriorityFlags=MAX_TRES reach
// the configuration; a bad weight is an error naming the key.
func TestBillingKeys(t *testing.T) {
	conf := func(cluster, part string) (*Config, error) {
		return Parse(fstest.MapFS{"slurm.conf": {Data: []byte(header + cluster + limitsNodes +
			"PartitionName=p Nodes=n1" + part + "\n")}}, "slurm.conf")
	}
	c, err := conf("PriorityFlags=SMALL_RELATIVE_TO_TIME,MAX_TRES\n", ` TRESBillingWeights="`+peerWeights+`"`)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := c.Partition("p")
	want := BillingWeights{Text: peerWeights, Weights: []BillingWeight{{"cpu", 1}, {"mem", 0.25 / 1024}, {"gres/gpu", 2}}}
	if diff := cmp.Diff(want, p.Billing); diff != "" || !c.BillingMaxTRES {
		t.Errorf("weights (-want +got):\n%s MAX_TRES %v", diff, c.BillingMaxTRES)
	}
	for _, w := range c.Warnings {
		if w.Key == "TRESBillingWeights" || w.Key == "PriorityFlags" {
			t.Errorf("warning %v", w)
		}
	}
	for name, bad := range map[string]string{
		"not a TRES":     "Cpus=1",
		"no weight":      "CPU=",
		"negative":       "CPU=-1",
		"unit on a CPU":  "CPU=1G",
		"not a number":   "Mem=lots",
		"missing equals": "CPU",
	} {
		if _, err := conf("", " TRESBillingWeights="+bad); err == nil || !strings.Contains(err.Error(), "TRESBillingWeights") {
			t.Errorf("%s: %q gave %v", name, bad, err)
		}
	}
}
