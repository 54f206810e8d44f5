package agent

import (
	"errors"
	"testing"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/isolation/isolationtest"
	"github.com/loamhpc/loam/pkg/job"
)

// TestCgroupFailureFailsLaunch: the daemon creates the job's cgroup before
// starting its supervisor; when that fails, the supervisor reports the
// launch failed with the reason, as slurmd does for a job it cannot set up.
func TestCgroupFailureFailsLaunch(t *testing.T) {
	needRoot(t)
	h := startAgentWith(t, newCluster(t), func(a *Agent) {
		a.SetIsolator(&isolationtest.Isolator{CreateErr: errors.New("no memory controller today")})
	})
	h.launch(h.job(41, "echo never"))
	ev := h.ended(41)
	want := "create cgroup: no memory controller today"
	if ev.Kind != api.EventLaunchFailed || ev.ExitCode != (job.ExitCode{Signal: 53}) || ev.Message != want || ev.FailCode != "ESLURMD_SETUP_ENVIRONMENT_ERROR" {
		t.Errorf("end = %+v, want launch failure 0:53 %q", ev, want)
	}
	if h.cl.Ctld.Started(41) {
		t.Error("a job that never ran was reported started")
	}
}
