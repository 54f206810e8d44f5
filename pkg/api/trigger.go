package api

// Event triggers, as Slurm's strigger sets, lists and clears them.

// Trigger paths. PathTriggerSet takes TriggerSetRequest and answers
// TriggerSetResponse; PathTriggerGet takes an empty JSON object and answers
// TriggersResponse; PathTriggerClear takes TriggerClearRequest and answers
// TriggerClearResponse.
const (
	PathTriggerSet   = "/v1/triggers/set"
	PathTriggerGet   = "/v1/triggers/get"
	PathTriggerClear = "/v1/triggers/clear"
)

// Trigger codes Slurm has and Loam's table lacked.
const (
	// CodeTriggerDup: the same trigger (type, resource, offset, user,
	// program, flags) is already set.
	CodeTriggerDup Code = "ESLURM_TRIGGER_DUP"
	// CodeNoSuchTrigger: --clear matched no trigger (Slurm answers ESRCH).
	CodeNoSuchTrigger Code = "ESRCH"
)

// The trigger codes' messages, as slurm_perror prints them.
func init() {
	texts[CodeTriggerDup] = "Duplicate event trigger"
	texts[CodeNoSuchTrigger] = "No such process"
}

// A trigger's resource types, as strigger --get prints them.
const (
	TrigResNode      = "node"
	TrigResJob       = "job"
	TrigResOther     = "other" // burst buffer
	TrigResFrontEnd  = "front_end"
	TrigResSlurmctld = "slurmctld"
	TrigResSlurmdbd  = "slurmdbd"
	TrigResDatabase  = "database"
)

// Trigger event bits (a Trigger's Type). A trigger set with several
// events has several bits; strigger prints such a type as "unknown", as
// Slurm does.
const (
	TrigUp uint32 = 1 << iota
	TrigDown
	TrigFail
	TrigTime
	TrigFini
	TrigReconfig
	TrigIdle
	TrigDrained
	TrigPriCtldFail
	TrigPriCtldResOp
	TrigPriCtldResCtrl
	TrigPriCtldAcctFull
	TrigBuCtldFail
	TrigBuCtldResOp
	TrigBuCtldAsCtrl
	TrigPriDbdFail
	TrigPriDbdResOp
	TrigPriDBFail
	TrigPriDBResOp
	TrigBurstBuffer
)

var trigTypeNames = map[uint32]string{
	TrigUp: "up", TrigDown: "down", TrigFail: "fail", TrigTime: "time", TrigFini: "fini",
	TrigReconfig: "reconfig", TrigIdle: "idle", TrigDrained: "drained",
	TrigPriCtldFail: "primary_slurmctld_failure", TrigPriCtldResOp: "primary_slurmctld_resumed_operation",
	TrigPriCtldResCtrl: "primary_slurmctld_resumed_control", TrigPriCtldAcctFull: "primary_slurmctld_acct_buffer_full",
	TrigBuCtldFail: "backup_slurmctld_failure", TrigBuCtldResOp: "backup_slurmctld_resumed_operation",
	TrigBuCtldAsCtrl: "backup_slurmctld_assumed_control", TrigPriDbdFail: "primary_slurmdbd_failure",
	TrigPriDbdResOp: "primary_slurmdbd_resumed_operation", TrigPriDBFail: "primary_database_failure",
	TrigPriDBResOp: "primary_database_resumed_operation", TrigBurstBuffer: "burst_buffer",
}

// TriggerTypeName is a trigger type's name as strigger prints it:
// "unknown" for a combination of events, as Slurm's trigger_type().
func TriggerTypeName(t uint32) string {
	if s, ok := trigTypeNames[t]; ok {
		return s
	}
	return "unknown"
}

// Trigger is one event trigger.
type Trigger struct {
	ID      uint32 `json:"id"`
	ResType string `json:"res_type"`
	// ResID is "*" (every node), a host list, a job id, or "" where Slurm
	// has none (burst buffer, front end).
	ResID string `json:"res_id,omitempty"`
	Type  uint32 `json:"type"`
	// Offset is seconds after the event (negative: before a job's time
	// limit), within +/-32000.
	Offset int    `json:"offset"`
	UID    uint32 `json:"uid"`
	GID    uint32 `json:"gid"`
	// Perm: the trigger stays after it fires (--flags=perm).
	Perm bool `json:"perm,omitempty"`
	// Program is the absolute path of the program and its arguments,
	// separated by spaces.
	Program string `json:"program"`
}

// TriggerSetRequest sets a trigger; the controller assigns ID, UID and GID
// from the caller.
type TriggerSetRequest struct {
	Trigger Trigger `json:"trigger"`
}

// TriggerSetResponse names the trigger set.
type TriggerSetResponse struct {
	ID uint32 `json:"id"`
}

// TriggersResponse lists the triggers still waiting to fire (and the
// permanent ones), by id.
type TriggersResponse struct {
	Triggers []Trigger `json:"triggers"`
}

// TriggerClearRequest clears the caller's triggers (any, for operators)
// matching every field set: a trigger id, a job id, a user.
type TriggerClearRequest struct {
	ID    uint32  `json:"id,omitempty"`
	JobID uint32  `json:"job_id,omitempty"`
	UID   *uint32 `json:"uid,omitempty"`
}

// TriggerClearResponse counts the triggers cleared.
type TriggerClearResponse struct {
	Cleared int `json:"cleared"`
}
