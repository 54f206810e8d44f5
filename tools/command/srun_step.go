package command

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// stepRun is what srun knows of its running step: where each task runs,
// how the ended ones ended, what it did to the step.
type stepRun struct {
	r       *srunRun
	w       *output
	id      string // "12.0"
	layout  api.StepLayout
	kill    int64
	conns   []*nodeConn
	nodeOf  map[int]int // task -> node index
	exits   map[int]api.StepIOExit
	out     *taskWriter
	errw    *taskWriter
	killBad bool

	// outTask and errTask: the one task whose stream srun shows (-o N,
	// -e N), -1 for every task's.
	outTask, errTask int
	// terminated: srun ended the step (-K after a bad exit, or an abort);
	// aborted: srun killed the tasks (a second Ctrl-C, SIGTERM, SIGHUP or
	// SIGQUIT, --wait running out); forced: by a second Ctrl-C, whose
	// killed tasks srun does not report; killed: a task died of SIGKILL
	// or SIGTERM.
	terminated, aborted, forced, killed bool
	// endChecked: srun asked whether the job is ending (jobEnded).
	endChecked bool
	lastInt    time.Time
	// waitC fires --wait seconds after the first task ended (nil before,
	// or without --wait).
	waitC <-chan time.Time
	// abortC fires KillWait+2 seconds after the step was aborted (nil
	// before).
	abortC <-chan time.Time
}

func newStepRun(r *srunRun, resp *api.StepCreateResponse) *stepRun {
	st := &r.res.Step
	s := &stepRun{r: r, w: r.w, id: fmt.Sprintf("%d.%d", r.jobID, resp.StepID), layout: resp.Layout, kill: resp.KillWait,
		nodeOf: map[int]int{}, exits: map[int]api.StepIOExit{},
		killBad: killOnBadExit(st.KillOnBadExit, resp.KillOnBadExit)}
	for i, n := range resp.Layout.Nodes {
		for _, t := range n.TaskIDs {
			s.nodeOf[t] = i
		}
	}
	width := len(strconv.Itoa(max(resp.Layout.Tasks-1, 0)))
	s.out = newTaskWriter(r.env.Stdout, st.Label, st.Unbuffered, width)
	s.errw = newTaskWriter(r.env.Stderr, st.Label, st.Unbuffered, width)
	n := r.res.Request.NTasks // what the nodes were told (stepRequest)
	s.outTask, s.errTask = srunStreamTask(st.Output, n), srunStreamTask(cmp.Or(st.Error, st.Output), n)
	return s
}

// killOnBadExit is whether srun ends the step at a task's non-zero exit:
// -K as given (-K0 turns it off), else slurm.conf's KillOnBadExit.
func killOnBadExit(opt *int, conf bool) bool {
	if opt != nil {
		return *opt != 0
	}
	return conf
}

// frame handles one frame of node i.
func (s *stepRun) frame(i int, f api.StepIOFrame) {
	switch f.Kind {
	case api.IOStdout:
		if s.outTask < 0 || int(f.Task) == s.outTask {
			s.out.write(f.Task, f.Data)
		}
	case api.IOStderr:
		if s.errTask < 0 || int(f.Task) == s.errTask {
			s.errw.write(f.Task, f.Data)
		}
	case api.IOExit:
		var e api.StepIOExit
		if json.Unmarshal(f.Data, &e) == nil {
			s.tasksEnded(i, e)
		}
	case api.IOAborted:
		s.nodeAborted()
	}
}

// nodeAborted: a node cancelled the step (scancel of the step or its
// job, a time limit), so its tasks die on Slurm's orders: srun says it
// waits for them, as Slurm's srun does, and not "Force Terminated".
func (s *stepRun) nodeAborted() {
	if !s.aborted {
		s.markAborted()
	}
}

// markAborted notes that the step was aborted and says that srun waits
// KillWait and two seconds for its tasks' ends, as Slurm's srun does;
// abortC fires when that wait is over.
func (s *stepRun) markAborted() {
	s.aborted = true
	s.w.raw(fmt.Sprintf("srun: Job step aborted: Waiting up to %d seconds for job step to finish.\n", s.kill+2))
	s.abortC = s.r.h.abortAfter(time.Duration(s.kill+2) * time.Second)
}

// abortTimedOut is the end of that wait with tasks whose end never came
// (their processes outlive SIGKILL on a node): srun stops waiting for
// them, reporting nothing of them, as Slurm's srun.
func (s *stepRun) abortTimedOut() {
	s.abortC = nil
	s.w.errf("Timed out waiting for job step to complete")
}

