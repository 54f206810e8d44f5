package command

import (
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
	// terminated: srun ended the step (-K after a bad exit, or a second
	// Ctrl-C: forced); sigkilled: a task died of SIGKILL.
	terminated, forced, sigkilled bool
	lastInt                       time.Time
}

func newStepRun(r *srunRun, resp *api.StepCreateResponse) *stepRun {
	st := &r.res.Step
	s := &stepRun{r: r, w: r.w, id: fmt.Sprintf("%d.%d", r.jobID, resp.StepID), layout: resp.Layout, kill: resp.KillWait,
		nodeOf: map[int]int{}, exits: map[int]api.StepIOExit{},
		killBad: st.KillOnBadExit != nil && *st.KillOnBadExit != 0}
	for i, n := range resp.Layout.Nodes {
		for _, t := range n.TaskIDs {
			s.nodeOf[t] = i
		}
	}
	width := len(strconv.Itoa(max(resp.Layout.Tasks-1, 0)))
	s.out = newTaskWriter(r.env.Stdout, st.Label, st.Unbuffered, width)
	s.errw = newTaskWriter(r.env.Stderr, st.Label, st.Unbuffered, width)
	return s
}

// frame handles one frame of node i.
func (s *stepRun) frame(i int, f api.StepIOFrame) {
	switch f.Kind {
	case api.IOStdout:
		s.out.write(f.Task, f.Data)
	case api.IOStderr:
		s.errw.write(f.Task, f.Data)
	case api.IOExit:
		var e api.StepIOExit
		if json.Unmarshal(f.Data, &e) == nil {
			s.tasksEnded(i, e)
		}
	}
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
	if e.ExitCode == (job.ExitCode{}) {
		return
	}
	if e.ExitCode.Signal == int(syscall.SIGKILL) {
		s.sigkilled = true
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

// signal handles a signal srun got. SIGINT is Slurm's: the first prints
// the step's status; a second within a second sends SIGINT to the tasks
// and ends the step. Other signals go to the tasks.
func (s *stepRun) signal(sig os.Signal) {
	n, ok := sig.(syscall.Signal)
	if !ok {
		return
	}
	if sig == sigWINCH {
		if s.r.pty != nil {
			s.r.pty.resized(s)
		}
		return
	}
	if sig != sigINT || s.r.res.Step.DisableStatus {
		s.send(api.IOSignal, uint32(n))
		return
	}
	now := s.r.env.Now()
	if s.lastInt.IsZero() || now.Sub(s.lastInt) > time.Second {
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
		s.terminate()
		s.w.raw(fmt.Sprintf("srun: Job step aborted: Waiting up to %d seconds for job step to finish.\n", s.kill+2))
	}
}

// status prints which tasks run and which ended.
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
	}{{running, "running"}, {exited, "exited"}, {abnormal, "exited abnormally"}} {
		if len(g.tasks) > 0 {
			s.w.raw("srun: StepId=" + s.id + " " + taskList(g.tasks) + ": " + g.what + "\n")
		}
	}
}

// finish flushes what is left of the tasks' lines and says whether srun
// forced the step's end.
func (s *stepRun) finish() {
	s.out.flushAll()
	s.errw.flushAll()
	if (s.sigkilled || s.terminated) && !s.forced {
		s.w.raw("srun: Force Terminated StepId=" + s.id + "\n")
	}
}

// result is srun's exit status (the highest task status, 128+N for a
// task killed by signal N), the step's exit code and its state.
func (s *stepRun) result() (int, job.ExitCode, job.State) {
	rc, worst := 0, job.ExitCode{}
	for _, e := range s.exits {
		code := e.ExitCode.Status
		if e.ExitCode.Signal != 0 {
			code = 128 + e.ExitCode.Signal
		}
		if code > rc {
			rc, worst = code, e.ExitCode
		}
	}
	switch {
	case s.forced:
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
	var parts []string
	for i := 0; i < len(t); {
		j := i
		for j+1 < len(t) && t[j+1] == t[j]+1 {
			j++
		}
		if j > i {
			parts = append(parts, strconv.Itoa(t[i])+"-"+strconv.Itoa(t[j]))
		} else {
			parts = append(parts, strconv.Itoa(t[i]))
		}
		i = j + 1
	}
	if len(t) == 1 {
		return "task " + parts[0]
	}
	return "tasks " + strings.Join(parts, ",")
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
