package supervisor

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/loamhpc/loam/noded/taskprolog"
	"github.com/loamhpc/loam/pkg/rlimit"
)

// Bounds on slurm.conf's TaskProlog and TaskEpilog. Slurm waits for them
// without limit; Loam bounds the prolog by the job's time limit (the job
// would end then anyway) or taskPrologMax, and the epilog, which runs
// after the script when nothing can cancel it any more, by
// taskEpilogMax, so that no script holds a job's end forever.
const (
	taskPrologMax = time.Hour
	taskEpilogMax = time.Minute
)

// taskPrologResult is a finished task prolog: the script's environment
// and, when it failed, the exit status the batch step ends with.
type taskPrologResult struct {
	env    []string
	failed bool
	status int
}

// runTaskProlog runs slurm.conf's TaskProlog as the job's user in the
// script's environment, writes its "print" lines to the job's output and
// applies its exports and unsets. A failure is written to the job's
// error file as slurmstepd words it ("TaskProlog failed status=3").
func (s *Supervisor) runTaskProlog(env []string, files stdio, cred Credential) taskPrologResult {
	path := s.launch.TaskProlog
	res := taskPrologResult{env: env}
	if path == "" {
		return res
	}
	timeout := taskPrologMax
	if tl := s.launch.Request.TimeLimit; tl > 0 && time.Duration(tl)*time.Second < timeout {
		timeout = time.Duration(tl) * time.Second
	}
	// The prolog sees the script's environment, which lacks SLURM_UMASK.
	penv := withVar(rlimit.Strip(withoutVar(env, "SLURM_UMASK")), "SLURM_SCRIPT_CONTEXT", "prolog_task")
	out, status, err := runTaskScript(path, penv, s.taskDir(), files.err, cred, timeout)
	r := taskprolog.Apply(env, out)
	if len(r.Print) > 0 {
		_, _ = files.out.Write(r.Print)
	}
	if err != nil || status != 0 {
		if status == 0 {
			status = 1
		}
		s.log.WithField("program", path).WithField("status", status).WithError(err).Warn("task prolog failed")
		fmt.Fprintf(files.err, "slurmstepd-%s: error: TaskProlog failed status=%d\n", s.launch.Node, status)
		return taskPrologResult{env: env, failed: true, status: status}
	}
	res.env = r.Env
	return res
}

// runTaskEpilog runs slurm.conf's TaskEpilog after the batch script, as
// the job's user in the script's environment as it was before the
// prolog; its output is discarded, as slurmstepd does.
func (s *Supervisor) runTaskEpilog() {
	path := s.launch.TaskEpilog
	if path == "" || !s.launch.Request.Batch {
		return
	}
	r := &s.launch.Request
	cred := Credential{UID: r.UserID, GID: r.GroupID, Groups: r.Groups}
	env := withVar(rlimit.Strip(withoutVar(s.environment(), "SLURM_UMASK")), "SLURM_SCRIPT_CONTEXT", "epilog_task")
	_, status, err := runTaskScript(path, env, s.taskDir(), io.Discard, cred, taskEpilogMax)
	if err != nil || status != 0 {
		s.log.WithField("program", path).WithField("status", status).WithError(err).Warn("task epilog failed")
	}
}

// taskDir is where task scripts run: the job's working directory.
func (s *Supervisor) taskDir() string {
	if d := s.launch.Request.WorkDir; d != "" {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
	}
	return "/tmp"
}

// runTaskScript runs path as cred (package taskprolog).
func runTaskScript(path string, env []string, dir string, errOut io.Writer, cred Credential, timeout time.Duration) ([]byte, int, error) {
	return taskprolog.Run(taskprolog.Script{Path: path, Env: env, Dir: dir, Stderr: errOut,
		UID: cred.UID, GID: cred.GID, Groups: cred.Groups, Timeout: timeout})
}

// withVar is env with name set to value.
func withVar(env []string, name, value string) []string {
	return append(withoutVar(env, name), name+"="+value)
}

// failedPrologArgv is what the batch step runs instead of its script when
// the task prolog failed: it ends with the prolog's status, as the task
// slurmstepd forked does.
func failedPrologArgv(status int) []string {
	return []string{shell, "-c", "exit " + itoa(status&0xff)}
}
