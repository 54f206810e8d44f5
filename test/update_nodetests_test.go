//go:build integration

package test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestUpdateJobFeaturesTmpDisk: scontrol update job Features= and
// MinTmpDiskNode= as on the peer (Slurm 22.05). A pending (here held)
// job takes any constraint of valid syntax and known features, even one
// no nodes satisfy, and any temporary disk; it then pends as
// BadConstraints until fixed. A running job refuses both, except its
// own constraint again.
func TestUpdateJobFeaturesTmpDisk(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 2, CPUs: 4, PerNode: []string{
		"Feature=a100,rack1 TmpDisk=100", "Feature=cpu,rack2 TmpDisk=100"}}, "")
	submit := func(args ...string) string {
		t.Helper()
		code, out, errs := lc.runTool("sbatch", append([]string{"--parsable"}, args...)...)
		if _, err := strconv.ParseUint(strings.TrimSpace(out), 10, 32); code != 0 || err != nil {
			t.Fatalf("sbatch %v: exit %d %q %q", args, code, out, errs)
		}
		id := strings.TrimSpace(out)
		t.Cleanup(func() { lc.runTool("scancel", id) })
		return id
	}
	show := func(id, field string) string {
		t.Helper()
		_, out, _ := lc.runTool("scontrol", "show", "job", id)
		for _, w := range strings.Fields(out) {
			if strings.HasPrefix(w, field+"=") {
				return w
			}
		}
		return "no " + field + " in:\n" + out
	}
	type upd struct{ arg, stderr, after string }
	check := func(id string, cases []upd) {
		t.Helper()
		for _, tc := range cases {
			code, _, errs := lc.runTool("scontrol", "update", "job="+id, tc.arg)
			want := 0
			if tc.stderr != "" {
				want = 1
			}
			if code != want || errs != tc.stderr {
				t.Errorf("update %s: exit %d, stderr %q; want %d, %q", tc.arg, code, errs, want, tc.stderr)
			}
			if tc.after == "" {
				continue
			}
			field, _, _ := strings.Cut(tc.after, "=")
			if got := show(id, field); got != tc.after {
				t.Errorf("after update %s: %s, want %s", tc.arg, got, tc.after)
			}
		}
	}

	held := submit("-H", "--wrap=true")
	invalid := "Invalid feature specification for job " + held + "\n"
	check(held, []upd{
		{"Features=cpu,rack2", "", "Features=cpu&rack2"},
		{"Features=a100&&", invalid, "Features=cpu&rack2"},
		{"Features=nosuch", invalid, "Features=cpu&rack2"},
		{"Features=a100&cpu", "", "Features=a100&cpu"},
		{"Features=a100*9", "", "Features=a100*9"},
		{"Features=[cpu|a100]", "", "Features=[cpu|a100]"},
		{"Features=", "", "Features=(null)"},
		{"MinTmpDiskNode=1024", "", "MinTmpDiskNode=1G"},
		{"MinTmpDiskNode=1G", "scontrol: error: Invalid MinTmpDiskNode value: 1G\n", "MinTmpDiskNode=1G"},
		{"MinTmpDiskNode=1500", "", "MinTmpDiskNode=1500M"},
	})
	if code, _, errs := lc.runTool("scontrol", "release", held); code != 0 {
		t.Fatalf("scontrol release: exit %d %q", code, errs)
	}
	lc.eventually("the job pends as BadConstraints", func() error {
		if _, out, _ := lc.runTool("squeue", "-h", "-j", held, "-o", "%T %r"); out != "PENDING BadConstraints\n" {
			return fmt.Errorf("squeue: %q", out)
		}
		return nil
	})
	check(held, []upd{{"MinTmpDiskNode=100", "", "MinTmpDiskNode=100M"}})
	n, _ := strconv.ParseUint(held, 10, 32)
	lc.waitState(uint32(n), job.Completed)

	running := submit("-C", "cpu,rack2", "--wrap", gated("r"))
	n, _ = strconv.ParseUint(running, 10, 32)
	if j := lc.waitState(uint32(n), job.Running); j.Nodes != "n02" {
		t.Errorf("-C cpu,rack2 runs on %q, want n02", j.Nodes)
	}
	notPending := "Job is no longer pending execution for job " + running + "\n"
	check(running, []upd{
		{"Features=cpu&rack2", "", "Features=cpu&rack2"}, // its own: no change
		{"Features=cpu,rack2", notPending, "Features=cpu&rack2"},
		{"Features=nosuch", notPending, ""},
		{"Features=", notPending, ""},
		{"MinTmpDiskNode=0", notPending, "MinTmpDiskNode=0"},
	})
	lc.touch("gate-r")
}
