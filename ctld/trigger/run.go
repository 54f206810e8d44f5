package trigger

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"strconv"
	"syscall"
	"time"
)

// MaxRunTime bounds a trigger's program: past it, its process group is
// killed, as Slurm's trigger manager does after five minutes.
const MaxRunTime = 5 * time.Minute

// Exec is one program to start for a trigger.
type Exec struct {
	Path string
	Argv []string // Argv[0] is the program's base name
	UID  uint32
	GID  uint32
	// Env is the program's whole environment (the controller's own when
	// nil), and Timeout its bound (MaxRunTime when 0).
	Env     []string
	Timeout time.Duration
}

// ExecOf is f's program as it runs.
func ExecOf(f Fire) Exec {
	path, argv := f.Argv()
	return Exec{Path: path, Argv: argv, UID: f.Trigger.UID, GID: f.Trigger.GID}
}

// Runner starts trigger programs. Start must not block: it returns once
// the program started, and done is closed when it ended and was reaped.
// Tests substitute a Runner that records what would run.
type Runner interface {
	Start(e Exec) (done <-chan struct{}, err error)
}

// OSRunner starts programs as processes of their own: in a new session,
// as the trigger's user (uid, gid and that user's groups), with standard
// input, output and error on /dev/null and none of the controller's other
// descriptors (Go opens every descriptor close-on-exec).
type OSRunner struct{}

// Start starts e and reaps it in the background.
func (r OSRunner) Start(e Exec) (<-chan struct{}, error) {
	res, err := r.Run(e)
	if err != nil {
		return nil, err
	}
	done := make(chan struct{})
	go func() {
		<-res // its exit status is the program's own business
		close(done)
	}()
	return done, nil
}

// Run starts e as Start does and sends how it ended once it was reaped:
// nil for exit status 0, else the *exec.ExitError (a program past its
// timeout has its whole process group killed, and ends by SIGKILL).
func (OSRunner) Run(e Exec) (<-chan error, error) {
	if e.Path == "" {
		return nil, errors.New("start trigger program: empty program")
	}
	cmd := &exec.Cmd{Path: e.Path, Args: e.Argv, Dir: "/", Env: e.Env}
	cred := &syscall.Credential{Uid: e.UID, Gid: e.GID, Groups: groupsOf(e.UID, e.GID)}
	if int(e.UID) == os.Getuid() && int(e.GID) == os.Getgid() {
		cred = nil // already that user; setgroups needs privilege
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Credential: cred}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start trigger program %s: %w", e.Path, err)
	}
	limit := e.Timeout
	if limit <= 0 {
		limit = MaxRunTime
	}
	res := make(chan error, 1)
	go func() {
		kill := time.AfterFunc(limit, func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
		defer kill.Stop()
		res <- cmd.Wait()
	}()
	return res, nil
}

// groupsOf is the user's supplementary groups (initgroups), or just gid
// when the user is unknown.
func groupsOf(uid, gid uint32) []uint32 {
	out := []uint32{gid}
	u, err := user.LookupId(strconv.FormatUint(uint64(uid), 10))
	if err != nil {
		return out
	}
	ids, err := u.GroupIds()
	if err != nil {
		return out
	}
	for _, s := range ids {
		if g, err := strconv.ParseUint(s, 10, 32); err == nil && uint32(g) != gid {
			out = append(out, uint32(g))
		}
	}
	return out
}
