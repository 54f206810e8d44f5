// Package shim holds what the job supervisor (batch scripts) and the step
// process (srun's tasks) share to start a job's process as slurmstepd
// does: the shell shim that holds the process until it is in its cgroup,
// the job's umask, and error texts worded as slurmstepd writes them.
package shim

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/loamhpc/loam/pkg/syserr"
)

// Script holds the job's process until its starter has put it in the
// cgroup, then becomes the program (same pid): it says it runs with one
// byte on fd 3 (Channel; a starter gone by then is no error), waits for a
// line there, sets the umask given as $1, drops the PWD the shell itself
// exports unless $2 is 1 (the environment had one), sets SLURM_TASK_PID
// (its own pid, which only the process itself knows before the exec) and
// execs the rest of its arguments. A POSIX shell costs a fraction of a
// millisecond; a failed exec prints the shell's message to the job's
// error file and exits 126 or 127, the program's exit status.
const Script = `trap '' PIPE; printf r 2>/dev/null >&3; trap - PIPE; read -r line <&3 || exit 127; exec 3<&-; umask "$1"; [ "$2" = 1 ] || unset PWD; shift 2; SLURM_TASK_PID=$$; export SLURM_TASK_PID; exec "$@"`

// Args are the arguments of the shell that runs Script for argv in
// environment env: the peer's srun --export=NONE task has no PWD, which
// a POSIX shell would otherwise add.
func Args(env, argv []string) []string {
	hasPWD := "0"
	for _, kv := range env {
		if strings.HasPrefix(kv, "PWD=") {
			hasPWD = "1"
			break
		}
	}
	return append([]string{"-c", Script, "loam-shim", Umask(env), hasPWD}, argv...)
}

// Umask is the job's umask: SLURM_UMASK (octal, from sbatch or srun),
// else 0022.
func Umask(env []string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], "SLURM_UMASK="); ok {
			if n, err := strconv.ParseUint(v, 8, 32); err == nil && n <= 0o777 {
				return fmt.Sprintf("%04o", n)
			}
		}
	}
	return "0022"
}

// OpenError is a job file that could not be opened, worded as slurmstepd
// logs it ("Could not open stdout file /x/y.out: No such file or
// directory").
type OpenError struct {
	Stream, Path string
	Err          error
}

func (e OpenError) Error() string {
	return "Could not open " + e.Stream + " file " + e.Path + ": " + syserr.Strerror(e.Err)
}

func (e OpenError) Unwrap() error { return e.Err }

// Channel is the held process's fd 3 (child) and its starter's end
// (parent): a socket pair, as both ends write.
func Channel() (child, parent *os.File, err error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("job process channel: %w", err)
	}
	// Non-blocking, the parent's end takes a read deadline (AwaitExec).
	if err := unix.SetNonblock(fds[1], true); err != nil {
		unix.Close(fds[0])
		unix.Close(fds[1])
		return nil, nil, fmt.Errorf("job process channel: %w", err)
	}
	return os.NewFile(uintptr(fds[0]), "shim-child"), os.NewFile(uintptr(fds[1]), "shim"), nil
}

// AwaitExec waits, at most within, for the held process's byte: it then
// runs the shim, its exec is over. Limits set on it before that may be
// lost: the kernel puts back at the end of an exec the stack limit it
// read at its start.
func AwaitExec(parent *os.File, within time.Duration) error {
	if err := parent.SetReadDeadline(time.Now().Add(within)); err != nil {
		return fmt.Errorf("wait for job process: %w", err)
	}
	defer parent.SetReadDeadline(time.Time{})
	var b [1]byte
	if _, err := io.ReadFull(parent, b[:]); err != nil {
		return fmt.Errorf("wait for job process: %w", err)
	}
	return nil
}
