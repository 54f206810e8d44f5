package controller

import (
	"fmt"
	"testing"
	"time"

	"github.com/loamhpc/loam/pkg/job"
)

// prioFIFO is the test engine with a priority estimate.
type prioFIFO struct {
	*FIFO
	prio int64
}

func (f prioFIFO) Priority(*EngineJob, time.Time) (int64, error) { return f.prio, nil }

// TestS16DeadlineAtSubmitPriority: a job ended DEADLINE at submission
// shows the priority the engine gives it (the peer: --deadline=now+60
// -t 5 shows Priority=12), not 0.
func TestS16DeadlineAtSubmitPriority(t *testing.T) {
	h := newHarness(t)
	h.node("n01")
	h.c.mu.Lock()
	h.c.eng = prioFIFO{FIFO: h.eng, prio: 12}
	h.c.mu.Unlock()
	five, soon := 5*time.Minute, h.clock.Now().Add(time.Minute)
	id := h.mustSubmit(alice, simpleJob(func(r *job.Request) { r.Deadline, r.TimeLimit = &soon, &five }))
	j := h.job(fmt.Sprint(id))
	if j.JobState != job.Deadline || j.Priority != 12 {
		t.Errorf("job %s with priority %d, want DEADLINE with 12", j.JobState, j.Priority)
	}
}
