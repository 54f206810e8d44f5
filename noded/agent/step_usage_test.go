package agent

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sirupsen/logrus"

	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/noded/step"
	"github.com/loamhpc/loam/noded/usage"
	"github.com/loamhpc/loam/pkg/api"
)

// usageAgent is a daemon with only what numbering events needs, running
// job 7 in a temporary directory with steps 0 to 2.
func usageAgent(t *testing.T) (*Agent, *jobEntry) {
	t.Helper()
	log := logrus.New()
	log.SetOutput(t.Output())
	a := &Agent{out: newOutbox(), jobs: map[uint32]*jobEntry{}, log: logrus.NewEntry(log)}
	e := newEntry(7, 0, t.TempDir(), nil)
	a.jobs[7] = e
	for id := range uint32(3) {
		if err := os.Mkdir(step.Dir(e.dir, id), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return a, e
}

func stepUsage(node string, task int) api.NodeUsage {
	return api.NodeUsage{Node: node, Tasks: []api.TaskUsage{{Task: task, UserUsec: 1000, MaxRSS: 4096}}}
}

func record(t *testing.T, e *jobEntry, id uint32, n api.NodeUsage) {
	t.Helper()
	if err := usage.WriteStep(step.Dir(e.dir, id), n); err != nil {
		t.Fatal(err)
	}
}

func pendingSteps(o *outbox) []uint32 {
	var out []uint32
	for _, ev := range o.batch() {
		for _, s := range ev.Usage.Steps {
			out = append(out, s.StepID)
		}
	}
	return out
}

// TestStepUsageEventsNumberedOnceInOrder: each ended step's usage becomes
// one event, numbered in the order the steps ended, never twice; a step
// that recorded nothing has none, and the job's end leaves the numbered
// steps out of its fallback.
func TestStepUsageEventsNumberedOnceInOrder(t *testing.T) {
	a, e := usageAgent(t)
	record(t, e, 2, stepUsage("n1", 4))
	record(t, e, 0, stepUsage("n1", 0))
	for _, id := range []uint32{2, 0, 2, 1, 0} { // step 1 recorded nothing
		if err := a.stepUsageEvent(e, id, step.Dir(e.dir, id)); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]uint32{2, 0}, pendingSteps(a.out)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	evs := a.out.batch()
	if evs[0].Seq >= evs[1].Seq || evs[0].Kind != api.EventStepUsage || evs[0].JobID != 7 {
		t.Errorf("events %+v: want step usage of job 7 in increasing order", evs)
	}
	if diff := cmp.Diff(stepUsage("n1", 4), evs[0].Usage.Steps[0].Usage); diff != "" {
		t.Errorf("step 2's usage (-want +got):\n%s", diff)
	}
	if got, err := usage.CollectSteps(e.dir); err != nil || len(got) != 0 {
		t.Errorf("end event fallback: %+v, %v; want no step (all were sent)", got, err)
	}
}

// TestStepUsageEventsSurviveARetriedBatch: the controller acknowledged
// only the first event of a batch and the daemon restarted: the new
// outbox holds the second event again, with its number, and not the
// first; a third step ending then is numbered after it.
func TestStepUsageEventsSurviveARetriedBatch(t *testing.T) {
	a, e := usageAgent(t)
	for _, id := range []uint32{0, 1} {
		record(t, e, id, stepUsage("n1", int(id)))
		if err := a.stepUsageEvent(e, id, step.Dir(e.dir, id)); err != nil {
			t.Fatal(err)
		}
	}
	sent := a.out.batch()
	a.out.ack(sent[0].Seq)

	b, _ := usageAgent(t)
	b.out.acked, b.out.last = sent[0].Seq, sent[0].Seq
	if _, err := b.out.loadEvents(e.dir); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sent[1:], b.out.batch()); diff != "" {
		t.Errorf("after a restart (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(a.out.batch(), b.out.batch()); diff != "" {
		t.Errorf("the restarted daemon differs from the live one (-want +got):\n%s", diff)
	}
	b.jobs[7] = e
	record(t, e, 2, stepUsage("n1", 2))
	if err := b.stepUsageEvent(e, 2, step.Dir(e.dir, 2)); err != nil {
		t.Fatal(err)
	}
	if got := b.out.batch(); len(got) != 2 || got[1].Seq <= sent[1].Seq {
		t.Errorf("third step: events %+v, want it after the resent one", got)
	}
}

// TestStepUsageEventSkips: no event for a run of the job that is no
// longer this daemon's (requeued), nor for a step the job's end event
// already carries.
func TestStepUsageEventSkips(t *testing.T) {
	a, e := usageAgent(t)
	record(t, e, 0, stepUsage("n1", 0))
	record(t, e, 1, stepUsage("n1", 1))
	a.jobs[7] = newEntry(7, 1, e.dir, nil)
	if err := a.stepUsageEvent(e, 0, step.Dir(e.dir, 0)); err != nil || len(a.out.pending) != 0 {
		t.Errorf("earlier run: %d events, %v; want none", len(a.out.pending), err)
	}
	a.jobs[7] = e
	res := api.JobEvent{Kind: api.EventEnded, Usage: &api.JobUsage{Steps: []api.StepNodeUsage{{StepID: 1, Usage: stepUsage("n1", 1)}}}}
	if err := spool.WriteJSON(filepath.Join(e.dir, spool.ResultFile), res); err != nil {
		t.Fatal(err)
	}
	for _, id := range []uint32{0, 1} {
		if err := a.stepUsageEvent(e, id, step.Dir(e.dir, id)); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]uint32{0}, pendingSteps(a.out)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

// TestBatchBoundsTaskRecords: a batch stops before the task records pass
// maxBatchTasks, in number order, but always holds the oldest event.
func TestBatchBoundsTaskRecords(t *testing.T) {
	ev := func(seq uint64, tasks int) api.JobEvent {
		return api.JobEvent{Seq: seq, Kind: api.EventStepUsage,
			Usage: &api.JobUsage{Steps: []api.StepNodeUsage{{Usage: api.NodeUsage{Tasks: make([]api.TaskUsage, tasks)}}}}}
	}
	tests := map[string]struct {
		events []api.JobEvent
		want   []uint64
	}{
		"events without usage fill a batch": {
			events: []api.JobEvent{{Seq: 3}, {Seq: 1}, {Seq: 2}},
			want:   []uint64{1, 2, 3},
		},
		"the bound stops the batch": {
			events: []api.JobEvent{ev(1, maxBatchTasks-10), ev(2, 10), ev(3, 1), {Seq: 4}},
			want:   []uint64{1, 2},
		},
		"an oversized oldest event goes alone": {
			events: []api.JobEvent{ev(5, maxBatchTasks+1), ev(6, 1)},
			want:   []uint64{5},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			o := newOutbox()
			for _, e := range tc.events {
				o.add(e)
			}
			var got []uint64
			for _, e := range o.batch() {
				got = append(got, e.Seq)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("batch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAdoptStepsNumbersWhatEndedMeanwhile: after a restart, a step whose
// process exited while no daemon watched has its usage numbered; one
// numbered before keeps its event (loaded with the job's) and number.
func TestAdoptStepsNumbersWhatEndedMeanwhile(t *testing.T) {
	a, e := usageAgent(t)
	record(t, e, 0, stepUsage("n1", 0))
	if err := a.stepUsageEvent(e, 0, step.Dir(e.dir, 0)); err != nil {
		t.Fatal(err)
	}
	first := a.out.batch()
	record(t, e, 1, stepUsage("n1", 1)) // ended while the daemon was down

	b, _ := usageAgent(t)
	b.jobs[7] = e
	if _, err := b.out.loadEvents(e.dir); err != nil {
		t.Fatal(err)
	}
	b.adoptSteps(e)
	got := b.out.batch()
	if len(got) != 2 || cmp.Diff(first[0], got[0]) != "" || got[1].Usage.Steps[0].StepID != 1 || got[1].Seq <= got[0].Seq {
		t.Errorf("after adoption %+v; want step 0's event as before, then step 1's", got)
	}
}
