package command

import (
	"io"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// stuckNode plays a node whose step is cancelled (scancel JOB.STEP) but
// whose tasks outlive SIGKILL: it never reports their end.
func stuckNode(n *fakeNode) {
	n.err(0, cancelledLine)
	n.send(api.IOAborted, api.AllTasks, nil)
	_, _ = io.Copy(io.Discard, n.conn) // until srun lets go
}

// TestSrunAbortTimesOut: srun waits KillWait+2 seconds for the tasks of
// an aborted step, then gives up on them saying so and exits 0, as the
// peer's srun did for a step whose task was frozen (scancel 248.0).
func TestSrunAbortTimesOut(t *testing.T) {
	f, _ := runSrunCase(t, srunCase{
		env: insideJobEnv, args: []string{"-N1", "-n2", "sleep", "300"}, layout: oneNode, abortNow: true,
		script:   []func(n *fakeNode){stuckNode},
		wantCode: 0,
		wantStderr: cancelledLine + "srun: Job step aborted: Waiting up to 7 seconds for job step to finish.\n" +
			"srun: error: Timed out waiting for job step to complete\n",
	})
	if len(f.completed) != 1 || f.completed[0].State != job.Cancelled {
		t.Errorf("step end reported %+v, want one CANCELLED", f.completed)
	}
}
