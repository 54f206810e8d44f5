//go:build integration

package test

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNodedKill9Restart kills loam-noded with SIGKILL while two jobs run.
// One ends while no daemon runs, the other after the restart; both are
// reported, each exactly once, and the finished jobs' state is cleaned up
// once the controller acknowledged it.
func TestNodedKill9Restart(t *testing.T) {
	cl := nodedCluster(t, nodedtestSpec())
	p := startNoded(t, cl, 0)
	n := cl.Nodes[0]
	gates := t.TempDir()
	early := batch(t, n, 601, `while [ ! -e `+gates+`/early ]; do sleep 0.05; done; echo early done; exit 4`)
	late := batch(t, n, 602, `while [ ! -e `+gates+`/late ]; do sleep 0.05; done; echo late done`)
	p.launch(early)
	p.launch(late)
	started(t, cl, 601)
	started(t, cl, 602)

	p.kill9()
	touch(t, filepath.Join(gates, "early"))
	waitForFile(t, filepath.Join(n.Spool, "jobs", "601", "result.json"))

	startNoded(t, cl, 0)
	if ev := ended(t, cl, 601); ev.ExitCode.String() != "4:0" {
		t.Errorf("job that ended while no daemon ran: %+v", ev)
	}
	touch(t, filepath.Join(gates, "late"))
	if ev := ended(t, cl, 602); ev.ExitCode.String() != "0:0" {
		t.Errorf("job that ended after the restart: %+v", ev)
	}
	if out := output(t, early) + output(t, late); out != "early done\nlate done\n" {
		t.Errorf("outputs = %q", out)
	}
	counts := map[string]int{}
	for _, ev := range cl.Ctld.Events() {
		counts[string(ev.Kind)+"/"+itoa(ev.JobID)]++
	}
	for _, k := range []string{"started/601", "ended/601", "started/602", "ended/602"} {
		if counts[k] != 1 {
			t.Errorf("%s applied %d times, want 1 (all: %v)", k, counts[k], counts)
		}
	}
	done := filepath.Join(n.Spool, "done")
	waitDir(t, done, func() bool { ents, _ := os.ReadDir(done); return len(ents) == 0 })
}
