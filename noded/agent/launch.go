package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/loamhpc/loam/noded/detach"
	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/noded/supervisor"
	"github.com/loamhpc/loam/noded/unkillable"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/gpu"
	"github.com/loamhpc/loam/pkg/isolation"
	"github.com/loamhpc/loam/pkg/job"
)

// readyTimeout bounds a supervisor's startup.
const readyTimeout = 30 * time.Second

// launch starts a job's supervisor. A launch of a job already running here
// answers with its supervisor again (the controller may retry).
func (a *Agent) launch(ctx context.Context, req *api.LaunchRequest) (*api.LaunchResponse, *api.Error) {
	if err := a.checkLaunch(req); err != nil {
		return nil, err
	}
	a.mu.Lock()
	if e, ok := a.jobs[req.JobID]; ok {
		a.mu.Unlock()
		if e.run == req.Restarts { // the same launch again
			<-e.ready
			if e.failed != nil {
				return nil, e.failed
			}
			return &api.LaunchResponse{Pid: e.pid}, nil
		}
		// A requeued job's earlier run is still ending here (its stop
		// reached this node after the batch node reported the end).
		select {
		case <-e.gone:
			return a.launch(ctx, req)
		case <-time.After(readyTimeout):
			return nil, api.Errorf(api.CodeLaunchFailed, "job %d: an earlier run is still ending on %s", req.JobID, a.nc.node.Name)
		case <-ctx.Done():
			return nil, api.Errorf(api.CodeLaunchFailed, "job %d: %v", req.JobID, ctx.Err())
		}
	}
	// A directory left by an earlier run of this job id (a requeued job)
	// is reported and moved aside first.
	dir := a.spool.JobDir(req.JobID)
	if spool.Exists(dir) {
		if supervisor.Alive(dir) {
			a.mu.Unlock()
			return nil, api.Errorf(api.CodeLaunchFailed, "job %d: an earlier run is still ending on %s", req.JobID, a.nc.node.Name)
		}
		if err := a.endJob(req.JobID); err != nil {
			a.mu.Unlock()
			return nil, api.Errorf(api.CodeLaunchFailed, "job %d: clear earlier run: %v", req.JobID, err)
		}
	}
	l, cpus, err := a.plan(req)
	if err != nil {
		a.mu.Unlock()
		return nil, api.Errorf(api.CodeLaunchFailed, "%v", err)
	}
	e := newEntry(req.JobID, req.Restarts, dir, cpus)
	a.jobs[req.JobID] = e
	a.mu.Unlock()

	a.createGroup(dir, l)
	pid, err := a.startSupervisor(dir)
	e.pid = pid
	if err != nil {
		e.failed = api.Errorf(api.CodeLaunchFailed, "start job supervisor on %s: %v", a.nc.node.Name, err)
	}
	close(e.ready)
	if err != nil {
		a.removeGroup(l.Group)
		a.mu.Lock()
		a.cpus.release(cpus)
		delete(a.jobs, req.JobID)
		close(e.gone)
		a.mu.Unlock()
		_ = os.RemoveAll(dir)
		a.log.WithError(err).WithField("job_id", req.JobID).Error("start job supervisor")
		return nil, e.failed
	}
	go a.watch(a.ctx, e)
	return &api.LaunchResponse{Pid: pid}, nil
}

// checkLaunch refuses requests that cannot be right for this node.
func (a *Agent) checkLaunch(req *api.LaunchRequest) *api.Error {
	switch {
	case req.Alloc.Node != "" && req.Alloc.Node != a.nc.node.Name:
		return api.Errorf(api.CodeInvalidNodeName, "launch of job %d for node %s reached %s", req.JobID, req.Alloc.Node, a.nc.node.Name)
	case req.Batch && req.Script == "":
		return api.Errorf(api.CodeScriptMissing, "launch of job %d has no script", req.JobID)
	case req.Batch && req.UserName == "":
		return api.Errorf(api.CodeUserIDMissing, "launch of job %d has no user name", req.JobID)
	}
	if _, err := gpu.ByIndex(a.hw.gpus, req.Alloc.GPUs); err != nil {
		return api.Errorf(api.CodeLaunchFailed, "job %d: %v", req.JobID, err)
	}
	return nil
}

// plan decides the job's CPUs, memory limit and devices on this node and
// writes its launch file. The caller holds a.mu.
func (a *Agent) plan(req *api.LaunchRequest) (*spool.Launch, []int, error) {
	cpus, err := a.cpus.take(req.Alloc.CPUs, req.Alloc.CPUIDs)
	if err != nil {
		return nil, nil, err
	}
	r := *req
	r.Alloc.CPUIDs = job.FormatRanges(cpus)
	gpus, _ := gpu.ByIndex(a.hw.gpus, req.Alloc.GPUs)
	// The settings in force now go into the launch record: the job keeps
	// them across a reconfigure, as slurmstepd keeps the ones it started
	// with.
	conf := a.conf()
	l := &spool.Launch{
		Request: r, Node: a.nc.node.Name, Hostname: a.nc.hostname, ConfPath: a.confPath,
		Group:       filepath.Join(a.cgroupRoot, fmt.Sprintf("job_%d", req.JobID)),
		CPUs:        a.cpus.hostList(cpus),
		MemoryBytes: memoryLimit(req) << 20,
		PidsMax:     a.opts.PidsMax,
		GPUs:        gpus,
		DenyDevices: denied(a.hw.gpus, req.Alloc.GPUs),
		Received:    time.Now(),
		TaskProlog:  conf.Scripts.TaskProlog,
		TaskEpilog:  conf.Scripts.TaskEpilog,
		RLimits:     conf.PropagateRLimits,
		Unkillable:  &unkillable.Spec{Timeout: conf.Unkillable.Timeout, Program: conf.Unkillable.Program},
	}
	a.setNodeScripts(l) // nodeprolog.go
	dir := a.spool.JobDir(req.JobID)
	err = os.MkdirAll(dir, 0o700)
	if err == nil {
		err = spool.WriteJSON(filepath.Join(dir, spool.LaunchFile), l)
	}
	if err != nil {
		a.cpus.release(cpus)
		return nil, nil, fmt.Errorf("job %d: write launch: %w", req.JobID, err)
	}
	return l, cpus, nil
}

