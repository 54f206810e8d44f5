package spool

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/loamhpc/loam/noded/nodeprolog"
	"github.com/loamhpc/loam/noded/unkillable"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/gpu"
	"github.com/loamhpc/loam/pkg/rlimit"
)

// File names inside a job directory.
const (
	LaunchFile     = "launch.json"
	ScriptFile     = "slurm_script" // $0 of the batch script, as under slurmd
	LockFile       = "lock"
	SocketFile     = "sup.sock"
	StartFile      = "start.json"
	ResultFile     = "result.json"
	StartedEvent   = "ev-started.json"
	EndedEvent     = "ev-ended.json"
	SupervisorLog  = "supervisors.log"
	jobsDir        = "jobs"
	doneDir        = "done"
	ackedFile      = "acked"
	jobDirPrefix   = "" // job directories are named by the bare job id
	tmpSuffix      = ".tmp"
	privateDirMode = 0o700
)

// Launch is a job as the daemon hands it to its supervisor: the
// controller's request plus what the daemon decided on this node.
type Launch struct {
	Request api.LaunchRequest `json:"request"`
	// Node is this node's name, Hostname the host's name (%N in output
	// names), ConfPath the configuration file (SLURM_CONF).
	Node     string `json:"node"`
	Hostname string `json:"hostname"`
	ConfPath string `json:"conf_path"`
	// Group is the job's cgroup; CPUs the host CPUs it runs on.
	Group       string       `json:"group"`
	CPUs        string       `json:"cpus"`
	MemoryBytes int64        `json:"memory_bytes"`
	PidsMax     int64        `json:"pids_max"`
	GPUs        []gpu.Device `json:"gpus,omitempty"`
	DenyDevices []string     `json:"deny_devices,omitempty"`
	// Received is when the daemon accepted the launch.
	Received time.Time `json:"received"`
	// TaskProlog and TaskEpilog are slurm.conf's: the supervisor runs
	// them around the batch script.
	TaskProlog string `json:"task_prolog,omitempty"`
	TaskEpilog string `json:"task_epilog,omitempty"`
	// RLimits are the submitter's limits slurm.conf propagates
	// (PropagateResourceLimits): the job's processes get them.
	RLimits rlimit.Set `json:"rlimits,omitempty"`
	// Prolog and Epilog are slurm.conf's node scripts: the supervisor
	// runs them, as root, before the job starts here and after it ended.
	Prolog nodeprolog.Spec `json:"prolog,omitzero"`
	Epilog nodeprolog.Spec `json:"epilog,omitzero"`
	// Unkillable is UnkillableStepTimeout and UnkillableStepProgram; nil
	// in a launch written before the daemon passed them on.
	Unkillable *unkillable.Spec `json:"unkillable,omitempty"`
}

// Start records that the batch script runs.
type Start struct {
	Time time.Time `json:"time"`
	Pid  int       `json:"pid"`
}

// Spool is one node daemon's state directory.
type Spool struct {
	Root string

	ackMu sync.Mutex
	acked *os.File // the acknowledgement file, once SetAcked opened it

	logOnce sync.Once
	log     *os.File // SupervisorLog, once SupervisorOutput opened it
	logErr  error
}

// Open creates the layout under root (mode 0755 for the root and jobs/,
// which job users must traverse to reach their scripts; 0700 for done/).
func Open(root string) (*Spool, error) {
	for _, d := range []struct {
		path string
		mode os.FileMode
	}{{root, 0o755}, {filepath.Join(root, jobsDir), 0o755}, {filepath.Join(root, doneDir), privateDirMode}} {
		if err := os.MkdirAll(d.path, d.mode); err != nil {
			return nil, fmt.Errorf("spool: %w", err)
		}
		if err := os.Chmod(d.path, d.mode); err != nil {
			return nil, fmt.Errorf("spool: %w", err)
		}
	}
	return &Spool{Root: root}, nil
}

