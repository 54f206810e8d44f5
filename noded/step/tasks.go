package step

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/loamhpc/loam/noded/fname"
	"github.com/loamhpc/loam/noded/shim"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/rlimit"
	"github.com/loamhpc/loam/pkg/syserr"
)

// task is one task of the step on this node.
type task struct {
	local, global int
	cmd           *exec.Cmd // nil when it never started
	exit          job.ExitCode
	core          bool
	ended         atomic.Bool

	in      *stdinFeed // nil: no input from srun
	errFile *os.File   // its standard error file; nil: it goes to srun
	term    *os.File   // its pseudo-terminal's master under srun --pty
	pumps   sync.WaitGroup
	outDone chan struct{} // closed once its output reached srun
	// env is the task's environment before its prologs, for its epilogs
	// (taskscripts.go); nil when it never got that far.
	env []string
}

// start starts task local i. A task that cannot start (a command that is
// not there, a file that cannot be opened) ends at once with slurmstepd's
// message on its standard error and errno as its exit status.
func (p *proc) start(i int) *task {
	t := &task{local: i, global: p.node.TaskIDs[i], outDone: make(chan struct{})}
	env, cpus, gpus, err := p.taskSetup(t)
	if err != nil {
		p.failed(t, nil, "slurmstepd-"+p.node.Node+": error: "+err.Error()+"\n", 1)
		return t
	}
	files, err := p.stdio(t)
	if err != nil {
		p.failed(t, nil, "slurmstepd-"+p.node.Node+": error: "+err.Error()+"\n", 1)
		return t
	}
	if line := GPUBindVerbose(&p.req.Step, p.node.GPUs, gpus); line != "" {
		t.writeErrTo(p.out, files, line)
	}
	t.env = env
	env, msg, status := p.taskProlog(t, env, files) // taskscripts.go
	if msg != "" {
		p.failed(t, &files, msg, status)
		return t
	}
	cmd, err := p.taskArgv(t)
	if err != nil {
		p.log.WithError(err).WithField("task", t.global).Warn("multi-prog configuration")
		p.failed(t, &files, "slurmstepd-"+p.node.Node+": error: No executable program specified for this task\n", int(syscall.ENOENT))
		return t
	}
	path, errno := lookPath(cmd[0], p.execDir(), env)
	if errno != 0 {
		p.failed(t, &files, fmt.Sprintf("slurmstepd-%s: error: execve(): %s: %s\n", p.node.Node, cmd[0], syserr.Strerror(errno)), int(errno))
		return t
	}
	argv := append([]string{path}, cmd[1:]...)
	if err := p.spawn(t, argv, env, files, cpus); err != nil {
		p.failed(t, &files, "slurmstepd-"+p.node.Node+": error: "+err.Error()+"\n", 1)
		return t
	}
	files.closeChild()
	return t
}

// taskSetup computes the task's environment, CPUs and GPUs (nil: not
// bound).
func (p *proc) taskSetup(t *task) (env []string, cpus, gpus []int, err error) {
	gpus, err = NodeTaskGPUs(&p.req.Step, p.node, t.local)
	if err != nil {
		return nil, nil, nil, err
	}
	// slurmstepd applies the SLURM_RLIMIT_* variables (spawn) and leaves
	// them out of what the task and its scripts see.
	env = rlimit.Strip(Env(EnvInput{Req: &p.req, JobCPUs: p.job.Request.Alloc.CPUs, Local: t.local, GPUs: gpus, Job: &p.job.Request}))
	jobCPUs, err := resource.ParseCPUList(p.job.CPUs)
	if err != nil {
		return nil, nil, nil, err
	}
	cpus, err = TaskCPUs(p.req.Step.CPUBind, jobCPUs, p.req.Step.CPUsPerTask, t.local)
	return env, cpus, gpus, err
}

// failed ends a task that never ran: msg goes where its standard error
// goes, status is its exit status.
func (p *proc) failed(t *task, files *taskFiles, msg string, status int) {
	if files != nil {
		t.writeErrTo(p.out, *files, msg)
		files.closeChild()
		files.closeParent()
	} else {
		_ = p.out.send(api.IOStderr, uint32(t.global), []byte(msg))
	}
	if t.in != nil {
		t.in.close()
		t.in = nil
	}
	t.exit = job.ExitCode{Status: status & 0xff}
	close(t.outDone)
}

// wait reaps the task and gives its output a moment to reach srun before
// its end is reported.
func (t *task) wait() {
	if t.cmd != nil {
		err := t.cmd.Wait()
		var ee *exec.ExitError
		ws := syscall.WaitStatus(0)
		if errors.As(err, &ee) {
			ws = ee.Sys().(syscall.WaitStatus)
		}
		t.exit = job.FromWaitStatus(int(ws))
		t.core = ws.CoreDump()
		t.waitOutput(200 * time.Millisecond)
	}
	t.ended.Store(true)
}

func (t *task) waitOutput(d time.Duration) {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-t.outDone:
	case <-timer.C:
	}
}

// writeErr writes a line to the task's standard error.
func (t *task) writeErr(out *frameWriter, line string) {
	if t.errFile != nil {
		_, _ = t.errFile.WriteString(line)
		return
	}
	_ = out.send(api.IOStderr, uint32(t.global), []byte(line))
}