// tasksEnded records tasks of node i that ended alike and says so as
// srun does: nothing for exit 0, else "srun: error: NODE: task(s) LIST:
// how". With -K the first bad exit ends the step.
func (s *stepRun) tasksEnded(i int, e api.StepIOExit) {
	if s.r.pty != nil && slices.Contains(e.Tasks, 0) {
		s.r.pty.restore() // task 0 left its terminal
	}
	for _, t := range e.Tasks {
		s.exits[t] = e
		s.out.flushTask(uint32(t))
		s.errw.flushTask(uint32(t))
	}
	s.startWait()
	s.exitNotice(i, e) // srun -v: srun_verbose.go
	if e.ExitCode == (job.ExitCode{}) {
		return
	}
	if sig := e.ExitCode.Signal; sig == int(syscall.SIGKILL) || sig == int(syscall.SIGTERM) {
		s.killed = true
		s.jobEnded()
	}
	if !(s.forced && e.ExitCode.Signal != 0) {
		s.errLine("%s: %s: %s", s.layout.Nodes[i].Node, taskList(e.Tasks), exitHow(e))
	}
	if s.killBad && !s.terminated {
		s.w.raw("srun: launch/slurm: _step_signal: Terminating StepId=" + s.id + "\n")
		s.terminate()
	}
}

// nodeEnded handles the end of node i's connection; a node lost before
// it reported every task marks the others killed.
func (s *stepRun) nodeEnded(i int, lost bool) {
	if !lost {
		return
	}
	var gone []int
	for _, t := range s.layout.Nodes[i].TaskIDs {
		if _, ok := s.exits[t]; !ok {
			gone = append(gone, t)
		}
	}
	if len(gone) > 0 {
		s.tasksEnded(i, api.StepIOExit{Tasks: gone, ExitCode: job.ExitCode{Signal: int(syscall.SIGKILL)}})
	}
}

// missing gives up on the nodes that never connected and returns how
// many there were; the others are told to end the step.
func (s *stepRun) missing(conns []*nodeConn, ended []bool) int {
	n := 0
	for i, c := range conns {
		if c != nil || ended[i] {
			continue
		}
		s.w.errf("%s: did not connect for StepId=%s", s.layout.Nodes[i].Node, s.id)
		ended[i] = true
		n++
		s.nodeEnded(i, true)
	}
	if n > 0 {
		s.terminate()
	}
	return n
}

// joined tells a node that connected after srun ended the step.
func (s *stepRun) joined(c *nodeConn) {
	switch {
	case s.aborted:
		c.send(api.IOTerminate, uint32(syscall.SIGKILL), nil)
	case s.terminated:
		c.send(api.IOTerminate, 0, nil)
	}
}

// terminate asks every node to end the step (SIGTERM, KillWait, SIGKILL).
func (s *stepRun) terminate() {
	s.terminated = true
	s.send(api.IOTerminate, 0)
}

func (s *stepRun) send(kind api.StepIOKind, task uint32) {
	for _, c := range s.conns {
		if c != nil {
			c.send(kind, task, nil)
		}
	}
}

// startWait starts the --wait clock at the first task's end.
func (s *stepRun) startWait() {
	if w := s.r.res.Step.Wait; w > 0 && s.waitC == nil && !s.aborted {
		s.waitC = s.r.h.after(time.Duration(w) * time.Second)
	}
}

// waitOver ends the step --wait seconds after its first task ended, as
// srun does: the status, then the tasks killed.
func (s *stepRun) waitOver() {
	s.waitC = nil
	if s.aborted {
		return
	}
	s.w.raw(fmt.Sprintf("srun: First task exited %ds ago\n", s.r.res.Step.Wait))
	s.status()
	s.w.raw("srun: launch/slurm: _step_signal: Terminating StepId=" + s.id + "\n")
	s.abort()
}

// abort kills the step's tasks at once (the nodes still say the step was
// cancelled) and says srun waits for them.
func (s *stepRun) abort() {
	s.terminated = true
	s.send(api.IOTerminate, uint32(syscall.SIGKILL))
	s.send(api.IOSignal, uint32(syscall.SIGKILL)) // a step already ending
	if !s.aborted {
		s.markAborted() // nodes that connect later are told (joined)
	}
}

// signal handles a signal srun got, as Slurm's srun: SIGINT's first
// prints the step's status, a second within a second sends SIGINT to the
// tasks and kills them; SIGTERM, SIGHUP and SIGQUIT kill the tasks;
// SIGCONT is only noted. Other signals go to the tasks.
func (s *stepRun) signal(sig os.Signal) {
	n, ok := sig.(syscall.Signal)
	if !ok {
		return
	}
	switch {
	case sig == sigWINCH:
		if s.r.pty != nil {
			s.r.pty.resized(s)
		}
		return
	case sig == sigCONT:
		s.w.raw("srun: got SIGCONT\n")
		return
	case sig == sigTERM || sig == sigHUP || sig == sigQUIT:
		s.forceEnd(sig)
		return
	case sig == sigINT && s.r.res.Step.DisableStatus:
		s.w.raw("srun: sending Ctrl-C to StepId=" + s.id + "\n")
		s.send(api.IOSignal, uint32(n))
		return
	case sig != sigINT:
		s.send(api.IOSignal, uint32(n))
		return
	}
	now := s.r.env.Now()
	if !s.r.res.Step.QuitOnInterrupt && (s.lastInt.IsZero() || now.Sub(s.lastInt) > time.Second) {
		s.lastInt = now
		s.w.raw("srun: interrupt (one more within 1 sec to abort)\n")
		s.status()
		return
	}
	s.w.raw("srun: sending Ctrl-C to StepId=" + s.id + "\n")
	s.send(api.IOSignal, uint32(n))
	if !s.forced {
		s.forced = true
		s.w.raw("srun: forcing job termination\n")
		s.abort()
	}
}

