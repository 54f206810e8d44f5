package job

import (
	"fmt"
	"strings"
)

// State is a job state, spelled as Slurm spells it in squeue -l, scontrol and
// sacct ("PENDING", "OUT_OF_MEMORY").
type State string

// The job states. Loam's job life uses the first group; the second group
// exists so that Slurm's names and squeue codes print and parse, but the
// controller never enters those states.
const (
	Pending     State = "PENDING"
	Configuring State = "CONFIGURING"
	Running     State = "RUNNING"
	Suspended   State = "SUSPENDED"
	Completing  State = "COMPLETING"
	Completed   State = "COMPLETED"
	Cancelled   State = "CANCELLED"
	Failed      State = "FAILED"
	Timeout     State = "TIMEOUT"
	Preempted   State = "PREEMPTED"
	NodeFail    State = "NODE_FAIL"
	OutOfMemory State = "OUT_OF_MEMORY"
	BootFail    State = "BOOT_FAIL"
	Deadline    State = "DEADLINE"
	Requeued    State = "REQUEUED"
	RequeueHold State = "REQUEUE_HOLD"

	RequeueFed  State = "REQUEUE_FED"
	Resizing    State = "RESIZING"
	ResvDelHold State = "RESV_DEL_HOLD"
	Revoked     State = "REVOKED"
	Signaling   State = "SIGNALING"
	SpecialExit State = "SPECIAL_EXIT"
	StageOut    State = "STAGE_OUT"
	Stopped     State = "STOPPED"
)

// stateInfo is what Slurm knows about each state: the squeue %t code and
// whether the job has ended.
type stateInfo struct {
	code     string
	terminal bool
}

var states = map[State]stateInfo{
	Pending:     {"PD", false},
	Configuring: {"CF", false},
	Running:     {"R", false},
	Suspended:   {"S", false},
	Completing:  {"CG", false},
	Completed:   {"CD", true},
	Cancelled:   {"CA", true},
	Failed:      {"F", true},
	Timeout:     {"TO", true},
	Preempted:   {"PR", true},
	NodeFail:    {"NF", true},
	OutOfMemory: {"OOM", true},
	BootFail:    {"BF", true},
	Deadline:    {"DL", true},
	Requeued:    {"RQ", false},
	RequeueHold: {"RH", false},
	RequeueFed:  {"RF", false},
	Resizing:    {"RS", false},
	ResvDelHold: {"RD", false},
	Revoked:     {"RV", true},
	Signaling:   {"SI", false},
	SpecialExit: {"SE", true},
	StageOut:    {"SO", false},
	Stopped:     {"ST", false},
}

// ShortCode returns the state as squeue's %t column prints it ("PD", "CG",
// "OOM"), or "" for an unknown state.
func (s State) ShortCode() string { return states[s].code }

// IsTerminal reports whether a job in state s has ended: it holds no
// resources and only an explicit requeue brings it back.
func (s State) IsTerminal() bool { return states[s].terminal }

// Valid reports whether s is one of Slurm's job state names.
func (s State) Valid() bool {
	_, ok := states[s]
	return ok
}

// ParseState accepts a state name or its squeue code, in any case, as squeue
// -t does ("pd", "Running", "OOM").
func ParseState(s string) (State, error) {
	for st, info := range states {
		if strings.EqualFold(s, string(st)) || strings.EqualFold(s, info.code) {
			return st, nil
		}
	}
	return "", fmt.Errorf("invalid job state %q", s)
}
