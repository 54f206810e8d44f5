package sim

import (
	"bytes"
	"strings"
	"testing"
)

func genBytes(t *testing.T, o GenOptions) []byte {
	t.Helper()
	recs, err := Generate(o)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteTrace(&buf, recs); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestGenerateIsDeterministic(t *testing.T) {
	o := GenOptions{Seed: 42, Load: 0.9, Nodes: 32, Days: 2}
	a, b := genBytes(t, o), genBytes(t, o)
	if !bytes.Equal(a, b) {
		t.Fatal("the same seed gave two different traces")
	}
	o.Seed = 43
	if bytes.Equal(a, genBytes(t, o)) {
		t.Error("seeds 42 and 43 gave the same trace")
	}
	golden(t, "gen_seed42_head.csv", []byte(strings.Join(strings.SplitN(string(a), "\n", 12)[:11], "\n")+"\n"))
}

// TestGenerateCalibration checks the generated workload against the Acme
// figures it is calibrated to (acme_cluster_summary.csv), with bounds wide
// enough for one week on 256 nodes.
func TestGenerateCalibration(t *testing.T) {
	for _, load := range []float64{0.7, 0.9, 1.1} {
		o := GenOptions{Seed: 1, Load: load, Nodes: 256, Days: 7}
		recs, err := Generate(o)
		if err != nil {
			t.Fatal(err)
		}
		c := Calibrate(recs, 256*8, 7)
		var buf bytes.Buffer
		c.Write(&buf)
		t.Logf("load %.1f:\n%s", load, buf.String())
		checks := []struct {
			name   string
			got    float64
			lo, hi float64
		}{
			{"offered load", c.OfferedLoad, load * 0.95, load * 1.05},
			{"median GPU-job runtime (s)", c.MedianRunGPU, 60, 240},
			{"mean GPUs per GPU job", c.MeanGPUs, 5, 27},
			{"max GPUs", float64(c.MaxGPUs), 1024, 1024},
			{"single-GPU share", c.SingleGPUShare, 0.4, 0.8},
			{"GPU time in jobs of a day or more", c.LongGPUTimeShare, 0.5, 0.98},
			{"GPU time of the top 1% of jobs", c.Top1GPUTimeShare, 0.6, 0.99},
			{"median requested/actual time", c.MedianOverAsk, 2, 20},
			{"timeout share", c.TimeoutShare, 0.01, 0.06},
			{"urgent share", c.QueueShare["urgent"], 0.005, 0.03},
			{"batch share", c.QueueShare["batch"], 0.1, 0.3},
		}
		for _, ck := range checks {
			if ck.got < ck.lo || ck.got > ck.hi {
				t.Errorf("load %.1f: %s = %.3f, want within [%g, %g]", load, ck.name, ck.got, ck.lo, ck.hi)
			}
		}
		if !c.MultiNodeWhole {
			t.Errorf("load %.1f: a multi-node job uses partial nodes", load)
		}
	}
}

func TestGenerateRefusesBadOptions(t *testing.T) {
	tests := map[string]GenOptions{
		"no nodes":      {Load: 0.9, Days: 1},
		"zero load":     {Nodes: 4, Days: 1},
		"negative days": {Nodes: 4, Load: 1, Days: -1},
		"empty tenants": {Nodes: 4, Load: 1, Days: 1, Tenants: []GenTenant{}},
	}
	for name, o := range tests {
		t.Run(name, func(t *testing.T) {
			if _, err := Generate(o); err == nil {
				t.Error("Generate accepted the options")
			}
		})
	}
}
