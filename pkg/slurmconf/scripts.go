package slurmconf

import (
	"strings"
	"time"
)

// Scripts are the programs run around a job's tasks and srun's steps,
// and the node health check.
type Scripts struct {
	// TaskProlog and TaskEpilog run as the job's user before and after
	// each task (the batch script too), in the task's environment;
	// TaskProlog's output can change that environment.
	TaskProlog, TaskEpilog string
	// SrunProlog and SrunEpilog run where srun runs, before it launches
	// a step and after the step ended.
	SrunProlog, SrunEpilog string
	// HealthCheckProgram runs as root on every node at the daemon's start
	// and every HealthCheckInterval (never when the interval is 0) on the
	// nodes whose state HealthCheckStates matches.
	HealthCheckProgram  string
	HealthCheckInterval time.Duration
	HealthCheckStates   HealthCheckState
}

// HealthCheckState is HealthCheckNodeState: which node states the health
// check runs in, and whether the runs are spread over the interval.
type HealthCheckState uint8

// HealthCheckNodeState's words.
const (
	HealthIdle HealthCheckState = 1 << iota
	HealthAlloc
	HealthMixed
	// HealthNonDrainedIdle: idle and not draining or drained.
	HealthNonDrainedIdle
	// HealthCycle spreads the nodes' runs over the interval instead of
	// running them all at once.
	HealthCycle
	// HealthAny is every state (the default).
	HealthAny = HealthIdle | HealthAlloc | HealthMixed
)

var healthWords = []struct {
	word  string
	state HealthCheckState
}{
	{"ANY", HealthAny}, {"IDLE", HealthIdle}, {"ALLOC", HealthAlloc},
	{"MIXED", HealthMixed}, {"NONDRAINED_IDLE", HealthNonDrainedIdle}, {"CYCLE", HealthCycle},
}

// ParseHealthCheckState decodes HealthCheckNodeState ("IDLE,CYCLE");
// a value naming only CYCLE means every state, as in Slurm.
func ParseHealthCheckState(v string) (HealthCheckState, bool) {
	var st HealthCheckState
	for _, w := range strings.Split(v, ",") {
		w = strings.TrimSpace(w)
		found := false
		for _, hw := range healthWords {
			if strings.EqualFold(w, hw.word) {
				st, found = st|hw.state, true
			}
		}
		if !found {
			return 0, false
		}
	}
	if st&^HealthCycle == 0 {
		st |= HealthAny
	}
	return st, true
}

// Matches says whether the check runs on a node in base state (IDLE,
// MIXED, ALLOCATED, scontrol's spelling) that is draining or drained
// when drain is set.
func (h HealthCheckState) Matches(base string, drain bool) bool {
	if h&HealthAny == HealthAny {
		return true
	}
	switch strings.ToUpper(base) {
	case "IDLE":
		return h&HealthIdle != 0 || (h&HealthNonDrainedIdle != 0 && !drain)
	case "MIXED":
		return h&HealthMixed != 0
	case "ALLOCATED", "ALLOC":
		return h&HealthAlloc != 0
	}
	return false
}

// decodeScripts decodes the script keys.
func decodeScripts(x *dec, c *Config) {
	s := &c.Scripts
	x.str("TaskProlog", &s.TaskProlog)
	x.str("TaskEpilog", &s.TaskEpilog)
	x.str("SrunProlog", &s.SrunProlog)
	x.str("SrunEpilog", &s.SrunEpilog)
	x.str("HealthCheckProgram", &s.HealthCheckProgram)
	x.seconds("HealthCheckInterval", &s.HealthCheckInterval)
	s.HealthCheckStates = HealthAny
	if f, ok := x.get("HealthCheckNodeState"); ok {
		st, ok := ParseHealthCheckState(f.Value)
		if !ok {
			x.bad(f, "%q is not a list of node states (ANY, ALLOC, CYCLE, IDLE, MIXED, NONDRAINED_IDLE)", f.Value)
			return
		}
		s.HealthCheckStates = st
	}
}

// HealthCheckNodeStateString is HealthCheckNodeState as scontrol show
// config prints it, Slurm's canonical form: CYCLE first, then ANY when
// the value named ANY (or CYCLE alone), else IDLE, ALLOC, MIXED in that
// order whatever the value's order and case ("idle,cycle" shows
// "CYCLE,IDLE"; "MIXED,ALLOC,IDLE" shows "IDLE,ALLOC,MIXED", not ANY).
// NONDRAINED_IDLE, which Loam accepts and 22.05 does not, comes last.
// A value that does not parse is shown as given, upper-cased.
func HealthCheckNodeStateString(v string) string {
	st, ok := ParseHealthCheckState(v)
	if !ok {
		return strings.ToUpper(v)
	}
	// ANY when named, or when no state was (CYCLE alone means every one).
	anyState, named := false, false
	for _, w := range strings.Split(v, ",") {
		w = strings.TrimSpace(w)
		anyState = anyState || strings.EqualFold(w, "ANY")
		named = named || !strings.EqualFold(w, "CYCLE")
	}
	var out []string
	if st&HealthCycle != 0 {
		out = append(out, "CYCLE")
	}
	if anyState || !named {
		return strings.Join(append(out, "ANY"), ",")
	}
	for _, w := range []struct {
		word  string
		state HealthCheckState
	}{{"IDLE", HealthIdle}, {"ALLOC", HealthAlloc}, {"MIXED", HealthMixed}, {"NONDRAINED_IDLE", HealthNonDrainedIdle}} {
		if st&w.state != 0 {
			out = append(out, w.word)
		}
	}
	return strings.Join(out, ",")
}
