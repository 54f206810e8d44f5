package controller

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestStdioDefaultMarked: the controller marks the output name it gives
// a job submitted without -o, and a job without -e, so that squeue can
// tell slurm-%j.out given with -o from its own default (the peer prints
// them differently); a name set later with scontrol update is the
// user's.
func TestStdioDefaultMarked(t *testing.T) {
	h := newHarness(t)
	hold := func(r *job.Request) { r.Hold = true }
	ids := map[string]uint32{
		"no -o":                h.mustSubmit(alice, simpleJob(hold)),
		"-o slurm-%j.out":      h.mustSubmit(alice, simpleJob(hold, func(r *job.Request) { r.StdOut = "slurm-%j.out" })),
		"-e slurm-%j.out only": h.mustSubmit(alice, simpleJob(hold, func(r *job.Request) { r.StdErr = "slurm-%j.out" })),
		"client claims default": h.mustSubmit(alice, simpleJob(hold, func(r *job.Request) {
			r.StdOut, r.DefaultOutput = "mine-%j.out", true
		})),
		// Joined uncleaned, as the peer shows sbatch -D / (StdOut=//slurm-N.out).
		"-D /": h.mustSubmit(0, simpleJob(hold, func(r *job.Request) { r.WorkDir, r.UserID = "/", 0 })),
	}
	want := map[string]string{
		"no -o":                 "/tmp/slurm-%j.out /tmp/slurm-%j.out true true",
		"-o slurm-%j.out":       "/tmp/slurm-%j.out /tmp/slurm-%j.out false true",
		"-e slurm-%j.out only":  "/tmp/slurm-%j.out /tmp/slurm-%j.out true false",
		"client claims default": "/tmp/mine-%j.out /tmp/mine-%j.out false true",
		"updated":               "/tmp/x.out /tmp/x.out false true",
		"-D /":                  "//slurm-%j.out //slurm-%j.out true true",
	}
	got := map[string]string{}
	show := func(id uint32) string {
		j := h.job(fmt.Sprint(id))
		return fmt.Sprint(j.StdOut, " ", j.StdErr, " ", j.StdOutDefault, " ", j.StdErrDefault)
	}
	for name, id := range ids {
		got[name] = show(id)
	}
	out := "/tmp/x.out"
	if err := h.updateJob(0, ids["no -o"], api.JobUpdate{StdOut: &out}); err != nil {
		t.Fatal(err)
	}
	got["updated"] = show(ids["no -o"])
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
