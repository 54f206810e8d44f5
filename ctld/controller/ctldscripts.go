package controller

import (
	"errors"
	"fmt"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	xunix "golang.org/x/sys/unix"

	"github.com/loamhpc/loam/ctld/trigger"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
	"github.com/loamhpc/loam/pkg/syserr"
)

// scriptRunner starts PrologSlurmctld and EpilogSlurmctld the way
// trigger programs start (trigger.OSRunner): in a session of their own,
// bounded, reaped in the background. Tests substitute one that records.
type scriptRunner interface {
	Run(e trigger.Exec) (<-chan error, error)
}

// Slurm's SLURM_SCRIPT_CONTEXT values for the controller's scripts.
const (
	prologContext = "prolog_slurmctld"
	epilogContext = "epilog_slurmctld"
)

// noScriptTimeout is how long a controller script may run when
// PrologEpilogTimeout is not set: Slurm's 65534 seconds, which its
// script daemon passes on as the bound.
const noScriptTimeout = 65534 * time.Second

// ctldScripts is slurm.conf's PrologSlurmctld, EpilogSlurmctld and
// requeue lists now, less a script that cannot run.
func (c *Controller) ctldScripts() *slurmconf.CtldScripts {
	return &c.confNow().ctld
}

// checkedScripts is s less a script that is not an executable file,
// with the error slurmctld logs for each. Slurm 22.05 checks them once,
// when it loads its configuration, logs "Invalid PrologSlurmctld(`path`):
// Permission denied" and then runs jobs without that script; Loam does
// the same at each load (start and reconfigure).
func checkedScripts(s slurmconf.CtldScripts) (slurmconf.CtldScripts, []string) {
	var bad []string
	for _, sc := range []struct {
		name string
		path *string
	}{{"PrologSlurmctld", &s.PrologSlurmctld}, {"EpilogSlurmctld", &s.EpilogSlurmctld}} {
		if *sc.path == "" {
			continue
		}
		if err := xunix.Access(*sc.path, xunix.X_OK); err != nil {
			bad = append(bad, fmt.Sprintf("Invalid %s(`%s`): %s", sc.name, *sc.path, syserr.Strerror(err)))
			*sc.path = ""
		}
	}
	return s, bad
}

// logInvalidScripts logs the scripts of a configuration just loaded that
// will not run.
func (c *Controller) logInvalidScripts(cs *confState) {
	for _, msg := range cs.ctldInvalid {
		c.log.Error(msg)
	}
}

// startState is the state a job given its nodes takes: CONFIGURING while
// PrologSlurmctld runs (the launch waits for it), else RUNNING.
func (c *Controller) startState() job.State {
	if c.ctldScripts().PrologSlurmctld != "" {
		return job.Configuring
	}
	return job.Running
}

// launchOrProlog launches r, just started, or first runs PrologSlurmctld
// when one is set (r is then CONFIGURING). The script runs without the
// controller's lock; prologDone picks up its end. The caller holds c.mu.
func (c *Controller) launchOrProlog(b *batch, r *jobRecord) {
	if r.St.State != job.Configuring {
		c.queueLaunch(b, r)
		return
	}
	c.runCtldScript(r, prologContext, func(err error) { c.prologDone(r.ID, r.St.Start, err) })
}

// prologDone moves on a job whose PrologSlurmctld ended: launched when it
// exited 0; when it failed (non-zero, killed at its timeout, or not
// runnable) a batch job that may requeue goes back to the queue, any
// other job is cancelled, as slurmctld does. A job cancelled meanwhile,
// or started again since, is left alone.
func (c *Controller) prologDone(id uint32, start int64, err error) {
	var b batch
	c.mu.Lock()
	r := c.jobs[id]
	if r == nil || r.St.State != job.Configuring || r.St.Start != start {
		c.mu.Unlock()
		return
	}
	if err == nil {
		c.setState(r, job.Running)
		b.persist(c.persistStatus(r))
		c.queueLaunch(&b, r)
		c.jobChanged(r)
	} else {
		c.log.WithField("job_id", id).Errorf("prolog_slurmctld JobId=%d prolog exit status %s", id, scriptStatus(err))
		if requeues(r) {
			r.ruleRequeue = true // accounted REQUEUED, not NODE_FAIL
			b.persist(c.requeueLocked(r, r.St.RequeueHold, 0))
			r.ruleRequeue = false
		} else {
			uid := c.confNow().slurmUID // sacct: "CANCELLED by 0", SlurmUser's kill
			r.St.CancelledBy = &uid
			r.prologFailed = true // its srun or salloc says so (allocation)
			b.persist(c.finish(r, job.Cancelled, job.ReasonNone, job.ExitCode{}))
		}
	}
	c.mu.Unlock()
	c.finishBatch(&b)
}

