package api

import (
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/job"
)

// JobRef names a job or some tasks of an array job, as users write them on
// the command line: "12", "12_3", "12_[1-3,7]", "12_*".
//
// "12" names job 12 and, when 12 is an array job, every task of it (the
// pending record and every started task), as squeue -j and scancel do.
type JobRef struct {
	JobID uint32
	// Tasks lists array task indices; nil means the whole job.
	Tasks []int
}

// maxTaskIndex bounds a task index in a reference (Slurm's largest
// MaxArraySize is 4000001).
const maxTaskIndex = 4000000

// RefError is a job reference that does not parse. Its text is what
// scancel prints: "Invalid job id 12x".
type RefError struct{ Ref string }

func (e *RefError) Error() string { return "Invalid job id " + e.Ref }

// ParseJobRef parses one job reference; the error is a *RefError.
func ParseJobRef(s string) (JobRef, error) {
	id, rest, hasTask := strings.Cut(s, "_")
	n, err := strconv.ParseUint(id, 10, 32)
	if err != nil || n == 0 || id[0] == '+' {
		return JobRef{}, &RefError{Ref: s}
	}
	ref := JobRef{JobID: uint32(n)}
	if !hasTask || rest == "*" {
		return ref, nil
	}
	tasks, ok := parseTaskSet(rest)
	if !ok {
		return JobRef{}, &RefError{Ref: s}
	}
	ref.Tasks = tasks
	return ref, nil
}

// parseTaskSet reads "3" or "[1-3,7]" (brackets required for lists).
func parseTaskSet(s string) ([]int, bool) {
	if strings.HasPrefix(s, "[") {
		if !strings.HasSuffix(s, "]") || len(s) < 3 {
			return nil, false
		}
		s = s[1 : len(s)-1]
	} else if strings.ContainsAny(s, ",-") {
		return nil, false
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, errA := strconv.Atoi(lo)
		b := a
		var errB error
		if isRange {
			b, errB = strconv.Atoi(hi)
		}
		if errA != nil || errB != nil || a < 0 || b < a || b > maxTaskIndex || len(out)+(b-a) > maxTaskIndex {
			return nil, false
		}
		for i := a; i <= b; i++ {
			out = append(out, i)
		}
	}
	return out, true
}

// String prints the reference back in its shortest form.
func (r JobRef) String() string {
	id := strconv.FormatUint(uint64(r.JobID), 10)
	switch len(r.Tasks) {
	case 0:
		return id
	case 1:
		return id + "_" + strconv.Itoa(r.Tasks[0])
	}
	return id + "_[" + job.FormatRanges(r.Tasks) + "]"
}

// ParseJobRefs parses a comma-free list of references (one per argument).
func ParseJobRefs(list []string) ([]JobRef, error) {
	out := make([]JobRef, 0, len(list))
	for _, s := range list {
		r, err := ParseJobRef(s)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}
