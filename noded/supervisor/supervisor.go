package supervisor

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/loamhpc/loam/noded/detach"
	"github.com/loamhpc/loam/noded/lifecycle"
	"github.com/loamhpc/loam/noded/shim"
	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/isolation"
)

// Arg is the hidden first argument that makes loam-noded a supervisor.
const Arg = "__supervise"

// GroupErrorFile, in a job's directory, says why the daemon could not
// create the job's cgroup (a message such as "create cgroup: ..."); the
// supervisor then reports the launch failed with it, as it would have had
// it created the group itself.
const GroupErrorFile = "cgroup.err"

// Supervisor runs one job.
type Supervisor struct {
	dir    string
	launch spool.Launch
	groups isolation.Loader
	log    *Logger
	// job is the running job, set once it started; group its cgroup.
	job   Job
	group isolation.Group
	ctl   *control
	// scriptArgv, when set, runs instead of the batch script (the task
	// prolog failed).
	scriptArgv []string
	// killFailed: the job's processes outlived SIGKILL by
	// UnkillableStepTimeout (unkillable.go).
	killFailed bool
}

// Job is what the lifecycle acts on: a batch script and its cgroup, or an
// allocation without a script.
type Job interface {
	// Signal sends sig to every process, or only to the batch shell.
	Signal(sig syscall.Signal, scope lifecycle.Scope) error
	// KillAll ends every process of the job.
	KillAll() error
	// Done is closed when the batch script (or the allocation) ended;
	// Status then tells how.
	Done() <-chan struct{}
	Status() syscall.WaitStatus
	// Announce writes one of slurmd's "*** JOB ... ***" lines.
	Announce(line string)
}

// Main is the supervisor process: it runs the job in dir, in the group
// the node daemon created for it (found through groups), and returns the
// process exit status (0 also when the job failed: the result says how).
func Main(dir string, groups isolation.Loader, log *Logger) int {
	// Every supervisor of the node writes to one log (spool.SupervisorLog).
	log = log.WithField("dir", dir)
	lock, err := Lock(dir)
	if err != nil {
		log.WithError(err).Error("job lock")
		detach.Ready(err)
		return 1
	}
	defer lock.Close()
	s := &Supervisor{dir: dir, groups: groups, log: log}
	if err := spool.ReadJSON(filepath.Join(dir, spool.LaunchFile), &s.launch); err != nil {
		log.WithError(err).Error("read launch")
		detach.Ready(err)
		return 1
	}
	s.log = log.WithField("job_id", s.launch.Request.JobID)
	s.launch.Unkillable.Bound(s.groups)
	srv, err := s.listen()
	if err != nil {
		s.log.WithError(err).Error("control socket")
		detach.Ready(err)
		return 1
	}
	detach.Ready(nil)
	s.onSignals()
	s.run()
	// Let a waiting daemon read the result before the socket goes.
	srv.close(time.Second)
	return 0
}

// onSignals makes SIGTERM and SIGINT end the job like a node shutdown
// (its signal, KillWait, SIGKILL) instead of orphaning it; SIGHUP is
// dropped. Not ignored: an ignored signal stays ignored across exec, so
// the job's processes ignored SIGHUP, and scancel -s HUP, which the
// peer's jobs die of, did nothing.
func (s *Supervisor) onSignals() {
	shim.DefaultSignals(syscall.SIGHUP)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-ch
		s.log.Info("supervisor told to stop: ending the job")
		t := &api.TerminateRequest{JobID: s.launch.Request.JobID, Reason: api.TerminateNodeFail, Grace: s.launch.Request.KillWait}
		req := request{terminate: t, done: make(chan struct{})}
		select {
		case s.ctl.reqs <- req:
		case <-s.ctl.ended:
		}
	}()
}

func (s *Supervisor) listen() (*server, error) {
	ln, err := listenControl(s.dir)
	if err != nil {
		return nil, err
	}
	s.ctl = newControl()
	return serve(ln, s.ctl), nil
}

// run starts the job, drives it to its end and writes the result.
func (s *Supervisor) run() {
	res := s.runProlog() // nodeprolog.go
	if res == nil {
		res = s.start()
		if res == nil {
			res = s.loop()
			s.runTaskEpilog() // taskscript.go
		}
	}
	s.runEpilog(res) // nodeprolog.go: also after a failed prolog, as slurmd
	s.finish(res)
}

// finish cleans up the cgroup, writes result.json and wakes waiters.
func (s *Supervisor) finish(res *api.JobEvent) {
	now := time.Now()
	res.JobID = s.launch.Request.JobID
	res.Time, res.TimeNanos = now.Unix(), now.UnixNano()
	if err := spool.WriteJSON(filepath.Join(s.dir, spool.ResultFile), res); err != nil {
		s.log.WithError(err).Error("write result")
	}
	s.log.WithField("exit_code", res.ExitCode.String()).WithField("kind", res.Kind).Info("job ended")
	s.ctl.setEnded(res)
}

// launchFailed is the result of a job that never ran: Slurm's
// JobLaunchFailure, exit code 0:53.
func launchFailed(code, format string, args ...any) *api.JobEvent {
	return &api.JobEvent{
		Kind:     api.EventLaunchFailed,
		ExitCode: launchFailureExit,
		FailCode: code,
		Message:  fmt.Sprintf(format, args...),
	}
}

// Failure codes of launch_failed results, slurm_errno.h's names.
const (
	FailSetup = "ESLURMD_SETUP_ENVIRONMENT_ERROR"
	FailIO    = "ESLURMD_IO_ERROR"
	FailExec  = "ESLURMD_EXECVE_FAILED"
	FailUser  = "ESLURMD_UID_NOT_FOUND"
)

// announceLine is slurmstepd's line for a job ended on order.
func announceLine(node string, id uint32, reason api.TerminateReason, at time.Time) string {
	why := map[api.TerminateReason]string{
		api.TerminateTimeout:  " DUE TO TIME LIMIT",
		api.TerminatePreempt:  " DUE TO PREEMPTION",
		api.TerminateRequeue:  " DUE TO JOB REQUEUE",
		api.TerminateNodeFail: " DUE TO NODE FAILURE",
		api.TerminateDeadline: " DUE TO DEADLINE",
	}[reason]
	return fmt.Sprintf("slurmstepd-%s: error: *** JOB %s ON %s CANCELLED AT %s%s ***\n",
		node, strconv.FormatUint(uint64(id), 10), node, at.Format("2006-01-02T15:04:05"), why)
}
