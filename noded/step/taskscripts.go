package step

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/loamhpc/loam/noded/taskprolog"
	"github.com/loamhpc/loam/pkg/api"
)

// Bounds on the task scripts of a step. Slurm waits for slurm.conf's
// without limit and kills srun's --task-epilog after a few seconds; Loam
// bounds the prologs by the step's (else the job's) time limit or an
// hour, TaskEpilog by a minute and --task-epilog by five seconds.
const (
	stepPrologMax   = time.Hour
	confEpilogMax   = time.Minute
	userEpilogMax   = 5 * time.Second
	scriptContext   = "SLURM_SCRIPT_CONTEXT"
	prologTaskValue = "prolog_task"
	epilogTaskValue = "epilog_task"
)

// taskProlog runs slurm.conf's TaskProlog, then srun's --task-prolog, for
// task t whose environment is env. Their "print" lines go to the task's
// standard output, their exports and unsets make the environment the
// task starts with (the second script sees the first's). A failure gives
// slurmstepd's message and the status the task ends with (0: none).
func (p *proc) taskProlog(t *task, env []string, files taskFiles) ([]string, string, int) {
	for _, s := range []struct{ path, what string }{
		{p.job.TaskProlog, "TaskProlog"}, {p.req.Step.TaskProlog, "--task-prolog"},
	} {
		if s.path == "" {
			continue
		}
		out, status, err := p.runTaskScript(s.path, withEnv(env, scriptContext, prologTaskValue), files.errWriter(), p.prologTimeout())
		r := taskprolog.Apply(env, out)
		if len(r.Print) > 0 {
			t.writeOutTo(p.out, files, r.Print)
		}
		if err != nil || status != 0 {
			p.log.WithError(err).WithField("program", s.path).WithField("status", status).Warn("task prolog failed")
			return env, fmt.Sprintf("slurmstepd-%s: error: %s failed status=%d\n", p.node.Node, s.what, max(status, 1)), max(status, 1)
		}
		env = r.Env
	}
	return env, "", 0
}

// taskEpilog runs srun's --task-epilog, then slurm.conf's TaskEpilog,
// after task t ended, in the task's environment before its prologs;
// their output is discarded, as slurmstepd does.
func (p *proc) taskEpilog(t *task) {
	for _, s := range []struct {
		path    string
		timeout time.Duration
	}{{p.req.Step.TaskEpilog, userEpilogMax}, {p.job.TaskEpilog, confEpilogMax}} {
		if s.path == "" || t.env == nil {
			continue
		}
		_, status, err := p.runTaskScript(s.path, withEnv(t.env, scriptContext, epilogTaskValue), io.Discard, s.timeout)
		if err != nil || status != 0 {
			p.log.WithError(err).WithField("program", s.path).WithField("status", status).Warn("task epilog failed")
		}
	}
}

func (p *proc) runTaskScript(path string, env []string, errOut io.Writer, timeout time.Duration) ([]byte, int, error) {
	c := p.cred()
	return taskprolog.Run(taskprolog.Script{Path: path, Env: env, Dir: p.scriptDir(), Stderr: errOut,
		UID: c.UID, GID: c.GID, Groups: c.Groups, Timeout: timeout})
}

// prologTimeout is the step's time limit, else the job's, at most
// stepPrologMax.
func (p *proc) prologTimeout() time.Duration {
	for _, s := range []int64{p.req.Step.TimeLimit, p.job.Request.TimeLimit} {
		if s > 0 {
			return min(time.Duration(s)*time.Second, stepPrologMax)
		}
	}
	return stepPrologMax
}

// scriptDir is the step's working directory when it exists, else /tmp.
func (p *proc) scriptDir() string {
	for _, d := range []string{p.req.Step.WorkDir, p.job.Request.WorkDir} {
		if st, err := os.Stat(d); d != "" && err == nil && st.IsDir() {
			return d
		}
	}
	return "/tmp"
}

// errWriter is where a task script's standard error goes: the task's
// error file, or nowhere when it goes to srun (the script runs before
// the task's pipes are pumped).
func (f taskFiles) errWriter() io.Writer {
	if f.errR == nil && f.err != nil {
		return f.err
	}
	return io.Discard
}

// writeOutTo writes b to the task's standard output before it runs.
func (t *task) writeOutTo(out *frameWriter, files taskFiles, b []byte) {
	if files.outR == nil && files.out != nil && t.term == nil {
		_, _ = files.out.Write(b)
		return
	}
	_ = out.send(api.IOStdout, uint32(t.global), b)
}

// withEnv is env with name set to value.
func withEnv(env []string, name, value string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if len(kv) <= len(name) || kv[:len(name)+1] != name+"=" {
			out = append(out, kv)
		}
	}
	return append(out, name+"="+value)
}
