//go:build integration

package test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/test/clustertest"
)

// preemptConf has an urgent queue over a batch queue whose jobs are
// requeued on preemption with a short grace window.
const preemptConf = `PreemptType=preempt/partition_prio
PreemptMode=REQUEUE
PartitionName=urgent Nodes=ALL PriorityTier=10 QueueClass=urgent MaxTime=UNLIMITED DefaultTime=00:10:00 State=UP
PartitionName=batch Nodes=ALL Default=YES PriorityTier=1 QueueClass=batch PreemptMode=REQUEUE GraceTime=%d MaxTime=UNLIMITED DefaultTime=00:10:00 State=UP
`

// checkpointJob is contrib/examples/checkpoint.sbatch as submitted: it
// saves its step on SIGUSR1 and resumes from it after a requeue.
func (lc *liveCluster) checkpointJob(steps int) job.Request {
	lc.t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "contrib", "examples", "checkpoint.sbatch"))
	if err != nil {
		lc.t.Fatal(err)
	}
	return lc.script("", func(r *job.Request) {
		r.Script = string(data)
		r.Name, r.Signal, r.OpenMode = "ckpt-train", &job.Signal{Number: 10, Seconds: 60, Batch: true}, job.OpenAppend
		yes := true
		r.Requeue = &yes
		r.Environment = append(r.Environment, fmt.Sprintf("STEPS=%d", steps), "STEP_SECONDS=0.1", "CKPT_DIR="+lc.work)
		r.GPUsPerNode = gpus(2)
	})
}

// TestLivePreemptCheckpointResume: an urgent job preempts a batch job
// that checkpoints on SIGUSR1; the victim exits inside its grace window
// (checkpoint saved), is requeued with the same id (Restarts=1,
// SLURM_RESTART_COUNT=1), and once the urgent job is done it resumes from
// its checkpoint and completes.
func TestLivePreemptCheckpointResume(t *testing.T) {
	lc := startLive(t, clustertest.Spec{Nodes: 1, GPUs: 2, Extra: fmt.Sprintf(preemptConf, 5)}, "")
	victim := lc.submit(lc.checkpointJob(60))
	lc.waitState(victim, job.Running)
	out := fmt.Sprintf("slurm-%d.out", victim)
	lc.waitFile(fmt.Sprintf("ckpt-%d.progress", victim), "1")

	urgent := lc.submit(lc.script("sleep 1", inPartition("urgent"), withGPUs(2)))
	lc.waitJob(victim, "requeued", func(j api.Job) bool { return j.Restarts == 1 })
	u := lc.waitState(urgent, job.Completed)
	j := lc.waitState(victim, job.Completed)

	if j.JobID != victim || j.Restarts != 1 || j.Preemptions != 1 || j.Checkpoint != "saved" || j.PreemptedBy != urgent || j.PreemptReason != "urgent" {
		t.Errorf("victim: id %d restarts %d preemptions %d checkpoint %q by %d (%s)", j.JobID, j.Restarts, j.Preemptions, j.Checkpoint, j.PreemptedBy, j.PreemptReason)
	}
	if j.StartTime < u.StartTime {
		t.Errorf("the victim restarted at %d, before the urgent job started at %d", j.StartTime, u.StartTime)
	}
	text := lc.file(out)
	for _, want := range []string{"starting (restart 0)", "checkpoint saved at step", "resumed from step", "(restart 1)", "finished at step 60"} {
		if !strings.Contains(text, want) {
			t.Errorf("victim output lacks %q:\n%s", want, text)
		}
	}
	rep, err := lc.cl.PreemptReport(context.Background(), &api.ReportQuery{Period: "day"})
	if err != nil || len(rep.Rows) != 1 || rep.Rows[0].Count != 1 || rep.Rows[0].Checkpointed != 1 || rep.Rows[0].Requeued != 1 {
		t.Errorf("preemption report %+v (%v)", rep, err)
	}
}

// TestLivePreemptSurvivesControllerRestart: loam-ctld is killed (kill -9)
// inside a victim's grace window; after its restart the victim still ends
// requeued (it ignores its signal, so it is killed at the end of the
// window: checkpoint missed) and later runs to completion. No job is lost.
func TestLivePreemptSurvivesControllerRestart(t *testing.T) {
	// A short SlurmdTimeout makes the node daemon heartbeat every 3 s, so
	// it registers again soon after the controller's restart.
	lc := startLive(t, clustertest.Spec{Nodes: 1, GPUs: 2, SlurmdTimeout: 9, Extra: fmt.Sprintf(preemptConf, 6)}, "")
	body := `trap 'echo got USR1' USR1
if [ "${SLURM_RESTART_COUNT:-0}" -gt 0 ]; then echo "second run"; exit 0; fi
touch running; while :; do sleep 0.1; done`
	yes := true
	victim := lc.submit(lc.script(body, withGPUs(2), func(r *job.Request) {
		r.Signal, r.Requeue = &job.Signal{Number: 10, Seconds: 60, Batch: true}, &yes
	}))
	lc.waitFile("running", "")
	urgent := lc.submit(lc.script("sleep 1", inPartition("urgent"), withGPUs(2)))
	lc.waitJob(victim, "signalled", func(j api.Job) bool { return j.PreemptTime != 0 })
	lc.d.Kill()
	lc.d.Restart()
	lc.cl = lc.d.Client()
	lc.waitJob(victim, "requeued", func(j api.Job) bool { return j.Restarts == 1 })
	lc.waitState(urgent, job.Completed)
	j := lc.waitState(victim, job.Completed)
	if j.Checkpoint != "missed" || j.Preemptions != 1 {
		t.Errorf("victim checkpoint %q preemptions %d", j.Checkpoint, j.Preemptions)
	}
	if text := lc.file(fmt.Sprintf("slurm-%d.out", victim)); !strings.Contains(text, "second run") {
		t.Errorf("victim output:\n%s", text)
	}
	var kinds []string
	for _, e := range lc.events(victim) {
		kinds = append(kinds, strings.SplitN(e, ":", 2)[0])
	}
	if got := strings.Join(kinds, ","); !strings.Contains(got, "preempt,preempt_end,requeue") {
		t.Errorf("victim's log %s", got)
	}
}
