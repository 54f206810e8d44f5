package command

import (
	"strings"

	"github.com/loamhpc/loam/pkg/jobopt"
)

// taskListFormat cuts job array task lists ("1,3,7,12-15") as Slurm
// 22.05's clients do after SLURM_BITSTR_LEN: unset, a list of 62
// characters or more keeps 60 and "..." (a 64-byte buffer), and a job id
// with its list is cut to 31 characters; set, atoi of the value is the
// buffer (0 or text: the whole list, negative: 64) and job ids are not
// cut. The zero value is the unset form.
type taskListFormat struct {
	set   bool // SLURM_BITSTR_LEN is set
	whole bool // it is 0 or not a number
	size  int  // the buffer; 0: Slurm's 64
}

// defaultBitstrLen is the buffer Slurm formats task lists in.
const defaultBitstrLen = 64

func newTaskListFormat(env *Env) taskListFormat {
	v, ok := env.Getenv("SLURM_BITSTR_LEN")
	if !ok {
		return taskListFormat{}
	}
	v64, _ := cStrtol(v) // atoi: scancel_ids.go
	n := int(v64)
	switch {
	case n == 0:
		return taskListFormat{set: true, whole: true}
	case n < 0:
		n = defaultBitstrLen
	}
	return taskListFormat{set: true, size: n}
}

// cut cuts a task list; a throttle ("%2") after it is kept whole.
func (f taskListFormat) cut(list string) string {
	list, throttle, hasThrottle := strings.Cut(list, "%")
	if hasThrottle {
		throttle = "%" + throttle
	}
	n := f.size
	if n == 0 {
		n = defaultBitstrLen
	}
	// Slurm writes each range and a comma into the buffer: the list no
	// longer fits when it and its comma leave no room for the NUL.
	if f.whole || len(list) < n-2 {
		return list + throttle
	}
	out := list[:max(n-4, 0)] + "..."
	if len(out) > n-1 {
		out = out[:max(n-1, 0)]
	}
	return out + throttle
}

// capsIDs tells whether job ids with task lists are cut to 31 characters.
func (f taskListFormat) capsIDs() bool { return !f.set }

// errorExit is the status sbatch, salloc and srun exit with for a failed
// request: SLURM_EXIT_ERROR, or 1.
func errorExit(env *Env) int {
	n, _ := jobopt.ExitStatusVar(env.Environ, "SLURM_EXIT_ERROR", jobopt.ExitError)
	return n
}

// warnExitVars prints Slurm's error for each exit status variable that is
// set but reads as 0, which the client then ignores.
func warnExitVars(env *Env, w *output, names ...string) {
	for _, name := range names {
		if _, zero := jobopt.ExitStatusVar(env.Environ, name, 0); zero {
			w.errf("%s has zero value", name)
		}
	}
}
