package command

import (
	"context"
	"io"
	"os"
	"os/user"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/rlimit"
	"golang.org/x/sys/unix"
)

// Controller is what the commands ask of loam-ctld; *client.Client
// implements it, and tests use an in-memory fake.
type Controller interface {
	Ping(ctx context.Context) (*api.PingResponse, error)
	Submit(ctx context.Context, req *api.SubmitRequest) (*api.SubmitResponse, error)
	Jobs(ctx context.Context, q *api.JobQuery) (*api.JobsResponse, error)
	JobTable(ctx context.Context, q *api.JobQuery) (*api.JobTable, error)
	Cancel(ctx context.Context, req *api.CancelRequest) (*api.JobResults, error)
	Hold(ctx context.Context, req *api.HoldRequest) (*api.JobResults, error)
	Release(ctx context.Context, req *api.ReleaseRequest) (*api.JobResults, error)
	Update(ctx context.Context, req *api.UpdateRequest) (*api.JobResults, error)
	Requeue(ctx context.Context, req *api.RequeueRequest) (*api.JobResults, error)
	Nodes(ctx context.Context, q *api.NodeQuery) (*api.NodesResponse, error)
	UpdateNodes(ctx context.Context, req *api.NodeUpdateRequest) (*api.NodeUpdateResponse, error)
	Partitions(ctx context.Context) (*api.PartitionsResponse, error)
	Config(ctx context.Context) (*api.ConfigResponse, error)
	Reconfigure(ctx context.Context) (*api.ReconfigureResponse, error)
	Accounting(ctx context.Context, q *api.AcctQuery) (*api.AcctResponse, error)
}

// Users resolves user and group names as the commands need them: -u
// arguments to uids, and uids and gids to names for output.
type Users interface {
	// UID resolves a user name or a numeric uid.
	UID(name string) (uint32, bool)
	// Name returns the user name of uid, or the number when unknown.
	Name(uid uint32) string
	// Group returns the group name of gid, or the number when unknown.
	Group(gid uint32) string
}

// Env is everything a command takes from its process. OSEnv fills it from
// the real process; tests build one with buffers, a fixed clock and a fake
// controller.
type Env struct {
	// Argv0 is the program as it was called (os.Args[0]): glibc's getopt
	// messages start with it, "/usr/bin/srun: ..." when run by path.
	// Empty means the bare command name.
	Argv0  string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Environ is the environment, KEY=VALUE.
	Environ []string
	// Cwd is the working directory (absolute); Host the short host name.
	Cwd  string
	Host string
	// Sid is the process's session id, sent with submissions as Slurm's
	// commands send it (scontrol's AllocNode:Sid); 0 when unknown.
	Sid int
	// UID and GID are the caller's real ids; Umask its file mode mask
	// (-1: unknown), which sbatch passes to the job.
	UID   uint32
	GID   uint32
	Umask int
	// RLimits are the caller's soft limits, which sbatch and srun pass to
	// the job (SLURM_RLIMIT_*); nil passes none.
	RLimits []rlimit.Limit
	// Now is the clock; its location is the one times print in.
	Now func() time.Time
	// Sleep waits d or until ctx ends (squeue -i, sbatch --wait).
	Sleep func(ctx context.Context, d time.Duration) error
	Users Users
	// ReadFile reads a file (sbatch scripts); Exists tells whether a path
	// exists (sbatch's script search).
	ReadFile func(name string) ([]byte, error)
	Exists   func(name string) bool
	// Dial connects to the controller.
	Dial func(ctx context.Context) (Controller, error)
}

// Getenv returns the value of key and whether it is set.
func (e *Env) Getenv(key string) (string, bool) {
	for i := len(e.Environ) - 1; i >= 0; i-- {
		kv := e.Environ[i]
		if len(kv) > len(key) && kv[len(key)] == '=' && strings.HasPrefix(kv, key) {
			return kv[len(key)+1:], true
		}
	}
	return "", false
}

// OSEnv returns the Env of this process, connecting to the controller
// with dial (client.Discover in the mains).
func OSEnv(dial func(ctx context.Context) (Controller, error)) *Env {
	cwd, _ := os.Getwd()
	if pwd := os.Getenv("PWD"); pwd != "" && sameDir(pwd, cwd) {
		cwd = pwd // as getcwd() callers see it through symlinks, like sbatch
	}
	host, _ := os.Hostname()
	host, _, _ = strings.Cut(host, ".")
	sid, _ := unix.Getsid(0)
	return &Env{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Environ: os.Environ(), Cwd: cwd, Host: host, Sid: sid,
		UID: uint32(os.Getuid()), GID: uint32(os.Getgid()), Umask: currentUmask(),
		RLimits: rlimit.Capture(),
		Now:     time.Now, Sleep: sleepCtx, Users: osUsers{},
		ReadFile: os.ReadFile,
		Exists: func(name string) bool {
			_, err := os.Stat(name)
			return err == nil
		},
		Dial: dial,
	}
}

// currentUmask reads the umask (setting it back at once).
func currentUmask() int {
	m := syscall.Umask(0)
	syscall.Umask(m)
	return m
}

func sameDir(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// osUsers reads the system's user database (/etc/passwd and /etc/group in
// these cgo-free binaries).
type osUsers struct{}

func (osUsers) UID(name string) (uint32, bool) {
	if u, err := user.Lookup(name); err == nil {
		n, err := strconv.ParseUint(u.Uid, 10, 32)
		return uint32(n), err == nil
	}
	n, err := strconv.ParseUint(name, 10, 32)
	if err != nil {
		return 0, false
	}
	_, err = user.LookupId(name)
	return uint32(n), err == nil
}

func (osUsers) Name(uid uint32) string {
	s := strconv.FormatUint(uint64(uid), 10)
	if u, err := user.LookupId(s); err == nil {
		return u.Username
	}
	return s
}

func (osUsers) Group(gid uint32) string {
	s := strconv.FormatUint(uint64(gid), 10)
	if g, err := user.LookupGroupId(s); err == nil {
		return g.Name
	}
	return s
}