// memoryLimit is the job's memory on this node in MB: the controller's
// allocation, else what --mem, --mem-per-cpu or --mem-per-gpu give; 0 is
// no limit.
func memoryLimit(r *api.LaunchRequest) int64 {
	switch {
	case r.Alloc.Memory > 0:
		return r.Alloc.Memory
	case r.MemPerNode > 0:
		return r.MemPerNode
	case r.MemPerCPU > 0:
		return r.MemPerCPU * int64(max(r.Alloc.CPUs, 1))
	case r.MemPerGPU > 0:
		return r.MemPerGPU * int64(len(r.Alloc.GPUs))
	}
	return 0
}

// denied lists the device files of the node's GPUs the job was not given.
func denied(all []gpu.Device, mine []int) []string {
	var out []string
	for _, d := range all {
		keep := false
		for _, i := range mine {
			keep = keep || d.Index == i
		}
		if !keep && d.Path != "" {
			out = append(out, d.Path)
		}
	}
	return out
}

// SupervisorBinary is the job supervisor's own binary, looked for beside
// loam-noded's (package supervisor; built by the Makefile). Starting it
// costs a fraction of re-executing loam-noded, whose cgo, command-line and
// daemon packages each job's supervisor paid for at start-up: at a high
// job rate that was most of the node's CPU time.
const SupervisorBinary = "loam-supervise"

// supervisorCommand returns the program and arguments that run a job's
// supervisor: SupervisorBinary when it is installed beside loam-noded,
// else loam-noded's own hidden mode. Either way the command line holds
// supervisor.Arg, which is how operators' scripts find supervisors.
func (a *Agent) supervisorCommand(dir string) *exec.Cmd {
	bin := filepath.Join(filepath.Dir(a.self), SupervisorBinary)
	if fi, err := os.Stat(bin); err != nil || !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 {
		bin = a.self
	}
	cmd := exec.Command(bin, supervisor.Arg, dir)
	// One processor is all a supervisor needs; set from the environment it
	// costs nothing, where runtime.GOMAXPROCS stops the world.
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1")
	return cmd
}

// startSupervisor starts the job's supervisor (supervisorCommand) in its
// own session and waits until it holds the job's lock and serves its
// socket. Its liveness is the lock; operators find it by the job's
// directory on its command line.
func (a *Agent) startSupervisor(dir string) (int, error) {
	out, err := a.spool.SupervisorOutput()
	if err != nil {
		return 0, err
	}
	return detach.Start(a.supervisorCommand(dir), out, readyTimeout, nil)
}

// createGroup makes the job's cgroup before its supervisor starts: with
// containerd/cgroups/v3, whose packages this long-lived daemon has loaded
// once, rather than in the supervisor, which would pay their start-up cost
// for every job. The supervisor joins the job's processes, kills them and
// removes the group; when it dies, lostSupervisor cleans up. A failure is
// left in the job's directory for the supervisor to report as the
// launch's.
func (a *Agent) createGroup(dir string, l *spool.Launch) {
	why := "cgroups are unavailable on " + l.Node
	if a.iso != nil {
		_, err := a.iso.Create(isolation.Spec{Name: l.Group, CPUs: l.CPUs, MemoryBytes: l.MemoryBytes,
			PidsMax: l.PidsMax, DenyDevices: l.DenyDevices})
		if err == nil {
			return
		}
		a.log.WithError(err).WithField("job_id", l.Request.JobID).Warn("create job cgroup")
		why = "create cgroup: " + err.Error()
	}
	if werr := spool.WriteFile(filepath.Join(dir, supervisor.GroupErrorFile), []byte(why), 0o600); werr != nil {
		a.log.WithError(werr).WithField("job_id", l.Request.JobID).Error("record cgroup failure")
	}
}

// removeGroup kills and removes a job's cgroup whose supervisor never ran.
func (a *Agent) removeGroup(name string) {
	if a.iso == nil {
		return
	}
	g, err := a.iso.Load(name)
	if err == nil {
		if err = g.Kill(); err == nil {
			err = g.Delete()
		}
	}
	if err != nil && !errors.Is(err, isolation.ErrNotExist) {
		a.log.WithError(err).WithField("group", name).Warn("remove cgroup of a job that did not start")
	}
}

func removeAll(dir string) error { return os.RemoveAll(dir) }