// scriptStatus is how Slurm logs a script's end: "7:0" (exit status,
// signal).
func scriptStatus(err error) string {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return "0:" + strconv.Itoa(int(ws.Signal()))
		}
		return strconv.Itoa(ee.ExitCode()) + ":0"
	}
	return "127:0" // it could not start: what the shell reports for a missing program
}

// epilogRun starts EpilogSlurmctld for a job whose run ended (it had
// nodes): ended, cancelled, requeued. A failing epilog changes nothing
// but a log line, as in Slurm. The caller holds c.mu, after r took the
// exit code the epilog reports. It runs once per run: a path that started
// it before requeueing (RequeueExit) marks the record so that
// requeueLocked does not start it again.
func (c *Controller) epilogRun(r *jobRecord) {
	if r.epilogStarted {
		r.epilogStarted = false
		return
	}
	if c.ctldScripts().EpilogSlurmctld == "" {
		return
	}
	id := r.ID
	c.runCtldScript(r, epilogContext, func(err error) {
		if err != nil {
			c.log.WithField("job_id", id).Errorf("epilog_slurmctld JobId=%d epilog exit status %s", id, scriptStatus(err))
		}
	})
}

// runCtldScript starts the script of context for r with r's environment
// as it is now, and calls done with how it ended, from a goroutine of its
// own. A script that cannot start ends at once with that error. The
// caller holds c.mu: the start itself runs after it is let go.
func (c *Controller) runCtldScript(r *jobRecord, context string, done func(error)) {
	conf := c.confNow().conf
	path := c.ctldScripts().PrologSlurmctld
	if context == epilogContext {
		path = c.ctldScripts().EpilogSlurmctld
	}
	if path == "" { // taken out of slurm.conf since (a restart)
		go done(nil)
		return
	}
	timeout := conf.NodeProlog.Timeout
	if timeout <= 0 {
		timeout = noScriptTimeout
	}
	e := trigger.Exec{Path: path, Argv: []string{filepath.Base(path)}, Timeout: timeout,
		Env: c.ctldScriptEnv(r, context, conf.ClusterName)}
	e.UID, e.GID = slurmUserIDs(conf.SlurmUser)
	runner := c.trig.scripts
	if runner == nil {
		runner = trigger.OSRunner{}
	}
	log := c.log.WithField("job_id", r.ID).WithField("script", context)
	go func() {
		res, err := runner.Run(e)
		if err != nil {
			log.WithError(err).Error("script did not start")
			done(err)
			return
		}
		done(<-res)
	}()
}

// slurmUserIDs is SlurmUser's uid and gid, as which the controller's
// scripts run; root when the name is unknown.
func slurmUserIDs(name string) (uid, gid uint32) {
	u, err := user.Lookup(name)
	if err != nil {
		return 0, 0
	}
	a, errA := strconv.ParseUint(u.Uid, 10, 32)
	b, errB := strconv.ParseUint(u.Gid, 10, 32)
	if errA != nil || errB != nil {
		return 0, 0
	}
	return uint32(a), uint32(b)
}

