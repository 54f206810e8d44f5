package rlimit

import (
	"strconv"
	"strings"
)

// EnvPrefix starts each limit's variable: SLURM_RLIMIT_STACK=8388608.
const EnvPrefix = "SLURM_RLIMIT_"

// Limit is one soft limit as the submitting command had it.
type Limit struct {
	Name string
	Soft uint64 // RLIM_INFINITY for unlimited
}

// Env is what sbatch or srun adds to the job's environment for its soft
// limits: with propagate nil (no --propagate) every limit, left to
// slurm.conf to choose on the node; with --propagate (empty or ALL) every
// limit, NONE none, or the listed ones, each marked with "U" as the user's
// request. propagate has been checked already (jobopt).
func Env(propagate *string, limits []Limit) []string {
	want, user := All, false
	if propagate != nil {
		user = true
		if *propagate != "" {
			want, _ = Parse(*propagate)
		}
	}
	var out []string
	for _, l := range limits {
		if !want.Has(l.Name) {
			continue
		}
		v := strconv.FormatUint(l.Soft, 10)
		if user {
			v = "U" + v
		}
		out = append(out, EnvPrefix+l.Name+"="+v)
	}
	return out
}

// Request is one limit a job asks for.
type Request struct {
	Name  string
	Value uint64
	// User is --propagate's mark: the limit is applied even when
	// slurm.conf does not propagate it, and a failure is an error.
	User bool
}

// Requests reads the SLURM_RLIMIT_* variables of env (the last of each
// name wins); unknown names and values that are not numbers are skipped,
// as slurmstepd does.
func Requests(env []string) []Request {
	var out []Request
	seen := map[string]int{}
	for _, kv := range env {
		rest, ok := strings.CutPrefix(kv, EnvPrefix)
		if !ok {
			continue
		}
		name, val, ok := strings.Cut(rest, "=")
		if !ok || index(name) < 0 {
			continue
		}
		r := Request{Name: name}
		val, r.User = strings.CutPrefix(val, "U")
		n, err := strconv.ParseUint(val, 10, 64)
		if err != nil {
			continue
		}
		r.Value = n
		if i, dup := seen[name]; dup {
			out[i] = r
			continue
		}
		seen[name] = len(out)
		out = append(out, r)
	}
	return out
}

// Strip is env without the SLURM_RLIMIT_* variables: the job never sees
// them.
func Strip(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !strings.HasPrefix(kv, EnvPrefix) {
			out = append(out, kv)
		}
	}
	return out
}