// spawn starts the task through the shim as the job's user, pinned to
// cpus, puts it in the step's cgroup and lets it run.
func (p *proc) spawn(t *task, argv, env []string, files taskFiles, cpus []int) error {
	cred := p.cred()
	goR, goW, err := shim.Channel()
	if err != nil {
		return err
	}
	defer goW.Close()
	groups := cred.Groups
	if len(groups) == 0 {
		groups = []uint32{cred.GID}
	}
	cmd := exec.Command(shell, shim.Args(env, argv)...)
	cmd.Env, cmd.Dir = env, p.workDir(t, files)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = files.in, files.out, files.err
	cmd.ExtraFiles = []*os.File{goR}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true,
		Credential: &syscall.Credential{Uid: cred.UID, Gid: cred.GID, Groups: groups}}
	if t.term != nil {
		// The new session's controlling terminal is the pty on its stdin.
		cmd.SysProcAttr.Setctty, cmd.SysProcAttr.Ctty = true, 0
	}
	err = startPinned(cmd, cpus)
	goR.Close()
	if err != nil {
		return err
	}
	t.cmd = cmd
	p.setLimits(cmd.Process.Pid, goW) // rlimits.go
	if err := p.group.Add(cmd.Process.Pid); err != nil {
		_ = cmd.Process.Kill()
		return err
	}
	if _, err := goW.Write([]byte("go\n")); err != nil {
		return fmt.Errorf("release task %d: %w", t.global, err)
	}
	p.pump(t, files)
	return nil
}

// shell runs the shim.
const shell = "/bin/sh"

// workDir is the task's directory: --chdir, srun's, or /tmp when that is
// not there, with slurmstepd's message.
func (p *proc) workDir(t *task, files taskFiles) string {
	dir := p.req.Step.WorkDir
	if dir == "" {
		return "/tmp"
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		why := "Not a directory"
		var pe *fs.PathError
		if errors.As(err, &pe) {
			why = syserr.Strerror(pe.Err)
		}
		t.writeErrTo(p.out, files, fmt.Sprintf("slurmstepd-%s: error: couldn't chdir to `%s': %s: going to /tmp instead\n", p.node.Node, dir, why))
		return "/tmp"
	}
	return dir
}

// writeErrTo writes a line to the task's standard error before it runs.
func (t *task) writeErrTo(out *frameWriter, files taskFiles, line string) {
	if files.errR == nil && files.err != nil && t.term == nil {
		_, _ = files.err.WriteString(line)
		return
	}
	_ = out.send(api.IOStderr, uint32(t.global), []byte(line))
}

// startPinned starts cmd with its CPU affinity set to cpus (none: as the
// step process): the child of a fork inherits the forking thread's mask,
// so the thread is pinned for the fork and unpinned after.
func startPinned(cmd *exec.Cmd, cpus []int) error {
	if len(cpus) == 0 {
		return cmd.Start()
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var old, set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		return cmd.Start()
	}
	for _, c := range cpus {
		set.Set(c)
	}
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return cmd.Start() // CPUs this host does not have: run unbound
	}
	err := cmd.Start()
	_ = unix.SchedSetaffinity(0, &old)
	return err
}

// execDir is where the task runs, and so where a relative command
// resolves: srun ./train.sh runs ./train.sh of srun's directory.
func (p *proc) execDir() string {
	dir := p.req.Step.WorkDir
	if fi, err := os.Stat(dir); dir == "" || err != nil || !fi.IsDir() {
		return "/tmp"
	}
	return dir
}

// lookPath finds the command as execvp would in the task's PATH, from the
// task's directory dir: a name with a slash is used as it is, and relative
// names (./x, a relative PATH entry) count from dir, where the task runs,
// not from this process's directory. The errno is what execve would report.
func lookPath(name, dir string, env []string) (string, syscall.Errno) {
	if strings.Contains(name, "/") {
		return name, executable(inDir(dir, name))
	}
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	denied := false
	for _, entry := range strings.Split(path, ":") {
		if entry == "" {
			continue
		}
		cand := filepath.Join(entry, name)
		if !strings.Contains(cand, "/") {
			cand = "./" + cand // PATH=.: keep the exec from searching again
		}
		switch executable(inDir(dir, cand)) {
		case 0:
			return cand, 0
		case syscall.EACCES:
			denied = true
		}
	}
	if denied {
		return name, syscall.EACCES
	}
	return name, syscall.ENOENT
}

// inDir is path as seen from dir.
func inDir(dir, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(dir, path)
}

// executable checks that path is an executable regular file.
func executable(path string) syscall.Errno {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		var errno syscall.Errno
		if errors.As(err, &errno) {
			return errno
		}
		return syscall.ENOENT
	case fi.IsDir() || fi.Mode()&0o111 == 0:
		return syscall.EACCES
	}
	return 0
}

// patternVars are the values of a task's file name patterns.
func (p *proc) patternVars(t *task) fname.Vars {
	r := &p.job.Request
	return fname.Vars{JobID: r.JobID, ArrayJobID: r.ArrayJobID, ArrayTaskID: r.ArrayTaskID, User: r.UserName,
		JobName: r.Name, Host: p.job.Hostname, NodeID: p.req.NodeIndex, TaskID: t.global,
		Step: strconv.FormatUint(uint64(p.req.StepID), 10)}
}
