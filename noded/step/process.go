package step

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/loamhpc/loam/noded/detach"
	"github.com/loamhpc/loam/noded/shim"
	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/isolation"
)

// proc is one node's share of a running step.
type proc struct {
	dir  string
	req  api.StepLaunchRequest
	job  spool.Launch
	node *api.StepNode
	log  *logrus.Entry
	iso  isolation.Isolator

	group isolation.Group
	conn  net.Conn
	out   *frameWriter
	files *fileSet
	tasks []*task

	// terminating is set once the step is being ended (srun asked, or
	// srun went away).
	terminating atomic.Bool
	killTimer   *time.Timer
	mu          sync.Mutex
	// killFailed: processes the tasks left outlived SIGKILL by
	// UnkillableStepTimeout (unkillable.go).
	killFailed bool
}

// Main is the step process ("loam-noded __step DIR"): it runs the step
// in DIR and returns the process exit status (0 also when tasks failed:
// srun hears how they ended).
func Main(dir string, iso isolation.Isolator, log *logrus.Entry) int {
	return runStep(dir, iso, log, detach.Ready)
}

// runStep is Main with the readiness report handed in (tests).
func runStep(dir string, iso isolation.Isolator, log *logrus.Entry, ready func(error)) int {
	shim.DefaultSignals() // tasks never inherit the daemon's ignored signals
	p := &proc{dir: dir, iso: iso, log: log}
	if err := p.load(); err != nil {
		log.WithError(err).Error("read step")
		ready(err)
		return 1
	}
	p.log = log.WithField("job_id", p.req.JobID).WithField("step_id", p.req.StepID)
	if err := p.setup(); err != nil {
		p.log.WithError(err).Error("step setup")
		ready(err)
		p.cleanup()
		return 1
	}
	ready(nil)
	p.run()
	p.cleanup()
	return 0
}

