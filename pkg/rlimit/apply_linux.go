package rlimit

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// resources are the kernel's numbers for Names.
var resources = map[string]int{
	"CPU": unix.RLIMIT_CPU, "FSIZE": unix.RLIMIT_FSIZE, "DATA": unix.RLIMIT_DATA,
	"STACK": unix.RLIMIT_STACK, "CORE": unix.RLIMIT_CORE, "RSS": unix.RLIMIT_RSS,
	"NPROC": unix.RLIMIT_NPROC, "NOFILE": unix.RLIMIT_NOFILE, "MEMLOCK": unix.RLIMIT_MEMLOCK,
	"AS": unix.RLIMIT_AS,
}

// Capture reads this process's soft limits, in Names' order; one it
// cannot read is left out. The Go runtime raises its own NOFILE soft limit
// to one below the hard one at start and gives children the original
// back: then a child tells the limit the caller had (ulimit -Sn).
func Capture() []Limit {
	var out []Limit
	for _, n := range Names {
		var r unix.Rlimit
		if unix.Getrlimit(resources[n], &r) != nil {
			continue
		}
		if n == "NOFILE" && r.Max > 0 && r.Cur == r.Max-1 {
			r.Cur = startNofile(r.Cur)
		}
		out = append(out, Limit{Name: n, Soft: r.Cur})
	}
	return out
}

// startNofile is the NOFILE soft limit the process started with, as a
// child sees it; cur when the child cannot say.
func startNofile(cur uint64) uint64 {
	out, err := exec.Command("/bin/sh", "-c", "ulimit -Sn").Output()
	if err != nil {
		return cur
	}
	n, err := strconv.ParseUint(strings.TrimSpace(string(out)), 10, 64)
	if err != nil || n > cur {
		return cur
	}
	return n
}

// Apply sets on process pid (the job's process, held before it runs the
// program) the soft limits of reqs that conf propagates or the user asked
// for, as slurmstepd does: the hard limit stays the node's; a value above
// it is lowered to it, unless the user asked for the limit (--propagate),
// then the limit is left as it was and the failure reported. It returns
// lines for the log in slurmstepd's words: errors, and notes of limits
// lowered to the hard limit.
func Apply(pid int, reqs []Request, conf Set) (errs, notes []string) {
	for _, r := range reqs {
		if !conf.Has(r.Name) && !r.User {
			continue
		}
		res := resources[r.Name]
		var old unix.Rlimit
		if err := unix.Prlimit(pid, res, nil, &old); err != nil {
			errs = append(errs, fmt.Sprintf("getrlimit(RLIMIT_%s): %v", r.Name, err))
			continue
		}
		if old.Cur == r.Value {
			continue
		}
		v := r.Value
		if v > old.Max {
			if r.User {
				errs = append(errs, cantPropagate(r.Name, v, unix.EINVAL))
				continue
			}
			notes = append(notes, fmt.Sprintf("RLIMIT_%s: reducing req:%s to max:%s", r.Name, text(v), text(old.Max)))
			v = old.Max
		}
		if err := unix.Prlimit(pid, res, &unix.Rlimit{Cur: v, Max: old.Max}, nil); err != nil {
			errs = append(errs, cantPropagate(r.Name, v, err))
		}
	}
	return errs, notes
}

// cantPropagate is slurmstepd's line for a limit it could not set.
func cantPropagate(name string, v uint64, err error) string {
	val := strconv.FormatUint(v, 10)
	if v == unix.RLIM_INFINITY {
		val = "'unlimited'"
	}
	return fmt.Sprintf("Can't propagate RLIMIT_%s of %s from submit host: %s", name, val, strerror(err))
}

// strerror is the C library's text ("Invalid argument").
func strerror(err error) string {
	s := err.Error()
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		s = string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

func text(v uint64) string {
	if v == unix.RLIM_INFINITY {
		return "inf"
	}
	return strconv.FormatUint(v, 10)
}

// CapRSS lowers process pid's RLIMIT_RSS, soft and hard, to the job's
// memory on the node, as slurmstepd does, when it is above it; mb 0 is no
// memory limit.
func CapRSS(pid int, mb int64) error {
	if mb <= 0 {
		return nil
	}
	b := uint64(mb) << 20
	var old unix.Rlimit
	if err := unix.Prlimit(pid, unix.RLIMIT_RSS, nil, &old); err != nil {
		return fmt.Errorf("read RLIMIT_RSS: %w", err)
	}
	if old.Max <= b {
		return nil
	}
	if err := unix.Prlimit(pid, unix.RLIMIT_RSS, &unix.Rlimit{Cur: b, Max: b}, nil); err != nil {
		return fmt.Errorf("set RLIMIT_RSS to %d MB: %w", mb, err)
	}
	return nil
}
