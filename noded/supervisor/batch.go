package supervisor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/loamhpc/loam/noded/asuser"
	"github.com/loamhpc/loam/noded/fname"
	"github.com/loamhpc/loam/noded/jobenv"
	"github.com/loamhpc/loam/noded/lifecycle"
	"github.com/loamhpc/loam/noded/shim"
	"github.com/loamhpc/loam/noded/spool"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/isolation"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/rlimit"
	"github.com/loamhpc/loam/pkg/syserr"
)

// Credential is a job user's identity.
type Credential = asuser.Credential

// launchFailureExit is the exit code Slurm gives a job whose launch
// failed (the batch step "died by signal 53").
var launchFailureExit = job.ExitCode{Signal: 53}

// batchJob is a running batch script in its cgroup.
type batchJob struct {
	cmd    *exec.Cmd
	group  isolation.Group
	errOut *os.File
	done   chan struct{}
	status syscall.WaitStatus
}

var _ Job = (*batchJob)(nil)

func (b *batchJob) Signal(sig syscall.Signal, scope lifecycle.Scope) error {
	switch scope {
	case lifecycle.ScopeBatch:
		err := syscall.Kill(b.cmd.Process.Pid, sig)
		if errors.Is(err, syscall.ESRCH) {
			return nil
		}
		return err
	case lifecycle.ScopeSteps:
		return b.group.SignalChildren(sig)
	}
	return b.group.Signal(sig)
}

func (b *batchJob) KillAll() error             { return b.group.Kill() }
func (b *batchJob) Done() <-chan struct{}      { return b.done }
func (b *batchJob) Status() syscall.WaitStatus { return b.status }
func (b *batchJob) Announce(line string)       { _, _ = b.errOut.WriteString(line) }

// wait reaps the batch script and closes done.
func (b *batchJob) wait() {
	err := b.cmd.Wait()
	var ee *exec.ExitError
	switch {
	case err == nil:
		b.status = 0
	case errors.As(err, &ee):
		b.status = ee.Sys().(syscall.WaitStatus)
	default:
		b.status = syscall.WaitStatus(127 << 8)
	}
	close(b.done)
}

// startBatch writes the script, opens the job's files as its user and
// starts the script in group g. A non-nil result means the launch failed.
func (s *Supervisor) startBatch(g isolation.Group) (*batchJob, *api.JobEvent) {
	l := &s.launch
	r := &l.Request
	cred := Credential{UID: r.UserID, GID: r.GroupID, Groups: r.Groups}
	script, err := s.writeScript(cred)
	if err != nil {
		return nil, launchFailed(FailSetup, "write batch script: %v", err)
	}
	files, err := openStdio(l, cred)
	if err != nil {
		return nil, launchFailed(FailIO, "%v", err)
	}
	defer files.closeChild()
	tp := s.runTaskProlog(s.environment(), files, cred) // taskscript.go
	if tp.failed {
		s.scriptArgv = failedPrologArgv(tp.status)
	}
	cmd, err := s.spawn(script, tp.env, files, cred)
	if err != nil {
		files.close()
		return nil, launchFailed(FailExec, "%v", err)
	}
	b := &batchJob{cmd: cmd.cmd, group: g, errOut: files.err, done: make(chan struct{})}
	if err := cmd.release(g); err != nil {
		_ = g.Kill()
		b.wait()
		files.close()
		return nil, launchFailed(FailExec, "%v", err)
	}
	go b.wait()
	return b, nil
}

// writeScript writes the batch script into the job directory, owned by
// the user and executable only by them.
func (s *Supervisor) writeScript(cred Credential) (string, error) {
	path := filepath.Join(s.dir, spool.ScriptFile)
	if err := os.WriteFile(path, []byte(s.launch.Request.Script), 0o500); err != nil {
		return "", err
	}
	if err := os.Chown(path, int(cred.UID), int(cred.GID)); err != nil {
		return "", err
	}
	// The user must traverse the job directory to exec the script.
	return path, os.Chmod(s.dir, 0o711)
}

// environment builds the script's environment, loading the user's login
// environment first when the job asked for it.
func (s *Supervisor) environment() []string {
	r := &s.launch.Request
	in := jobenv.Input{Launch: r, Node: s.launch.Node, ConfPath: s.launch.ConfPath}
	if jobenv.WantsUserEnv(r.Environment) {
		env, err := loginEnv(r.UserName, loginEnvTimeout)
		if err != nil {
			s.log.WithError(err).Warn("user login environment; using a minimal one")
			env = minimalEnv(r.UserName)
		}
		in.UserEnv = env
	}
	return jobenv.Build(in)
}

// stdio are the job's files: out and err may be one file.
type stdio struct {
	in, out, err *os.File
}

