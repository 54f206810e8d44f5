package controller

import (
	"fmt"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestStoppedBySignal: once scancel -s STOP reached a running job it
// shows STOPPED (squeue -t ST lists it, -t R does not) until SIGCONT, as
// on the Slurm 22.05 peer; a requeue forgets it.
func TestStoppedBySignal(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	id := h.mustSubmit(alice, simpleJob())
	h.cycle()
	n.Launch(t, id, 5e9)
	ids := []string{fmt.Sprint(id)}
	signal := func(sig syscall.Signal) {
		t.Helper()
		if rs := results(t, h, alice, api.PathCancel, api.CancelRequest{Filter: api.JobFilter{JobIDs: ids}, Signal: int(sig)}); firstErr(rs) != "" {
			t.Fatalf("signal %d: %+v", sig, rs)
		}
		h.c.inflight.Wait()
	}
	listed := func(state string) bool {
		var out api.JobsResponse
		if err := h.call(0, api.PathJobs, api.JobQuery{JobIDs: ids, States: []string{state}}, &out); err != nil {
			t.Fatalf("query -t %s: %v", state, err)
		}
		return len(out.Jobs) == 1
	}
	type seen struct {
		Stopped, ByR, ByST bool
	}
	look := func() seen { return seen{h.job(ids[0]).Stopped, listed("R"), listed("ST")} }
	var got []seen
	signal(syscall.SIGUSR1)
	got = append(got, look())
	signal(syscall.SIGSTOP)
	got = append(got, look())
	signal(syscall.SIGCONT)
	got = append(got, look())
	signal(syscall.SIGSTOP)
	if rs := results(t, h, 0, api.PathRequeue, api.RequeueRequest{JobIDs: ids}); firstErr(rs) != "" {
		t.Fatalf("requeue: %+v", rs)
	}
	h.waitState(ids[0], job.Pending)
	got = append(got, seen{Stopped: h.job(ids[0]).Stopped})
	want := []seen{{false, true, false}, {true, false, true}, {false, true, false}, {false, false, false}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
