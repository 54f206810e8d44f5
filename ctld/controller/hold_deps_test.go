package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// TestHeldDependencyNotTestedLife: slurmctld's scheduler passes test no
// dependency of a held job. On the Slurm 22.05 peer, 15 s after job A
// failed, held jobs submitted before or after that show
// "afterok:A(unfulfilled)" and "afternotok:A(unfulfilled)" with
// JobHeldUser, and a job already marked failed keeps "(failed)" when held.
// Once released they are tested.
func TestHeldDependencyNotTestedLife(t *testing.T) {
	h := newHarness(t)
	n := h.node("n01")
	a := h.mustSubmit(alice, simpleJob())
	dep := func(spec string, held bool) job.Request {
		return simpleJob(func(r *job.Request) { r.Dependency = fmt.Sprintf(spec, a); r.Hold = held })
	}
	heldOK := h.mustSubmit(alice, dep("afterok:%d", true))
	heldNotOK := h.mustSubmit(alice, dep("afternotok:%d", true))
	waiting := h.mustSubmit(alice, dep("afterok:%d", false))
	h.cycle()
	h.waitState(fmt.Sprint(a), job.Running)
	n.Launch(t, a, 5*time.Second)
	if err := n.End(a, job.ExitCode{Status: 1}); err != nil {
		t.Fatal(err)
	}
	h.waitState(fmt.Sprint(a), job.Failed)
	heldLate := h.mustSubmit(alice, dep("afterok:%d", true))
	if rs := results(t, h, alice, api.PathHold, api.HoldRequest{JobIDs: []string{fmt.Sprint(waiting)}}); firstErr(rs) != "" {
		t.Fatalf("hold: %+v", rs)
	}
	show := func(ids map[string]uint32) map[string]string {
		got := map[string]string{}
		for name, id := range ids {
			j := h.job(fmt.Sprint(id))
			got[name] = fmt.Sprintf("%s %s", j.StateReason, j.Dependency)
		}
		return got
	}
	ids := map[string]uint32{"afterok held": heldOK, "afternotok held": heldNotOK, "afterok held after the end": heldLate, "failed, then held": waiting}
	want := map[string]string{
		"afterok held":               fmt.Sprintf("JobHeldUser afterok:%d(unfulfilled)", a),
		"afternotok held":            fmt.Sprintf("JobHeldUser afternotok:%d(unfulfilled)", a),
		"afterok held after the end": fmt.Sprintf("JobHeldUser afterok:%d(unfulfilled)", a),
		"failed, then held":          fmt.Sprintf("JobHeldUser afterok:%d(failed)", a),
	}
	if diff := cmp.Diff(want, show(ids)); diff != "" {
		t.Errorf("held (-want +got):\n%s", diff)
	}
	if rs := results(t, h, alice, api.PathRelease, api.ReleaseRequest{JobIDs: []string{fmt.Sprint(heldOK), fmt.Sprint(heldLate)}}); firstErr(rs) != "" {
		t.Fatalf("release: %+v", rs)
	}
	delete(ids, "afternotok held")
	delete(ids, "failed, then held")
	want = map[string]string{
		"afterok held":               fmt.Sprintf("DependencyNeverSatisfied afterok:%d(failed)", a),
		"afterok held after the end": fmt.Sprintf("DependencyNeverSatisfied afterok:%d(failed)", a),
	}
	if diff := cmp.Diff(want, show(ids)); diff != "" {
		t.Errorf("released (-want +got):\n%s", diff)
	}
}