// closeChild closes what only the child needed (stdin, stdout); the
// supervisor keeps err open for its "*** JOB ... ***" lines.
func (f stdio) closeChild() {
	f.in.Close()
	if f.out != f.err {
		f.out.Close()
	}
}

func (f stdio) close() {
	f.closeChild()
	f.err.Close()
}

// openStdio opens the job's output, error and input files as its user.
func openStdio(l *spool.Launch, cred Credential) (stdio, error) {
	r := &l.Request
	v := fname.Vars{JobID: r.JobID, ArrayJobID: r.ArrayJobID, ArrayTaskID: r.ArrayTaskID,
		User: r.UserName, JobName: r.Name, Host: l.Hostname, Step: "batch"}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if r.OpenMode == job.OpenAppend {
		flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	outPath := fname.Path(r.StdOut, r.WorkDir, v)
	errPath := outPath
	if r.StdErr != "" {
		errPath = fname.Path(r.StdErr, r.WorkDir, v)
	}
	in := os.DevNull
	if r.StdIn != "" {
		in = fname.Path(r.StdIn, r.WorkDir, v)
	}
	var f stdio
	// Input first, as slurmstepd opens them: a job whose input is missing
	// fails without creating (or truncating) its output file.
	err := asuser.Do(cred, func() error {
		var err error
		if f.in, err = os.Open(in); err != nil {
			return shim.OpenError{Stream: "stdin", Path: in, Err: err}
		}
		if f.out, err = os.OpenFile(outPath, flags, 0o644); err != nil {
			f.in.Close()
			return shim.OpenError{Stream: "stdout", Path: outPath, Err: err}
		}
		f.err = f.out
		if errPath != outPath {
			if f.err, err = os.OpenFile(errPath, flags, 0o644); err != nil {
				f.in.Close()
				f.out.Close()
				return shim.OpenError{Stream: "stderr", Path: errPath, Err: err}
			}
		}
		return nil
	})
	return f, err
}

// held is a started shim waiting for release.
type held struct {
	cmd *exec.Cmd
	goW *os.File // one line: go ahead; closing it without one aborts
}

// spawn starts the shim as the user, in --chdir (or /tmp when that fails,
// as slurmd does), blocked until release.
func (s *Supervisor) spawn(script string, env []string, files stdio, cred Credential) (*held, error) {
	r := &s.launch.Request
	dir := r.WorkDir
	if dir == "" {
		dir = "/tmp"
	}
	h, err := s.startShim(script, env, files, cred, dir)
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Op == "chdir" && dir != "/tmp" {
		fmt.Fprintf(files.err, "slurmstepd-%s: error: couldn't chdir to `%s': %s: going to /tmp instead\n",
			s.launch.Node, dir, syserr.Strerror(pe.Err))
		h, err = s.startShim(script, env, files, cred, "/tmp")
	}
	return h, err
}

func (s *Supervisor) startShim(script string, env []string, files stdio, cred Credential, dir string) (*held, error) {
	goR, goW, err := shim.Channel()
	if err != nil {
		return nil, err
	}
	groups := cred.Groups
	if len(groups) == 0 {
		groups = []uint32{cred.GID}
	}
	argv := s.scriptArgv
	if argv == nil {
		argv = batchArgv(script, s.launch.Request.Script, s.launch.Node, s.launch.Request.Argv)
	}
	args := shim.Args(env, argv)
	cmd := exec.Command(shell, args...)
	// The umask is applied; slurmstepd leaves SLURM_UMASK out of a batch
	// script's environment (srun sets it again for its tasks).
	cmd.Env, cmd.Dir = rlimit.Strip(withoutVar(env, "SLURM_UMASK")), dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = files.in, files.out, files.err
	cmd.ExtraFiles = []*os.File{goR}
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Setsid:     true,
		Credential: &syscall.Credential{Uid: cred.UID, Gid: cred.GID, Groups: groups},
	}
	err = cmd.Start()
	goR.Close()
	if err != nil {
		goW.Close()
		return nil, err
	}
	s.setLimits(cmd.Process.Pid, goW) // rlimits.go
	return &held{cmd: cmd, goW: goW}, nil
}

// withoutVar is env without name's entries.
func withoutVar(env []string, name string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return strings.HasPrefix(kv, name+"=") })
}

// shell runs the shim.
const shell = "/bin/sh"

// release puts the shim in the group and lets it exec the script.
func (h *held) release(g isolation.Group) error {
	defer h.goW.Close()
	if err := g.Add(h.cmd.Process.Pid); err != nil {
		return err
	}
	if _, err := h.goW.Write([]byte("go\n")); err != nil {
		return fmt.Errorf("release job process: %w", err)
	}
	return nil
}

// loginEnvTimeout bounds loading a user's login environment, like Slurm's
// GetEnvTimeout.
const loginEnvTimeout = 2 * time.Second
