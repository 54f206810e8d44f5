package controller

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
	"github.com/loamhpc/loam/test/clustertest"
)

// TestStepLimits: MaxStepCount refuses a job's steps from the limit on
// ("Step limit reached for this job"; the peer with MaxStepCount=3 ran
// steps 0-2 and refused the fourth), MaxTasksPerNode a step with more
// tasks on a node ("Task count specification invalid").
func TestStepLimits(t *testing.T) {
	conf := &slurmconf.Config{MaxStepCount: 3, MaxTasksPerNode: 8}
	layout := func(tasks ...int) *api.StepLayout {
		l := &api.StepLayout{}
		next := 0
		for _, n := range tasks {
			var ids []int
			for range n {
				ids = append(ids, next)
				next++
			}
			l.Nodes = append(l.Nodes, api.StepNode{Node: "n", TaskIDs: ids})
		}
		return l
	}
	text := func(e *api.Error) string {
		if e == nil {
			return ""
		}
		return e.Code.Text()
	}
	got := map[string]string{
		"step 2":             text(stepCountLimit(conf, 2)),
		"step 3":             text(stepCountLimit(conf, 3)),
		"8 tasks on a node":  text(stepTasksLimit(conf, layout(8, 8))),
		"9 tasks on a node":  text(stepTasksLimit(conf, layout(1, 9))),
		"no limits (zeroes)": text(stepTasksLimit(&slurmconf.Config{}, layout(1000))),
	}
	want := map[string]string{
		"step 2":             "",
		"step 3":             "Step limit reached for this job",
		"8 tasks on a node":  "",
		"9 tasks on a node":  "Task count specification invalid",
		"no limits (zeroes)": "",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestCtldPrologFailCause: an interactive allocation CONFIGURING while
// PrologSlurmctld runs is not ready and has no cause; once the prolog
// fails it has ended with the cause its client prints.
func TestCtldPrologFailCause(t *testing.T) {
	h, f := scriptsHarness(t, ctldScriptsConf)
	h.node("n01")
	var sub api.SubmitResponse
	if err := h.call(alice, api.PathAllocate, api.AllocateRequest{Job: job.Request{Name: "salloc", WorkDir: "/tmp"}}, &sub); err != nil {
		t.Fatal(err)
	}
	h.cycle()
	wait := func() api.Allocation {
		var al api.Allocation
		if err := h.call(alice, api.PathAllocationWait, api.AllocationWaitRequest{JobID: sub.JobID}, &al); err != nil {
			t.Fatal(err)
		}
		return al
	}
	if al := wait(); al.State != job.Configuring || al.Ready || al.Ended || al.Cause != "" {
		t.Errorf("while the prolog runs: %+v, want CONFIGURING, not ready, no cause", al)
	}
	f.end(t, sub.JobID, errors.New("exit status 1"))
	clustertest.Eventually(t, 10*time.Second, "the allocation ends", func() error {
		if !wait().Ended {
			return errors.New("not ended")
		}
		return nil
	})
	if al := wait(); al.Cause != "PrologSlurmctld failed, job killed" || al.State != job.Cancelled {
		t.Errorf("after the failed prolog: state %s cause %q, want CANCELLED and the peer's message", al.State, al.Cause)
	}
}
