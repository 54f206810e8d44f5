//go:build integration

package test

import (
	"context"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestNodedTimeLimit: at its time limit a job gets its --signal warning,
// then SIGTERM, then (when it ignores that) SIGKILL after KillWait, and
// ends TIMEOUT with slurmstepd's line in its output.
func TestNodedTimeLimit(t *testing.T) {
	cl := nodedCluster(t, nodedtestSpec())
	p := startNoded(t, cl, 0)
	n := cl.Nodes[0]
	warned := batch(t, n, 401, `trap 'echo warned' USR1; trap 'echo term' TERM; while :; do sleep 0.1; done`)
	// USR1 comes 2 s after the start, so that a loaded machine has set the
	// script's traps by then (an untrapped USR1 would end the job itself).
	warned.TimeLimit, warned.KillWait = 4, 1
	warned.Signal = &job.Signal{Number: 10, Seconds: 2, Batch: true}
	plain := batch(t, n, 402, `sleep 100`)
	plain.TimeLimit, plain.KillWait = 2, 5
	p.launch(warned)
	p.launch(plain)

	ev := ended(t, cl, 401)
	if !ev.TimedOut || ev.ExitCode != (job.ExitCode{Signal: 9}) {
		t.Errorf("job ignoring SIGTERM ended %+v, want timed out by SIGKILL", ev)
	}
	out := output(t, warned)
	for _, w := range []string{"warned\n", "term\n", "*** JOB 401 ON node1 CANCELLED AT ", " DUE TO TIME LIMIT ***"} {
		if !strings.Contains(out, w) {
			t.Errorf("output %q lacks %q", out, w)
		}
	}
	if strings.Index(out, "warned") > strings.Index(out, "term") {
		t.Errorf("warning came after SIGTERM: %q", out)
	}
	// A job that dies of SIGTERM: TIMEOUT with exit 0:15, as Slurm shows.
	if ev := ended(t, cl, 402); !ev.TimedOut || ev.ExitCode != (job.ExitCode{Signal: 15}) {
		t.Errorf("sleeping job ended %+v, want timed out 0:15", ev)
	}
}

// TestNodedPreemption runs the graceful preemption protocol: the victim's
// checkpoint signal, the grace window, SIGKILL; the end says whether the
// job exited inside the window.
func TestNodedPreemption(t *testing.T) {
	cl := nodedCluster(t, nodedtestSpec())
	p := startNoded(t, cl, 0)
	n := cl.Nodes[0]
	marks := t.TempDir()
	saves := batch(t, n, 501, `trap 'echo checkpoint saved; exit 0' USR1; touch `+marks+`/501; while :; do sleep 0.1; done`)
	stuck := batch(t, n, 502, `trap '' USR1 TERM; touch `+marks+`/502; while :; do sleep 0.1; done`)
	p.launch(saves)
	p.launch(stuck)
	// Both scripts have set their traps.
	waitForFile(t, marks+"/501")
	waitForFile(t, marks+"/502")
	ctx := context.Background()
	for id, grace := range map[uint32]int64{501: 30, 502: 1} {
		if _, err := cl.Ctld.Terminate(ctx, n.Addr, &api.TerminateRequest{JobID: id, Reason: api.TerminatePreempt, Signal: 10, Grace: grace}); err != nil {
			t.Fatal(err)
		}
	}
	ev := ended(t, cl, 501)
	if ev.Terminated != api.TerminatePreempt || !ev.ExitedInGrace || ev.ExitCode != (job.ExitCode{}) {
		t.Errorf("checkpointing victim ended %+v, want exited in grace with 0:0", ev)
	}
	if out := output(t, saves); !strings.Contains(out, "checkpoint saved") || !strings.Contains(out, "DUE TO PREEMPTION ***") {
		t.Errorf("output = %q", out)
	}
	ev = ended(t, cl, 502)
	if ev.Terminated != api.TerminatePreempt || ev.ExitedInGrace || ev.ExitCode != (job.ExitCode{Signal: 9}) {
		t.Errorf("stuck victim ended %+v, want killed after the grace window", ev)
	}
}
