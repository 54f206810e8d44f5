package sim

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/cluster"
	"github.com/loamhpc/loam/pkg/sched"
)

// e2eOptions builds the replay of TestEndToEndReplay for one policy: a
// generated trace on the 16-node testdata/e2e cluster through the real
// scheduler, with sched.CheckPlan after every cycle.
func e2eOptions(t *testing.T, p sched.Policy, log *bytes.Buffer) Options {
	t.Helper()
	conf, err := LoadConfig(os.DirFS("testdata/e2e"), "slurm.conf", "", "")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := Generate(GenOptions{Seed: 3, Load: 1.3, Nodes: 16, Days: 2})
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Config: cluster.SchedConfig(conf, p), Nodes: cluster.Nodes(conf), Epoch: epoch,
		Checkpoint: time.Hour}
	if log != nil {
		o.Log = log
	}
	if o.Jobs, err = Prepare(recs, o.Config, DefaultPartition(conf)); err != nil {
		t.Fatal(err)
	}
	return o
}

func TestEndToEndReplay(t *testing.T) {
	var results []*Result
	logs := map[sched.Policy]*bytes.Buffer{}
	for _, p := range []sched.Policy{sched.PolicyFCFS, sched.PolicyEASY, sched.PolicyLoam} {
		logs[p] = &bytes.Buffer{}
		res, err := Run(e2eOptions(t, p, logs[p]))
		if err != nil {
			t.Fatalf("%s: %v", policyName(p), err)
		}
		results = append(results, res)
	}
	f, err := os.Open("testdata/e2e.bounds")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := CheckBounds(results, f); err != nil {
		var table bytes.Buffer
		WriteTable(&table, results)
		t.Errorf("metrics out of bounds:\n%v\n%s", err, table.String())
	}

	// Determinism: the same input gives a byte-identical decision log.
	again := &bytes.Buffer{}
	if _, err := Run(e2eOptions(t, sched.PolicyLoam, again)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(logs[sched.PolicyLoam].Bytes(), again.Bytes()) {
		t.Error("two replays of the same trace wrote different loam decision logs")
	}
	if n := bytes.Count(again.Bytes(), []byte("\n")); n < 500 {
		t.Errorf("loam decision log has %d lines, want a busy replay", n)
	}
}
