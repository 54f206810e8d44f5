package command

import (
	"errors"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/job"
)

// Array and step markers of a scancel job argument, as Slurm keeps them.
const (
	noArray   = -2 // "12": no array task given
	allTasks  = -1 // "12_*"
	batchStep = -1 // no ".step": the job itself
)

// scancelID is one job argument: "12", "12_3", "12_*", a task of
// "12_[1-3]", or a step "12.0" / "12_3.0".
type scancelID struct {
	job   uint32
	array int // noArray, allTasks or a task index
	step  int // batchStep or a step id
	het   int // a hetjob component ("12+1"), noHet without one
}

// noHet marks a job argument that names no hetjob component.
const noHet = -1

// parseScancelIDs reads the job arguments as Slurm's scancel does:
// "12,13" is two jobs, "12_[1-3]" three tasks, "12." step 0, and a step of
// an array range or a named step ("12.batch") is refused. texts are the
// arguments with comma lists split, as scancel sends them when no option
// makes it look the jobs up first.
func parseScancelIDs(args []string) (ids []scancelID, texts []string, err error) {
	for len(args) > 0 {
		s := args[0]
		args = args[1:]
		more, text, rest, err := parseScancelID(s)
		if err != nil {
			return nil, nil, err
		}
		ids = append(ids, more...)
		texts = append(texts, text)
		if rest != nil {
			args = append([]string{*rest}, args...)
		}
	}
	return ids, texts, nil
}

// parseScancelID reads one argument: text is it up to a comma, rest what
// follows the comma (nil without one).
func parseScancelID(s string) (ids []scancelID, text string, rest *string, err error) {
	bad := errors.New("Invalid job id " + s)
	n, used := cStrtol(s)
	if used == 0 || n <= 0 {
		return nil, "", nil, bad
	}
	id := scancelID{job: uint32(n), array: noArray, step: batchStep, het: noHet}
	next := s[used:]
	switch {
	case strings.HasPrefix(next, "_["):
		ids, err := arrayRange(s, id, next[1:])
		return ids, s, nil, err
	case strings.HasPrefix(next, "_*"):
		id.array, next = allTasks, next[2:]
	case strings.HasPrefix(next, "_"), strings.HasPrefix(next, "+"): // "+": a hetjob component
		v, m := cStrtol(next[1:])
		if v < 0 {
			return nil, "", nil, bad
		}
		if next[0] == '_' {
			id.array = int(v)
		} else {
			id.het = int(v)
		}
		next = next[1+m:]
	}
	if strings.HasPrefix(next, ".") {
		v, m := cStrtol(next[1:])
		if v < 0 {
			return nil, "", nil, bad
		}
		id.step, next = int(v), next[1+m:]
	}
	head, tail, comma := strings.Cut(next, ",")
	if head != "" {
		return nil, "", nil, bad
	}
	if !comma {
		return []scancelID{id}, s, nil, nil
	}
	return []scancelID{id}, strings.TrimSuffix(s, ","+tail), &tail, nil
}

// arrayRange expands "12_[1-3,5]": one id per task, no step, nothing after
// the bracket.
func arrayRange(s string, base scancelID, spec string) ([]scancelID, error) {
	bad := errors.New("Invalid job id " + s)
	if !strings.HasSuffix(spec, "]") || strings.Index(spec, "]") != len(spec)-1 {
		return nil, bad
	}
	tasks, err := hostlist.Expand(spec)
	if err != nil || len(tasks) == 0 {
		return nil, bad
	}
	out := make([]scancelID, 0, len(tasks))
	for _, t := range tasks {
		v, _ := cStrtol(t)
		if v < 0 {
			return nil, bad
		}
		id := base
		id.array = int(v)
		out = append(out, id)
	}
	return out, nil
}

// cStrtol is C's strtol in base 10: leading blanks and a sign, then digits;
// used is 0 when there are none.
func cStrtol(s string) (int64, int) { return job.Strtol(s) }

// name is how Slurm's messages name the argument: "12", "12_3", "12_*".
func (id scancelID) name() string {
	s := strconv.FormatUint(uint64(id.job), 10)
	switch {
	case id.array == allTasks:
		s += "_*"
	case id.array >= 0:
		s += "_" + strconv.Itoa(id.array)
	}
	return s
}

// matches reports whether job record j is what id names: the job, a task
// of its array (a pending record holds many), or with "_*" any task.
func (id scancelID) matches(j *api.Job) bool {
	switch id.array {
	case noArray:
		return id.job == j.JobID || (id.job == j.ArrayJobID && id.step == batchStep)
	case allTasks:
		return id.job == j.ArrayJobID
	}
	if id.job != j.ArrayJobID {
		return false
	}
	if j.ArrayTaskID != nil && *j.ArrayTaskID == id.array {
		return true
	}
	return j.ArrayTaskString != "" && taskInSet(j.ArrayTaskString, id.array)
}

// taskInSet reports whether task t is in a pending record's task string
// ("1,3-5", "1-7:2%2").
func taskInSet(set string, t int) bool {
	set, _, _ = strings.Cut(set, "%")
	for _, part := range strings.Split(set, ",") {
		part, stepText, hasStep := strings.Cut(part, ":")
		lo, hi, isRange := strings.Cut(part, "-")
		if !isRange {
			hi = lo
		}
		a, errA := strconv.Atoi(lo)
		b, errB := strconv.Atoi(hi)
		step := 1
		if hasStep {
			step, _ = strconv.Atoi(stepText)
		}
		if errA != nil || errB != nil || step < 1 {
			continue
		}
		if t >= a && t <= b && (t-a)%step == 0 {
			return true
		}
	}
	return false
}

// active reports whether j can still be cancelled: Slurm counts a
// completing job as finished already.
func active(j *api.Job) bool {
	return !j.JobState.IsTerminal() && j.JobState != job.Completing
}

// jobIDString is how scancel names a job record it acts on: "12_[1,5-6]"
// for a pending array record, "12_3" for a task, else the id.
func jobIDString(j *api.Job) string {
	switch {
	case j.ArrayTaskString != "":
		return strconv.FormatUint(uint64(j.ArrayJobID), 10) + "_[" + j.ArrayTaskString + "]"
	case j.ArrayTaskID != nil:
		return strconv.FormatUint(uint64(j.ArrayJobID), 10) + "_" + strconv.Itoa(*j.ArrayTaskID)
	}
	return strconv.FormatUint(uint64(j.JobID), 10)
}