// ctldScriptEnv is the whole environment PrologSlurmctld and
// EpilogSlurmctld get, as slurmctld 22.05 sets it (the peer's, dumped
// with env): no PATH, the job's identity and allocation, its standard
// streams only where the job names them, its comment when it has one (no
// GPU variables: the peer sets none here), and for the epilog the exit
// codes (raw wait status, "status:signal", and the highest step's).
func (c *Controller) ctldScriptEnv(r *jobRecord, context, cluster string) []string {
	q, st := r.Req, &r.St
	id := strconv.FormatUint(uint64(r.ID), 10)
	env := []string{
		"SLURM_CLUSTER_NAME=" + cluster,
		"SLURM_JOBID=" + id,
		"SLURM_JOB_ID=" + id,
		"SLURM_JOB_CPUS_PER_NODE=" + repeatedCounts(allocCPUs(st)),
		"SLURM_JOB_GID=" + strconv.FormatUint(uint64(q.GroupID), 10),
		"SLURM_JOB_GROUP=" + c.users.groupName(q.GroupID),
		"SLURM_JOB_NAME=" + q.Name,
		"SLURM_JOB_NODELIST=" + allocNodes(st.Alloc),
		"SLURM_JOB_NUM_NODES=" + strconv.Itoa(len(st.Alloc)),
		"SLURM_JOB_PARTITION=" + st.Partition,
		"SLURM_JOB_RESTART_COUNT=" + strconv.Itoa(st.Restarts),
		"SLURM_JOB_UID=" + strconv.FormatUint(uint64(q.UserID), 10),
		"SLURM_JOB_USER=" + q.UserName,
		"SLURM_JOB_WORK_DIR=" + q.WorkDir,
		"SLURM_SCRIPT_CONTEXT=" + context,
	}
	if st.ArrayJobID != 0 {
		env = append(env,
			"SLURM_ARRAY_JOB_ID="+strconv.FormatUint(uint64(st.ArrayJobID), 10),
			"SLURM_ARRAY_TASK_ID="+strconv.Itoa(st.ArrayTask),
			"SLURM_ARRAY_TASK_COUNT="+strconv.Itoa(st.ArrayCount),
			"SLURM_ARRAY_TASK_MIN="+strconv.Itoa(st.ArrayMin),
			"SLURM_ARRAY_TASK_MAX="+strconv.Itoa(st.ArrayMax),
			"SLURM_ARRAY_TASK_STEP="+strconv.Itoa(st.ArrayStep))
	}
	if st.Account != "" { // none without accounting
		env = append(env, "SLURM_JOB_ACCOUNT="+st.Account)
	}
	if q.Comment != "" {
		env = append(env, "SLURM_JOB_COMMENT="+q.Comment)
	}
	if f := featuresUsed(c.confNow().conf, q, st.Alloc); f != "" { // prefer.go
		env = append(env, "SLURM_JOB_CONSTRAINTS="+f)
	}
	if q.Script != "" { // a batch job's streams; an allocation has none
		stdin := q.StdIn
		if stdin == "" {
			stdin = "/dev/null"
		}
		env = append(env, "SLURM_JOB_STDIN="+stdin)
		if q.StdOut != "" && !q.DefaultOutput { // slurm-%j.out: Slurm keeps no path
			env = append(env, "SLURM_JOB_STDOUT="+q.StdOut)
		}
		if q.StdErr != "" {
			env = append(env, "SLURM_JOB_STDERR="+q.StdErr)
		}
	}
	if context == epilogContext {
		env = append(env,
			"SLURM_JOB_EXIT_CODE="+strconv.Itoa(waitStatus(st.ExitCode)),
			fmt.Sprintf("SLURM_JOB_EXIT_CODE2=%d:%d", st.ExitCode.Status, st.ExitCode.Signal),
			"SLURM_JOB_DERIVED_EC="+strconv.Itoa(waitStatus(st.Derived)))
	}
	return env
}

// allocCPUs is the CPUs of each of the job's nodes, in node order.
func allocCPUs(st *jobStatus) []int {
	out := make([]int, len(st.Alloc))
	for i, a := range st.Alloc {
		out[i] = a.CPUs
	}
	return out
}

// repeatedCounts writes counts as Slurm's SLURM_JOB_CPUS_PER_NODE:
// runs of one value as "N(xK)", joined by commas ("64(x2),32").
func repeatedCounts(counts []int) string {
	out := ""
	for i := 0; i < len(counts); {
		j := i
		for j < len(counts) && counts[j] == counts[i] {
			j++
		}
		if out != "" {
			out += ","
		}
		out += strconv.Itoa(counts[i])
		if j-i > 1 {
			out += "(x" + strconv.Itoa(j-i) + ")"
		}
		i = j
	}
	return out
}
