//go:build integration

package test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/pkg/api"
)

// TestNodedKill9CorruptSpool kills loam-noded with SIGKILL (its jobs'
// supervisors live on), damages its state directory in every way a crash
// or a careless hand can, and starts it again. The daemon starts, names
// each damaged file in its log, moves corrupt records aside, reports the
// end of every job it can know exactly once, keeps the running jobs
// running and reports their ends when they come.
func TestNodedKill9CorruptSpool(t *testing.T) {
	cl := nodedCluster(t, nodedtestSpec())
	p := startNoded(t, cl, 0)
	n := cl.Nodes[0]
	gates := t.TempDir()
	script := func(gate string, code int) string {
		return `while [ ! -e ` + filepath.Join(gates, gate) + ` ]; do sleep 0.05; done; echo ` + gate + `; exit ` + strconv.Itoa(code)
	}
	jobs := map[uint32]*api.LaunchRequest{
		711: batch(t, n, 711, script("run-a", 0)), // runs on; its launch.json is cut short
		712: batch(t, n, 712, script("run-b", 0)), // runs on; lock file gone
		713: batch(t, n, 713, script("end-a", 3)), // ends meanwhile; its result.json is cut short
		714: batch(t, n, 714, script("end-b", 4)), // ends meanwhile; garbage ev-ended.json
	}
	jobs[711].Restarts = 2 // a requeued job: its events must not name another run
	for _, id := range []uint32{711, 712, 713, 714} {
		p.launch(jobs[id])
		started(t, cl, id)
	}

	p.kill9()
	touch(t, filepath.Join(gates, "end-a"))
	touch(t, filepath.Join(gates, "end-b"))
	jobDir := func(id uint32) string { return filepath.Join(n.Spool, "jobs", itoa(id)) }
	waitForFile(t, filepath.Join(jobDir(713), spool.ResultFile))
	waitForFile(t, filepath.Join(jobDir(714), spool.ResultFile))

	truncate := func(path string) {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data[:len(data)/2], 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	truncate(filepath.Join(jobDir(711), spool.LaunchFile))
	if err := os.Remove(filepath.Join(jobDir(712), spool.LockFile)); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	truncate(filepath.Join(jobDir(713), spool.ResultFile))
	write(filepath.Join(jobDir(714), spool.EndedEvent), "\x00garbage{")
	write(filepath.Join(n.Spool, "acked"), "not a number, and longer than the 21 bytes the daemon writes\n")
	if err := os.MkdirAll(jobDir(715), 0o700); err != nil { // made, then the daemon died
		t.Fatal(err)
	}
	write(filepath.Join(n.Spool, "jobs", "notajob", "launch.json"), "{}")
	write(filepath.Join(n.Spool, "jobs", "README"), "hands off\n")
	write(filepath.Join(n.Spool, "done", "later", spool.EndedEvent), "{}")
	write(filepath.Join(n.Spool, "done", "77", spool.EndedEvent), `{"seq":77,"job_i`)

	startNoded(t, cl, 0)
	if ev := ended(t, cl, 713); ev.Kind != api.EventEnded || ev.ExitCode.String() != "0:9" {
		t.Errorf("job whose result.json was cut short ended %s %s, want ended 0:9 (killed, its end unknown)", ev.Kind, ev.ExitCode)
	}
	if ev := ended(t, cl, 714); ev.ExitCode.String() != "4:0" {
		t.Errorf("job whose ev-ended.json was garbage ended %s, want 4:0 from its result", ev.ExitCode)
	}
	if ev := ended(t, cl, 715); ev.Kind != api.EventLaunchFailed {
		t.Errorf("job with an empty directory ended %s, want %s", ev.Kind, api.EventLaunchFailed)
	}
	for _, id := range []uint32{711, 712} {
		if ev, ok := cl.Ctld.Ended(id); ok {
			t.Errorf("running job %d reported ended after the restart: %+v", id, ev)
		}
	}
	// The daemon serves orders for the jobs it re-adopted.
	resp, err := cl.Ctld.Signal(context.Background(), n.Addr, &api.SignalRequest{JobID: 712, Signal: 0})
	if err != nil || resp.Unknown {
		t.Errorf("signal 0 to re-adopted job 712: %+v, %v", resp, err)
	}
	touch(t, filepath.Join(gates, "run-a"))
	touch(t, filepath.Join(gates, "run-b"))
	for _, id := range []uint32{711, 712} {
		ev := ended(t, cl, id)
		if ev.Kind != api.EventEnded || ev.ExitCode.String() != "0:0" {
			t.Errorf("job %d running through the restart ended %s %s, want ended 0:0", id, ev.Kind, ev.ExitCode)
		}
		if ev.Run != nil && *ev.Run != jobs[id].Restarts {
			t.Errorf("job %d's end names run %d, want %d or none", id, *ev.Run, jobs[id].Restarts)
		}
	}
	for id, want := range map[uint32]string{711: "run-a\n", 712: "run-b\n", 713: "end-a\n", 714: "end-b\n"} {
		if got := output(t, jobs[id]); got != want {
			t.Errorf("job %d output %q, want %q", id, got, want)
		}
	}
	counts := map[string]int{}
	for _, ev := range cl.Ctld.Events() {
		counts[string(ev.Kind)+"/"+itoa(ev.JobID)]++
	}
	for _, k := range []string{"started/711", "ended/711", "started/712", "ended/712", "started/713", "ended/713",
		"started/714", "ended/714", "launch_failed/715"} {
		if counts[k] != 1 {
			t.Errorf("%s applied %d times, want 1 (all: %v)", k, counts[k], counts)
		}
	}

	data, err := os.ReadFile(filepath.Join(cl.Dir, n.Name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	log := string(data)
	for _, f := range []string{"jobs/711/launch.json", "jobs/713/result.json", "jobs/714/ev-ended.json", "done/77/ev-ended.json",
		"/acked", "jobs/notajob", "jobs/README", "done/later"} {
		if !strings.Contains(log, filepath.Join(n.Spool, f)) && !strings.Contains(log, n.Spool+f) {
			t.Errorf("the log does not name %s", f)
		}
	}
	for _, f := range []string{"jobs/notajob/launch.json", "jobs/README", "done/later/" + spool.EndedEvent} {
		if _, err := os.Stat(filepath.Join(n.Spool, f)); err != nil {
			t.Errorf("%s, which the daemon does not own, is gone: %v", f, err)
		}
	}
	// Once everything is acknowledged, done/ holds only what is not the
	// daemon's.
	done := filepath.Join(n.Spool, "done")
	waitDir(t, done, func() bool { ents, _ := os.ReadDir(done); return len(ents) == 1 })
	if data, err := os.ReadFile(filepath.Join(n.Spool, "acked")); err != nil || len(strings.TrimSpace(string(data))) != 20 {
		t.Errorf("acked after the restart = %q, %v; want one 20-digit number", data, err)
	}
}