// forceEnd is srun's answer to SIGTERM, SIGHUP and SIGQUIT: it kills the
// tasks at once. When the job itself is ending (cancelled, requeued, out
// of time: its nodes signalled srun with its tasks) the step ends with the
// job, as in Slurm, where the step is aborted before srun's own SIGKILL
// comes: the tasks keep their KillWait to save their work.
func (s *stepRun) forceEnd(sig os.Signal) {
	ending := s.jobEnding()
	if ending && !s.aborted {
		s.markAborted()
	}
	if sig == sigQUIT {
		s.w.raw("srun: Quit\n")
	}
	s.w.raw("srun: forcing job termination\n")
	if !ending {
		s.abort()
	}
}

// jobEnded is srun's look at its job when tasks were killed: the first
// time, when srun did not end the step itself and the job is ending
// (cancelled, out of time), the step was aborted with it, as Slurm's srun
// says when the controller tells it the job is complete; otherwise the
// step ends "Force Terminated".
func (s *stepRun) jobEnded() {
	if s.aborted || s.terminated || s.endChecked {
		return
	}
	s.endChecked = true
	if s.jobEnding() {
		s.markAborted()
	}
}

// jobEnding asks the controller whether srun's job is ending.
func (s *stepRun) jobEnding() bool {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	al, err := s.r.c.WaitAllocation(ctx, &api.AllocationWaitRequest{JobID: s.r.jobID})
	return err == nil && !al.Ready
}

// status prints which tasks run and which ended, in Slurm's order:
// running, exited abnormally, exited.
func (s *stepRun) status() {
	var running, exited, abnormal []int
	for t := 0; t < s.layout.Tasks; t++ {
		e, ok := s.exits[t]
		switch {
		case !ok:
			running = append(running, t)
		case e.ExitCode == (job.ExitCode{}):
			exited = append(exited, t)
		default:
			abnormal = append(abnormal, t)
		}
	}
	for _, g := range []struct {
		tasks []int
		what  string
	}{{running, "running"}, {abnormal, "exited abnormally"}, {exited, "exited"}} {
		if len(g.tasks) > 0 {
			s.w.raw("srun: StepId=" + s.id + " " + taskList(g.tasks) + ": " + g.what + "\n")
		}
	}
}

// finish flushes what is left of the tasks' lines and says whether the
// step's tasks were killed (by SIGKILL or SIGTERM, -K's end included)
// when srun did not abort it itself.
func (s *stepRun) finish() {
	s.out.flushAll()
	s.errw.flushAll()
	if s.killed && !s.aborted {
		s.w.raw("srun: Force Terminated StepId=" + s.id + "\n")
	}
}

// result is srun's exit status, the step's exit code and its state. As
// with Slurm's srun a task killed by a signal outweighs any exit status:
// 128+N for the highest signal N, else the highest task status.
func (s *stepRun) result() (int, job.ExitCode, job.State) {
	worst := job.ExitCode{}
	for _, e := range s.exits {
		c := e.ExitCode
		switch {
		case c.Signal != 0 && c.Signal > worst.Signal:
			worst = c
		case c.Signal == 0 && worst.Signal == 0 && c.Status > worst.Status:
			worst = c
		}
	}
	rc := worst.Status
	if worst.Signal != 0 {
		rc = 128 + worst.Signal
	}
	switch {
	case s.aborted:
		return rc, worst, job.Cancelled
	case rc == 0:
		return 0, worst, job.Completed
	}
	return rc, worst, job.Failed
}

// taskList is "task 3" or "tasks 0-1,4", as srun names tasks.
func taskList(tasks []int) string {
	t := slices.Clone(tasks)
	slices.Sort(t)
	if len(t) == 1 {
		return "task " + strconv.Itoa(t[0])
	}
	return "tasks " + job.FormatRanges(t)
}

// exitHow words a bad end as srun does.
func exitHow(e api.StepIOExit) string {
	if e.ExitCode.Signal != 0 {
		s := signalText(e.ExitCode.Signal)
		if e.CoreDumped {
			s += " (core dumped)"
		}
		return s
	}
	return "Exited with exit code " + strconv.Itoa(e.ExitCode.Status)
}

// signalText is the C library's strsignal text ("Killed", "Terminated",
// "Segmentation fault").
func signalText(sig int) string {
	s := syscall.Signal(sig).String()
	if strings.HasPrefix(s, "signal ") {
		return "Unknown signal " + strconv.Itoa(sig)
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
