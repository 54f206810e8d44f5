package agent

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/noded/step"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/isolation"
)

// signalStep carries out scancel JOB.STEP on this node's share of step
// req.Step of job e. SIGKILL cancels the step through its step process,
// which announces the cancel and kills the tasks, so that srun hears how
// they ended; without a step process the step's cgroup is killed. Any
// other signal goes to the processes of the step's cgroup only: not the
// batch shell, not the other steps. A step that does not run here is
// Unknown, as a job would be.
func (a *Agent) signalStep(e *jobEntry, req *api.SignalRequest) (*api.NodedResponse, *api.Error) {
	id := *req.Step
	dir := step.Dir(e.dir, id)
	if _, err := os.Stat(dir); err != nil {
		return &api.NodedResponse{Unknown: true}, nil
	}
	log := a.log.WithField("job_id", req.JobID).WithField("step_id", id).WithField("signal", req.Signal)
	sig := syscall.Signal(req.Signal)
	if sig == syscall.SIGKILL {
		err := step.Cancel(dir)
		if err == nil {
			log.Info("step cancelled")
			return &api.NodedResponse{}, nil
		}
		if !errors.Is(err, step.ErrNoProcess) {
			return nil, api.Errorf(api.CodeCommunication, "cancel step %d.%d: %v", req.JobID, id, err)
		}
	}
	g, aerr := a.stepGroup(e, id)
	if aerr != nil {
		return nil, aerr
	}
	if g == nil {
		return &api.NodedResponse{Unknown: true}, nil
	}
	var err error
	if sig == syscall.SIGKILL {
		err = g.Kill()
	} else {
		err = g.Signal(sig)
	}
	if err != nil {
		return nil, api.Errorf(api.CodeCommunication, "signal step %d.%d: %v", req.JobID, id, err)
	}
	log.Debug("step signalled")
	return &api.NodedResponse{}, nil
}

// stepGroup loads the cgroup of step id of job e (below the job's, as the
// step process made it); nil without error when there is none.
func (a *Agent) stepGroup(e *jobEntry, id uint32) (isolation.Group, *api.Error) {
	if a.iso == nil {
		return nil, api.Errorf(api.CodeCommunication, "cgroups are unavailable on %s", a.nc.node.Name)
	}
	var l spool.Launch
	if err := spool.ReadJSON(filepath.Join(e.dir, spool.LaunchFile), &l); err != nil {
		return nil, api.Errorf(api.CodeCommunication, "job %d: %v", e.id, err)
	}
	g, err := a.iso.Load(l.Group + "/step_" + strconv.FormatUint(uint64(id), 10))
	switch {
	case errors.Is(err, isolation.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, api.Errorf(api.CodeCommunication, "step %d.%d: %v", e.id, id, err)
	}
	return g, nil
}
