//go:build integration

package test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loamhpc/loam/test/clustertest"
)

// TestStriggerFires sets a node --drained trigger and a job --fini trigger
// with the real strigger; draining the node and the job's end run the
// script, which writes its arguments (the node list, the job id) to a
// file. --get lists both before they fire and none after.
func TestStriggerFires(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 2}, "")
	out := filepath.Join(lc.work, "fired.log")
	prog := filepath.Join(lc.work, "trig.sh")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\necho \"$*\" >> "+out+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(name string, args ...string) string {
		code, stdout, stderr := lc.runTool(name, args...)
		if code != 0 {
			t.Fatalf("%s %v: exit %d: %s%s", name, args, code, stdout, stderr)
		}
		return stdout
	}
	node := clustertest.NodeName(1)
	run("strigger", "--set", "--node="+node, "--drained", "--program="+prog)
	id := lc.sbatchID("--wrap", "sleep 2")
	run("strigger", "--set", "--jobid="+id, "--fini", "--program="+prog+" done")
	if got := run("strigger", "--get", "-N"); strings.Count(got, "\n") != 2 {
		t.Fatalf("strigger --get -N:\n%s", got)
	}
	run("scontrol", "update", "NodeName="+node, "State=DRAIN", "Reason=trigger test")
	lc.waitFile("fired.log", "done "+id+"\n")
	lc.waitFile("fired.log", node+"\n")
	lc.eventually("the fired triggers to go", func() error {
		if got := run("strigger", "--get"); got != "" {
			return fmt.Errorf("strigger --get:\n%s", got)
		}
		return nil
	})
}

// TestStriggerReconfigAndQuickDrain: a node drained and resumed by two
// scontrol calls in a row (well within one housekeeping tick) still fires
// --drained with the node's name, and scontrol reconfigure fires
// --reconfig with the argument "reconfig", as Slurm's trigger manager.
func TestStriggerReconfigAndQuickDrain(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 2}, "")
	out := filepath.Join(lc.work, "fired.log")
	prog := filepath.Join(lc.work, "trig.sh")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\necho \"$*\" >> "+out+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(name string, args ...string) {
		if code, stdout, stderr := lc.runTool(name, args...); code != 0 {
			t.Fatalf("%s %v: exit %d: %s%s", name, args, code, stdout, stderr)
		}
	}
	node := clustertest.NodeName(1)
	run("strigger", "--set", "--node="+node, "--drained", "--program="+prog+" drained")
	run("scontrol", "update", "NodeName="+node, "State=DRAIN", "Reason=quick")
	run("scontrol", "update", "NodeName="+node, "State=RESUME")
	lc.waitFile("fired.log", "drained "+node+"\n")
	run("strigger", "--set", "--reconfig", "--program="+prog+" reconf")
	run("scontrol", "reconfigure")
	lc.waitFile("fired.log", "reconf reconfig\n")
}
