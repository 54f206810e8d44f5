//go:build integration

package test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/client"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// counterScript counts in the file count ten times a second and writes
// "term" to the file term when SIGTERM comes.
const counterScript = `trap 'echo term > term; exit 0' TERM
i=0; while :; do i=$((i+1)); echo $i > count; sleep 0.1; done`

// readCount reads a counter file ("" while it does not exist).
func readCount(path string) string {
	data, _ := os.ReadFile(path)
	return strings.TrimSpace(string(data))
}

// waitCounting waits until the counter at path moves.
func waitCounting(t *testing.T, path string) {
	t.Helper()
	first := readCount(path)
	clustertest.Eventually(t, 30*time.Second, path+" to count", func() error {
		if c := readCount(path); c == "" || c == first {
			return fmt.Errorf("count %q", c)
		}
		return nil
	})
}

// assertFrozen checks that the counter at path stands still for a second:
// the job's processes are frozen. (A fixed wait: what is checked is that
// nothing happens.)
func assertFrozen(t *testing.T, path, what string) {
	t.Helper()
	// The freeze may take a moment to reach a process inside the kernel.
	time.Sleep(200 * time.Millisecond)
	before := readCount(path)
	time.Sleep(time.Second)
	if after := readCount(path); after != before {
		t.Errorf("%s: counter moved from %s to %s while suspended", what, before, after)
	}
}

// TestSuspendNoded drives a real loam-noded: a suspended job's processes
// stop and its time limit stands still, across a daemon restart; resumed,
// it runs out its remaining time; a suspended job that is cancelled is
// thawed first and handles SIGTERM.
func TestSuspendNoded(t *testing.T) {
	cl := nodedCluster(t, nodedtestSpec())
	p := startNoded(t, cl, 0)
	n := cl.Nodes[0]
	ctld := client.NewNoded(auth.NewSigner(cl.Key, "loam-ctld"), 30*time.Second)
	ctx := context.Background()
	order := func(id uint32, resume bool) {
		t.Helper()
		if _, err := ctld.Suspend(ctx, n.Addr, &api.NodeSuspendRequest{JobID: id, Resume: resume}); err != nil {
			t.Fatalf("suspend job %d (resume %v): %v", id, resume, err)
		}
	}

	limited := batch(t, n, 601, counterScript)
	limited.TimeLimit = 3
	cancelled := batch(t, n, 602, counterScript)
	p.launch(limited)
	p.launch(cancelled)
	count1 := filepath.Join(limited.WorkDir, "count")
	count2 := filepath.Join(cancelled.WorkDir, "count")
	waitCounting(t, count1)
	waitCounting(t, count2)
	order(601, false)
	order(602, false)
	order(601, false) // repeated: harmless
	assertFrozen(t, count1, "job 601")

	// The daemon restarts; the job stays frozen and its limit (3 s, well
	// past by now) does not end it.
	p.kill9()
	startNoded(t, cl, 0)
	assertFrozen(t, count1, "job 601 after a daemon restart")
	if ev, ok := cl.Ctld.Ended(601); ok {
		t.Fatalf("suspended job ended %+v", ev)
	}

	resumed := time.Now()
	order(601, true)
	waitCounting(t, count1)
	ev := ended(t, cl, 601)
	if !ev.TimedOut {
		t.Errorf("job 601 ended %+v, want timed out", ev)
	}
	if ran := time.Since(resumed); ran > 3*time.Second+10*time.Second {
		t.Errorf("job 601 ran %s after its resume, want its remaining time", ran)
	}

	assertFrozen(t, count2, "job 602")
	if _, err := cl.Ctld.Terminate(ctx, n.Addr, &api.TerminateRequest{JobID: 602, Reason: api.TerminateCancel, Grace: 30}); err != nil {
		t.Fatal(err)
	}
	ev = ended(t, cl, 602)
	if ev.Terminated != api.TerminateCancel || ev.ExitCode != (job.ExitCode{}) {
		t.Errorf("cancelled suspended job ended %+v, want cancelled with 0:0 (its trap ran)", ev)
	}
	if data, _ := os.ReadFile(filepath.Join(cancelled.WorkDir, "term")); string(data) != "term\n" {
		t.Errorf("cancelled suspended job's term file = %q, want its SIGTERM trap's line", data)
	}
}

