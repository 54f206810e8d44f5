package step

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/loamhpc/loam/noded/detach"
	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/noded/unkillable"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/rlimit"
)

// Arg is the hidden first argument that makes loam-noded a step process.
const Arg = "__step"

// Files in a step's directory (<job dir>/step_<id>/).
const (
	SpecFile     = "step.json" // the launch request
	LogFile      = "step.log"  // the step process's log
	SettingsFile = "node.json" // the node's settings in force (Settings)
)

// readyTimeout bounds a step process's startup: its cgroup and the
// connection to srun.
const readyTimeout = 30 * time.Second

// Host is what the node daemon knows that a launch needs.
type Host struct {
	// Node is this node's name; Self the loam-noded executable; JobDir
	// the job's spool directory, whose supervisor is alive.
	Node   string
	Self   string
	JobDir string
	// Settings are slurm.conf's task settings in force when the step is
	// launched; nil keeps the job's (its launch record's).
	Settings *Settings
}

// Settings are what a step takes from slurm.conf as the node daemon has
// it now: a step launched after a reconfigure runs the new TaskProlog,
// as slurmstepd reads slurm.conf when it starts, while the job's batch
// script keeps what it started with.
type Settings struct {
	TaskProlog string     `json:"task_prolog,omitempty"`
	TaskEpilog string     `json:"task_epilog,omitempty"`
	RLimits    rlimit.Set `json:"rlimits,omitempty"`
	// Unkillable is UnkillableStepTimeout and UnkillableStepProgram.
	Unkillable *unkillable.Spec `json:"unkillable,omitempty"`
}

// Dir is the directory of step id of the job in jobDir.
func Dir(jobDir string, id uint32) string {
	return filepath.Join(jobDir, "step_"+strconv.FormatUint(uint64(id), 10))
}

// Launch starts this node's share of a step: it writes the request into
// the step's directory and starts "loam-noded __step DIR" in its own
// session (so it outlives a restart of the daemon, as job supervisors
// do), and answers once the step process has its cgroup and its
// connection to srun, or failed to get them.
func Launch(h Host, req *api.StepLaunchRequest) (*api.StepLaunchResponse, *api.Error) {
	if aerr := checkLaunch(h, req); aerr != nil {
		return nil, aerr
	}
	dir := Dir(h.JobDir, req.StepID)
	if err := os.Mkdir(dir, 0o700); err != nil {
		if errors.Is(err, os.ErrExist) {
			return nil, api.Errorf(api.CodeLaunchFailed, "step %d.%d was already launched on %s", req.JobID, req.StepID, h.Node)
		}
		return nil, api.Errorf(api.CodeLaunchFailed, "step directory: %v", err)
	}
	if err := spool.WriteJSON(filepath.Join(dir, SpecFile), req); err != nil {
		return nil, api.Errorf(api.CodeLaunchFailed, "%v", err)
	}
	if h.Settings != nil {
		if err := spool.WriteJSON(filepath.Join(dir, SettingsFile), h.Settings); err != nil {
			return nil, api.Errorf(api.CodeLaunchFailed, "%v", err)
		}
	}
	pid, err := start(h.Self, dir)
	if err != nil {
		return nil, api.Errorf(api.CodeLaunchFailed, "start step %d.%d on %s: %v", req.JobID, req.StepID, h.Node, err)
	}
	return &api.StepLaunchResponse{Pid: pid}, nil
}

// checkLaunch refuses requests that cannot be right for this node.
func checkLaunch(h Host, req *api.StepLaunchRequest) *api.Error {
	switch {
	case req.JobID == 0:
		return api.Errorf(api.CodeBadRequest, "step launch: job_id is 0")
	case req.NodeIndex < 0 || req.NodeIndex >= len(req.Layout.Nodes):
		return api.Errorf(api.CodeBadRequest, "step launch: node index %d of %d nodes", req.NodeIndex, len(req.Layout.Nodes))
	case req.Layout.Nodes[req.NodeIndex].Node != h.Node:
		return api.Errorf(api.CodeInvalidNodeName, "step launch for node %s reached %s", req.Layout.Nodes[req.NodeIndex].Node, h.Node)
	case len(req.Layout.Nodes[req.NodeIndex].TaskIDs) == 0:
		return api.Errorf(api.CodeBadTaskCount, "step launch without tasks on %s", h.Node)
	case len(req.Step.Argv) == 0:
		return api.Errorf(api.CodeBadRequest, "step launch without a command")
	}
	return nil
}

// start runs the step process and waits until it is ready.
func start(self, dir string) (int, error) {
	return detach.StartLogged(exec.Command(self, Arg, dir), filepath.Join(dir, LogFile), readyTimeout, nil)
}
