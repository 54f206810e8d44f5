//go:build integration

package test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestReconfigureNodeSettings: after scontrol reconfigure the node daemon
// runs the Prolog and TaskProlog slurm.conf now names for new jobs,
// without a restart, as slurmd does on the peer (a Prolog added to
// slurm.conf ran for the next job after scontrol reconfigure); a job that
// started before keeps what it started with. A slurm.conf that does not
// load is refused by the controller, and on SIGHUP by the node daemon,
// which logs the file and line, keeps running with the settings in force
// and still starts jobs.
func TestReconfigureNodeSettings(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 1}, "")
	dir := lc.work
	prolog := filepath.Join(dir, "prolog.sh")
	task := filepath.Join(dir, "task.sh")
	writeExec(t, prolog, fmt.Sprintf("#!/bin/sh\ntouch %s/prolog-$SLURM_JOB_ID\n", dir))
	writeExec(t, task, "#!/bin/sh\necho export RECONF=new\n")

	// A job that runs across the reconfigure: it started without scripts.
	lc.touch("hold")
	early := lc.submit(lc.script(`touch early.running; while [ -e hold ]; do sleep 0.1; done; echo "early:${RECONF:-none}" > early.out`))
	lc.waitFile("early.running", "") // its node has it, not only the controller

	appendFile(t, lc.c.ConfPath, fmt.Sprintf("Prolog=%s\nTaskProlog=%s\n", prolog, task))
	if code, out, errb := lc.runTool("scontrol", "reconfigure"); code != 0 || out != "" || errb != "" {
		t.Fatalf("scontrol reconfigure: %d %q %q", code, out, errb)
	}
	late := lc.submit(lc.script(`echo "late:${RECONF:-none}" > late.out; test -e prolog-$SLURM_JOB_ID`))
	lc.waitState(late, job.Completed)
	lc.waitFile("late.out", "late:new\n")
	if err := os.Remove(filepath.Join(dir, "hold")); err != nil {
		t.Fatal(err)
	}
	lc.waitState(early, job.Completed)
	lc.waitFile("early.out", "early:none\n")
	if _, err := os.Stat(filepath.Join(dir, fmt.Sprint("prolog-", early))); err == nil {
		t.Errorf("the prolog ran for job %d, which started before it was configured", early)
	}

	// A slurm.conf that does not load: the controller refuses it...
	lines := strings.Count(readText(t, lc.c.ConfPath), "\n")
	appendFile(t, lc.c.ConfPath, "KillWait=soon\n")
	if code, _, errb := lc.runTool("scontrol", "reconfigure"); code != 1 || !strings.Contains(errb, fmt.Sprintf("%s:%d", lc.c.ConfPath, lines+1)) {
		t.Errorf("scontrol reconfigure of a bad file: exit %d, %q", code, errb)
	}
	// ...and so does the node daemon on SIGHUP, which goes on.
	nd := lc.nodes[0]
	if err := nd.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(lc.c.Dir, clustertest.NodeName(0)+".log")
	lc.eventually("the node daemon logs the refused file", func() error {
		log := readText(t, logPath)
		if !strings.Contains(log, "reconfigure failed") || !strings.Contains(log, fmt.Sprintf("%s:%d", lc.c.ConfPath, lines+1)) {
			return fmt.Errorf("log: %s", log)
		}
		return nil
	})
	select {
	case <-nd.done:
		t.Fatal("loam-noded exited on a bad slurm.conf")
	default:
	}
	after := lc.submit(lc.script(`echo "after:${RECONF:-none}" > after.out; test -e prolog-$SLURM_JOB_ID`))
	lc.waitState(after, job.Completed)
	lc.waitFile("after.out", "after:new\n")
}

func writeExec(t *testing.T, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
}

func appendFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

func readText(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