// TestSuspendLive runs scontrol suspend / resume on a real cluster: squeue
// and scontrol show the suspension, the job keeps its node (a job that
// only fits on its CPUs stays pending), the end moves by the time
// suspended, the suspension survives controller and node daemon restarts,
// and scancel of a suspended job lets it handle SIGTERM.
func TestSuspendLive(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 1, CPUs: 2, SlurmdTimeout: 9}, "")
	a := lc.submit(lc.script(counterScript, withLimit(10*time.Minute), func(r *job.Request) { r.CPUsPerTask = 2 }))
	lc.waitState(a, job.Running)
	count := filepath.Join(lc.work, "count")
	waitCounting(t, count)
	sa := fmt.Sprint(a)
	tool := func(name string, args ...string) string { t.Helper(); return mustTool(t, lc.c, lc.work, name, args...) }

	if out := tool("scontrol", "suspend", sa); out != "" {
		t.Errorf("scontrol suspend printed %q", out)
	}
	assertFrozen(t, count, "suspended job")
	if got, want := tool("squeue", "-h", "-j", sa, "-o", "%i %t %T %r %N"), sa+" S SUSPENDED None n01\n"; got != want {
		t.Errorf("squeue = %q, want %q", got, want)
	}
	show := tool("scontrol", "show", "job", sa)
	for _, w := range []string{"JobState=SUSPENDED", "SuspendTime=20", "SecsPreSuspend="} {
		if !strings.Contains(show, w) {
			t.Errorf("scontrol show job lacks %q:\n%s", w, show)
		}
	}
	if r := runTool(t, lc.c, lc.work, "", "scontrol", "resume", "999999"); r.code != 1 || r.stderr != "Unexpected message received for job 999999\n" {
		t.Errorf("resume of an unknown job: exit %d, stderr %q", r.code, r.stderr)
	}

	// The suspended job keeps its CPUs: a one-CPU job cannot start.
	b := lc.submit(lc.script("true"))
	lc.waitJob(b, "pending for resources", func(j api.Job) bool {
		return j.JobState == job.Pending && j.StateReason == job.ReasonResources
	})

	time.Sleep(time.Second) // be suspended a measurable time
	tool("scontrol", "resume", sa)
	j := lc.waitState(a, job.Running)
	if j.SuspendedSecs < 1 || j.EndTime != j.StartTime+600+j.SuspendedSecs {
		t.Errorf("resumed: suspended %d s, start %d, end %d; want the end moved by the time suspended", j.SuspendedSecs, j.StartTime, j.EndTime)
	}
	want := fmt.Sprintf("%02d:%02d:%02d\n", j.SuspendedSecs/3600, j.SuspendedSecs/60%60, j.SuspendedSecs%60)
	if got := tool("sacct", "-n", "-P", "-X", "-j", sa, "-o", "Suspended"); got != want {
		t.Errorf("sacct Suspended = %q, want %q", got, want)
	}
	waitCounting(t, count)
	if r := runTool(t, lc.c, lc.work, "", "scontrol", "resume", sa); r.code != 1 || r.stderr != "Job is not suspended for job "+sa+"\n" {
		t.Errorf("resume of a running job: exit %d, stderr %q", r.code, r.stderr)
	}

	tool("scontrol", "suspend", sa)
	lc.waitState(a, job.Suspended)
	lc.d.Stop()
	lc.d.Restart()
	// The node daemon registers again (its next heartbeat is told to);
	// only then can the controller reach the job.
	lc.eventually("the node to register again", func() error {
		resp, err := lc.cl.Nodes(context.Background(), &api.NodeQuery{})
		if err != nil {
			return err
		}
		if st := resp.Nodes[0].State; strings.Contains(st, "DOWN") || strings.Contains(st, "UNKNOWN") || strings.Contains(st, "*") {
			return fmt.Errorf("node is %s", st)
		}
		return nil
	})
	if j := lc.job(a); j.JobState != job.Suspended {
		t.Errorf("job is %s after the controller restart, want SUSPENDED", j.JobState)
	}
	assertFrozen(t, count, "after a controller restart")
	if st := lc.job(b); st.JobState != job.Pending {
		t.Errorf("the one-CPU job is %s after the restart, want PENDING", st.JobState)
	}

	tool("scancel", sa)
	j = lc.waitState(a, job.Cancelled)
	lc.waitFile("term", "term")
	if j.ExitCode != (job.ExitCode{}) {
		t.Errorf("cancelled suspended job exited %s, want 0:0 (its SIGTERM trap ran)", j.ExitCode)
	}
	lc.waitState(b, job.Completed)
}