// load reads the step's request and the job it belongs to.
func (p *proc) load() error {
	if err := spool.ReadJSON(filepath.Join(p.dir, SpecFile), &p.req); err != nil {
		return err
	}
	if err := spool.ReadJSON(filepath.Join(filepath.Dir(p.dir), spool.LaunchFile), &p.job); err != nil {
		return err
	}
	if p.job.Request.JobID != p.req.JobID {
		return fmt.Errorf("step of job %d in the directory of job %d", p.req.JobID, p.job.Request.JobID)
	}
	var set Settings
	switch err := spool.ReadJSON(filepath.Join(p.dir, SettingsFile), &set); {
	case err == nil:
		p.job.TaskProlog, p.job.TaskEpilog, p.job.RLimits = set.TaskProlog, set.TaskEpilog, set.RLimits
		if set.Unkillable != nil {
			p.job.Unkillable = set.Unkillable
		}
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	if p.req.NodeIndex < 0 || p.req.NodeIndex >= len(p.req.Layout.Nodes) {
		return fmt.Errorf("node index %d of %d", p.req.NodeIndex, len(p.req.Layout.Nodes))
	}
	p.node = &p.req.Layout.Nodes[p.req.NodeIndex]
	return nil
}

// setup creates the step's cgroup below the job's and connects to srun.
func (p *proc) setup() error {
	if p.iso == nil {
		return fmt.Errorf("cgroups are unavailable on %s", p.job.Node)
	}
	p.job.Unkillable.Bound(p.iso)
	g, err := p.iso.Create(isolation.Spec{Name: p.job.Group + "/step_" + strconv.FormatUint(uint64(p.req.StepID), 10),
		CPUs: p.job.CPUs, DenyDevices: p.deniedGPUs()})
	if err != nil {
		return fmt.Errorf("create step cgroup: %w", err)
	}
	p.group = g
	conn, err := net.DialTimeout("tcp", p.req.Step.IO.Addr, 10*time.Second)
	if err != nil {
		return fmt.Errorf("connect to srun at %s: %w", p.req.Step.IO.Addr, err)
	}
	p.conn = conn
	p.out = newFrameWriter(conn)
	hello := api.StepIOHello{JobID: p.req.JobID, StepID: p.req.StepID, NodeIndex: p.req.NodeIndex, Node: p.node.Node}
	hello.MAC = api.StepIOMAC(p.req.Step.IO.Key, hello.JobID, hello.StepID, hello.NodeIndex, hello.Node)
	return p.out.sendJSON(api.IOHello, 0, hello)
}

// deniedGPUs are the job's GPUs on this node that the step was not given.
func (p *proc) deniedGPUs() []string {
	var out []string
	for _, d := range p.job.GPUs {
		keep := false
		for _, g := range p.node.GPUs {
			keep = keep || g == d.Index
		}
		if !keep && d.Path != "" {
			out = append(out, d.Path)
		}
	}
	return out
}

// run starts the tasks, serves srun's frames and reports every end.
func (p *proc) run() {
	p.files = newFileSet(p.cred(), p.req.Step.OpenMode == "append")
	defer p.files.close()
	cancelled := catchCancel() // cancel.go: scancel JOB.STEP
	ending := catchEnding()    // ending.go: scancel JOB, time limit
	for i := range p.node.TaskIDs {
		p.tasks = append(p.tasks, p.start(i))
	}
	defer p.handleCancel(cancelled)()
	defer p.handleEnding(ending)()
	go p.serve()
	if limit := p.req.Step.TimeLimit; limit > 0 {
		t := time.AfterFunc(time.Duration(limit)*time.Second, p.timeUp)
		defer t.Stop()
	}
	p.collectExits()
	p.recordUsage() // usage.go
	// Whatever the tasks left behind goes with the step.
	p.killLeftovers() // unkillable.go
	for _, t := range p.tasks {
		t.waitOutput(time.Second)
	}
	_ = p.out.send(api.IODone, 0, nil)
	p.conn.Close()
}

func (p *proc) cred() Credential {
	r := &p.job.Request
	return Credential{UID: r.UserID, GID: r.GroupID, Groups: r.Groups}
}

// collectExits waits for every task and reports their ends to srun,
// tasks of this node that end together with the same status in one frame
// (srun prints them as one line, "tasks 0-3: Exited with exit code 2").
// Tasks of a step being ended are all killed at once, so their ends are
// waited for longer: a loaded node may reap them tens of milliseconds
// apart, and they still end together.
func (p *proc) collectExits() {
	exits := make(chan *task, len(p.tasks))
	for _, t := range p.tasks {
		go func() { t.wait(); p.taskEpilog(t); exits <- t }()
	}
	for left := len(p.tasks); left > 0; {
		batch := []*task{<-exits}
		left--
		wait := exitLinger
		if p.terminating.Load() {
			wait = killedExitLinger
		}
		linger := time.NewTimer(wait)
	more:
		for left > 0 {
			select {
			case t := <-exits:
				batch = append(batch, t)
				left--
			case <-linger.C:
				break more
			}
		}
		linger.Stop()
		p.reportExits(batch)
	}
}

// How long collectExits waits for more tasks to end after one did.
const (
	exitLinger       = 10 * time.Millisecond
	killedExitLinger = 500 * time.Millisecond
)

// reportExits sends one IOExit frame per distinct status.
func (p *proc) reportExits(batch []*task) {
	for _, f := range groupExits(batch) {
		if err := p.out.sendJSON(api.IOExit, 0, f); err != nil {
			p.log.WithError(err).Debug("report task exit")
		}
	}
}

// groupExits groups tasks by how they ended, in the order the statuses
// first occur.
func groupExits(batch []*task) []*api.StepIOExit {
	var frames []*api.StepIOExit
	for _, t := range batch {
		var f *api.StepIOExit
		for _, g := range frames {
			if g.ExitCode == t.exit && g.CoreDumped == t.core {
				f = g
			}
		}
		if f == nil {
			f = &api.StepIOExit{ExitCode: t.exit, CoreDumped: t.core}
			frames = append(frames, f)
		}
		f.Tasks = append(f.Tasks, t.global)
	}
	return frames
}

// serve reads srun's frames until it closes the connection; a connection
// lost while tasks run ends the step.
func (p *proc) serve() {
	r := bufio.NewReader(p.conn)
	for {
		f, err := api.ReadIOFrame(r)
		if err != nil {
			p.terminate(false, false)
			p.closeStdin(api.AllTasks)
			return
		}
		switch f.Kind {
		case api.IOStdin:
			p.stdin(f.Task, f.Data)
		case api.IOStdinEOF:
			p.closeStdin(f.Task)
		case api.IOSignal:
			p.signal(syscall.Signal(f.Task))
		case api.IOTerminate:
			p.terminate(true, syscall.Signal(f.Task) == syscall.SIGKILL)
		case api.IOWinsize:
			p.winsize(f.Data)
		}
	}
}

// signal sends sig to every process of the step.
func (p *proc) signal(sig syscall.Signal) {
	if sig <= 0 || sig > 64 {
		return
	}
	if err := p.group.Signal(sig); err != nil {
		p.log.WithError(err).WithField("signal", int(sig)).Debug("signal step")
	}
}

// terminate ends the step as slurmstepd does: the "*** STEP ... CANCELLED
// ***" line (when srun asked), SIGCONT and SIGTERM, then SIGKILL after
// KillWait; SIGKILL at once when srun aborts the step (now).
func (p *proc) terminate(announce, now bool) {
	if !p.terminating.CompareAndSwap(false, true) {
		return
	}
	if announce {
		p.announce(time.Now(), "")
	}
	if now {
		p.signal(syscall.SIGKILL)
		return
	}
	p.signal(syscall.SIGCONT)
	p.signal(syscall.SIGTERM)
	wait := time.Duration(p.req.KillWait) * time.Second
	p.mu.Lock()
	p.killTimer = time.AfterFunc(wait, func() { _ = p.group.Kill() })
	p.mu.Unlock()
}

// timeUp ends the step at its time limit (srun -t), as slurmstepd: its
// cancel line says why, then SIGTERM, KillWait, SIGKILL.
func (p *proc) timeUp() {
	if p.terminating.Load() {
		return
	}
	p.announce(time.Now(), " DUE TO TIME LIMIT")
	p.tellAborted()
	p.terminate(false, false)
}

// announce writes slurmstepd's cancel line (why: " DUE TO ..." or "")
// into the standard error of this node's first task still running. Only
// the step's first node writes it, as slurmstepd: the peer's srun -N2 -K
// shows one "*** STEP J.S ON gpu001 CANCELLED AT ... ***", none for
// gpu002.
func (p *proc) announce(at time.Time, why string) {
	if !announces(p.req.NodeIndex) {
		return
	}
	line := fmt.Sprintf("slurmstepd-%s: error: *** STEP %d.%d ON %s CANCELLED AT %s%s ***\n",
		p.node.Node, p.req.JobID, p.req.StepID, p.node.Node, at.Format("2006-01-02T15:04:05"), why)
	for _, t := range p.tasks {
		if !t.ended.Load() {
			t.writeErr(p.out, line)
			return
		}
	}
}

// announces reports whether the step's node nodeIndex writes the cancel
// line.
func announces(nodeIndex int) bool { return nodeIndex == 0 }

// tellAborted tells srun that the step was cancelled on the node, not by
// srun itself (api.IOAborted).
func (p *proc) tellAborted() {
	if p.out != nil {
		_ = p.out.send(api.IOAborted, api.AllTasks, nil)
	}
}

// cleanup removes the step's cgroup.
func (p *proc) cleanup() {
	p.mu.Lock()
	if p.killTimer != nil {
		p.killTimer.Stop()
	}
	p.mu.Unlock()
	if p.conn != nil {
		p.conn.Close()
	}
	if p.group == nil || p.killFailed {
		return // a group whose processes outlived SIGKILL stays
	}
	err := p.group.Kill()
	if err == nil {
		err = p.group.Delete()
	}
	if err != nil {
		p.log.WithError(err).Warn("remove step cgroup")
	}
}
