package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/loamhpc/loam/noded/nodedtest"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestRestartReadoptsRunningJob stops the daemon while a job runs, lets
// the job finish while no daemon runs, starts a new daemon, and checks the
// end is reported once, before the new registration, which lists the job.
func TestRestartReadoptsRunningJob(t *testing.T) {
	needRoot(t)
	cl := newCluster(t)
	h := startAgent(t, cl)
	gate := filepath.Join(t.TempDir(), "gate")
	req := h.job(51, "while [ ! -e "+gate+" ]; do sleep 0.05; done; echo done; exit 7")
	h.launch(req)
	h.startedJob(51)
	h.stop()

	// The job outlives its daemon and ends while none runs.
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	res := filepath.Join(h.node.Spool, "jobs", "51", "result.json")
	waitFile(t, res)

	h2 := startAgent(t, cl)
	ev := h2.ended(51)
	if ev.ExitCode != (job.ExitCode{Status: 7}) {
		t.Errorf("end = %+v, want exit 7", ev)
	}
	if got := readOut(t, req); got != "done\n" {
		t.Errorf("output = %q", got)
	}
	n := 0
	for _, e := range cl.Ctld.Events() {
		if e.JobID == 51 && e.Kind == api.EventEnded {
			n++
		}
	}
	if n != 1 {
		t.Errorf("job end applied %d times, want once", n)
	}
	regs := cl.Ctld.Registers()
	last := regs[len(regs)-1]
	if len(last.Running) != 0 && last.Running[0].JobID != 51 {
		t.Errorf("registration lists %+v", last.Running)
	}
}

// TestRestartWhileRunning restarts the daemon twice during a job; the new
// daemon follows the job to its end.
func TestRestartWhileRunning(t *testing.T) {
	needRoot(t)
	cl := newCluster(t)
	h := startAgent(t, cl)
	gate := filepath.Join(t.TempDir(), "gate")
	h.launch(h.job(52, "while [ ! -e "+gate+" ]; do sleep 0.05; done"))
	h.startedJob(52)
	h.stop()
	h = startAgent(t, cl)
	reg := cl.Ctld.Registers()[len(cl.Ctld.Registers())-1]
	if len(reg.Running) != 1 || reg.Running[0].JobID != 52 {
		t.Errorf("registration after restart lists %+v, want job 52", reg.Running)
	}
	h.stop()
	h = startAgent(t, cl)
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if ev := h.ended(52); ev.ExitCode != (job.ExitCode{}) {
		t.Errorf("end = %+v", ev)
	}
	starts := 0
	for _, e := range cl.Ctld.Events() {
		if e.JobID == 52 && e.Kind == api.EventStarted {
			starts++
		}
	}
	if starts != 1 {
		t.Errorf("start applied %d times", starts)
	}
}

// TestEventsWaitForTheController refuses events for a while: the end is
// kept and delivered once the controller answers, and the finished job's
// directory is removed only after the acknowledgement.
func TestEventsWaitForTheController(t *testing.T) {
	needRoot(t)
	cl := newCluster(t)
	h := startAgent(t, cl)
	cl.Ctld.SetRefuseEvents(true)
	h.launch(h.job(53, "true"))
	done := filepath.Join(h.node.Spool, "done")
	waitFile(t, filepath.Join(h.node.Spool, "jobs")) // layout exists
	if !cl.Ctld.Until(wait, func(c *nodedtest.Ctld) bool { return c.NumHeartbeats() > 1 }) {
		t.Fatal("no heartbeats")
	}
	if ents, _ := os.ReadDir(done); len(ents) != 1 {
		// The end may not be numbered yet; wait for it.
		waitDirEntries(t, done, 1)
	}
	cl.Ctld.SetRefuseEvents(false)
	h.ended(53)
	waitDirEntries(t, done, 0)
	_ = context.Background()
}
