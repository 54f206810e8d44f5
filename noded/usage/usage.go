package usage

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/loamhpc/loam/pkg/api"
)

// StepFile, in a step's directory, is the node's usage of the step,
// written by the step process when its tasks ended.
const StepFile = "usage.json"

// EventFile, in a step's directory, is the numbered step-usage event the
// node daemon made of StepFile (an api.JobEvent): its presence says the
// step's usage goes to the controller on its own, not with the job's end.
const EventFile = "ev-usage.json"

// FromState is the usage of task, reaped with state ps; zero times when
// the task never ran (nil state).
func FromState(task int, ps *os.ProcessState) api.TaskUsage {
	u := api.TaskUsage{Task: task}
	if ps == nil {
		return u
	}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		u.UserUsec = tvUsec(ru.Utime)
		u.SysUsec = tvUsec(ru.Stime)
		u.MaxRSS = ru.Maxrss * 1024 // KiB on Linux
		u.Pages = ru.Majflt
	}
	return u
}

func tvUsec(tv syscall.Timeval) int64 { return int64(tv.Sec)*1_000_000 + int64(tv.Usec) }

// CgroupRoot is where the cgroup file systems are mounted.
var CgroupRoot = "/sys/fs/cgroup"

// MemPeak reads the memory peak of cgroup group (a path below the
// roots, as isolation.Spec names it): v1's memory.max_usage_in_bytes,
// else v2's memory.peak (Linux 5.19+); 0 when neither can be read.
func MemPeak(group string) int64 {
	for _, p := range []string{
		filepath.Join(CgroupRoot, "memory", group, "memory.max_usage_in_bytes"),
		filepath.Join(CgroupRoot, group, "memory.peak"),
	} {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64); err == nil {
			return n
		}
	}
	return 0
}

// WriteStep writes a step's usage on this node into its directory.
func WriteStep(dir string, n api.NodeUsage) error {
	data, err := json.Marshal(n)
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, StepFile+".tmp")
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return fmt.Errorf("write step usage: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, StepFile)); err != nil {
		return fmt.Errorf("write step usage: %w", err)
	}
	return nil
}

// ReadStep reads the usage the step process left in step directory dir;
// fs.ErrNotExist when it left none (yet).
func ReadStep(dir string) (api.NodeUsage, error) {
	var n api.NodeUsage
	data, err := os.ReadFile(filepath.Join(dir, StepFile))
	if err != nil {
		return n, err
	}
	if err := json.Unmarshal(data, &n); err != nil {
		return n, fmt.Errorf("%s: %w", filepath.Join(dir, StepFile), err)
	}
	return n, nil
}

// CollectSteps reads the usage files of the steps in job directory
// jobDir (step_<id>/usage.json), in step order: the fallback of the job's
// end event. Steps without one (still running, or killed with the job
// before they wrote it) are left out, and so are those whose usage the
// node daemon numbered as an event of its own (EventFile).
func CollectSteps(jobDir string) ([]api.StepNodeUsage, error) {
	out, _, err := ScanSteps(jobDir)
	return out, err
}

// ScanSteps is CollectSteps that also names the directories of the steps
// that left neither usage nor an event (yet: their step process may still
// be reaping its tasks).
func ScanSteps(jobDir string) (found []api.StepNodeUsage, unrecorded []string, err error) {
	entries, err := os.ReadDir(jobDir)
	if err != nil {
		return nil, nil, fmt.Errorf("collect step usage: %w", err)
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), "step_")
		if !ok || !e.IsDir() {
			continue
		}
		id, perr := strconv.ParseUint(rest, 10, 32)
		if perr != nil {
			continue
		}
		dir := filepath.Join(jobDir, e.Name())
		if _, serr := os.Lstat(filepath.Join(dir, EventFile)); serr == nil {
			continue
		}
		n, rerr := ReadStep(dir)
		switch {
		case errors.Is(rerr, fs.ErrNotExist):
			unrecorded = append(unrecorded, dir)
		case rerr != nil:
			err = errors.Join(err, fmt.Errorf("step %d usage: %w", id, rerr))
		default:
			found = append(found, api.StepNodeUsage{StepID: uint32(id), Usage: n})
		}
	}
	slices.SortFunc(found, func(a, b api.StepNodeUsage) int { return int(a.StepID) - int(b.StepID) })
	return found, unrecorded, err
}