// SupervisorOutput is the standard output and error every job
// supervisor of this node gets: one file for all of them, opened for
// appending once, as slurmstepd logs to slurmd's log file. A file per job
// cost an inode made and deleted for every job, and making inodes on ext4
// without a journal slows with the rate of recent deletions.
func (s *Spool) SupervisorOutput() (*os.File, error) {
	s.logOnce.Do(func() {
		s.log, s.logErr = os.OpenFile(filepath.Join(s.Root, SupervisorLog), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	})
	return s.log, s.logErr
}

// JobDir is the directory of a running job.
func (s *Spool) JobDir(id uint32) string {
	return filepath.Join(s.Root, jobsDir, jobDirPrefix+strconv.FormatUint(uint64(id), 10))
}

// DoneDir is the directory a finished job moved to under sequence seq.
func (s *Spool) DoneDir(seq uint64) string {
	return filepath.Join(s.Root, doneDir, strconv.FormatUint(seq, 10))
}

// Jobs lists the ids of the job directories under jobs/.
func (s *Spool) Jobs() ([]uint32, error) {
	out, _, err := listNumbered(filepath.Join(s.Root, jobsDir), 32, func(n uint64) uint32 { return uint32(n) })
	return out, err
}

// Done lists the sequence numbers under done/.
func (s *Spool) Done() ([]uint64, error) {
	out, _, err := listNumbered(filepath.Join(s.Root, doneDir), 64, func(n uint64) uint64 { return n })
	return out, err
}

// Strays lists the paths under jobs/ and done/ that are neither a job's
// nor a finished job's directory (a name that is not a number, a plain
// file): the daemon neither reads nor removes them, but says so, since
// they are someone's mistake or a damaged file system's.
func (s *Spool) Strays() ([]string, error) {
	_, jobs, err := listNumbered(filepath.Join(s.Root, jobsDir), 32, func(uint64) struct{} { return struct{}{} })
	if err != nil {
		return nil, err
	}
	_, done, err := listNumbered(filepath.Join(s.Root, doneDir), 64, func(uint64) struct{} { return struct{}{} })
	return append(jobs, done...), err
}

// listNumbered returns the numbers naming directories in dir, and the
// paths of the other entries.
func listNumbered[T any](dir string, bits int, conv func(uint64) T) ([]T, []string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("spool: %w", err)
	}
	var out []T
	var strays []string
	for _, e := range ents {
		n, err := strconv.ParseUint(e.Name(), 10, bits)
		if err == nil && e.IsDir() {
			out = append(out, conv(n))
		} else {
			strays = append(strays, filepath.Join(dir, e.Name()))
		}
	}
	return out, strays, nil
}

// Finish moves a finished job's directory to done/<seq>: the commit point
// of its end event.
func (s *Spool) Finish(id uint32, seq uint64) error {
	if err := os.Rename(s.JobDir(id), s.DoneDir(seq)); err != nil {
		return fmt.Errorf("spool: finish job %d: %w", id, err)
	}
	return nil
}

// Acked reads the highest acknowledged event number (0 when none).
func (s *Spool) Acked() (uint64, error) {
	path := filepath.Join(s.Root, ackedFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("spool: %w", err)
	}
	text := strings.TrimSpace(string(data))
	n, err := strconv.ParseUint(text, 10, 64)
	if err != nil {
		if len(text) > 40 {
			text = text[:40] + "..."
		}
		return 0, fmt.Errorf("spool: %s: %w: %q is not an event number", path, ErrCorrupt, text)
	}
	return n, nil
}

// SetAcked records the highest acknowledged event number. The file is
// rewritten in place by one write of a fixed width (20 digits and a line
// end), which a crash of the daemon cannot tear: a new file renamed over
// it, twice per job, cost the spool's file system an inode each time
// (on ext4 without a journal, most of the write's cost). The first write
// also cuts the file to that width: one that held something longer
// (damaged, or written by hand) would otherwise keep its tail after the
// number and be unreadable at the next start.
func (s *Spool) SetAcked(seq uint64) error {
	s.ackMu.Lock()
	defer s.ackMu.Unlock()
	line := fmt.Appendf(nil, "%020d\n", seq)
	first := s.acked == nil
	if first {
		f, err := os.OpenFile(filepath.Join(s.Root, ackedFile), os.O_WRONLY|os.O_CREATE, 0o600)
		if err != nil {
			return fmt.Errorf("spool: %w", err)
		}
		s.acked = f
	}
	if _, err := s.acked.WriteAt(line, 0); err != nil {
		return fmt.Errorf("spool: acked: %w", err)
	}
	if first {
		if err := s.acked.Truncate(int64(len(line))); err != nil {
			return fmt.Errorf("spool: acked: %w", err)
		}
	}
	return nil
}

// WriteJSON writes v to path atomically.
func WriteJSON(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return WriteFile(path, data, 0o600)
}

// WriteFile writes data to path atomically (a temporary file renamed).
func WriteFile(path string, data []byte, mode os.FileMode) error {
	tmp := path + tmpSuffix
	if err := os.WriteFile(tmp, data, mode); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// ErrCorrupt is a record that does not decode: half-written before a
// crash, or damaged on disk.
var ErrCorrupt = errors.New("corrupt record")

// ReadJSON reads path into v; a missing file is fs.ErrNotExist, one that
// does not decode ErrCorrupt.
func ReadJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("read %s: %w: %w", path, ErrCorrupt, err)
	}
	return nil
}

// Exists reports whether path exists.
func Exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// Lock takes the job's supervisor lock, without waiting. It fails with
// ErrLocked when a live supervisor holds it. The returned file holds the
// lock until closed (or the process exits); it is close-on-exec, so the
// job never inherits it.
func Lock(jobDir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(jobDir, LockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", jobDir, err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, ErrLocked
		}
		return nil, fmt.Errorf("lock %s: %w", jobDir, err)
	}
	return f, nil
}

// ErrLocked: a live supervisor holds the job's lock.
var ErrLocked = errors.New("a supervisor holds the job's lock")

// SupervisorAlive reports whether a supervisor holds jobDir's lock.
func SupervisorAlive(jobDir string) bool {
	if !Exists(filepath.Join(jobDir, LockFile)) {
		return false
	}
	f, err := Lock(jobDir)
	if err != nil {
		return errors.Is(err, ErrLocked)
	}
	f.Close()
	return false
}
