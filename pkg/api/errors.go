package api

import (
	"fmt"
)

// Code names an error as Slurm's slurm_errno.h does ("ESLURM_INVALID_JOB_ID"),
// or a Loam-only condition ("LOAM_BAD_REQUEST").
type Code string

// Slurm's error codes that Loam returns. Their texts (Text) are Slurm
// 22.05's slurm_strerror strings, byte for byte.
const (
	CodeError                 Code = "SLURM_ERROR"
	CodeAgain                 Code = "EAGAIN"
	CodeProtocolAuth          Code = "SLURM_PROTOCOL_AUTHENTICATION_ERROR"
	CodeInvalidPartitionName  Code = "ESLURM_INVALID_PARTITION_NAME"
	CodeDefaultPartitionUnset Code = "ESLURM_DEFAULT_PARTITION_NOT_SET"
	CodeAccessDenied          Code = "ESLURM_ACCESS_DENIED"
	CodeNodesNotInPartition   Code = "ESLURM_REQUESTED_NODES_NOT_IN_PARTITION"
	CodeTooManyCPUs           Code = "ESLURM_TOO_MANY_REQUESTED_CPUS"
	CodeInvalidNodeCount      Code = "ESLURM_INVALID_NODE_COUNT"
	CodeScriptMissing         Code = "ESLURM_JOB_SCRIPT_MISSING"
	CodeUserIDMissing         Code = "ESLURM_USER_ID_MISSING"
	CodePathnameTooLong       Code = "ESLURM_PATHNAME_TOO_LONG"
	CodeNodeConfigUnavailable Code = "ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE"
	CodePartConfigUnavailable Code = "ESLURM_REQUESTED_PART_CONFIG_UNAVAILABLE"
	CodeInvalidJobID          Code = "ESLURM_INVALID_JOB_ID"
	CodeInvalidNodeName       Code = "ESLURM_INVALID_NODE_NAME"
	CodeWritingToFile         Code = "ESLURM_WRITING_TO_FILE"
	CodeTransitionState       Code = "ESLURM_TRANSITION_STATE_NO_UPDATE"
	CodeAlreadyDone           Code = "ESLURM_ALREADY_DONE"
	CodeJobPending            Code = "ESLURM_JOB_PENDING"
	CodeBadTaskCount          Code = "ESLURM_BAD_TASK_COUNT"
	CodeStepLimit             Code = "ESLURM_STEP_LIMIT"
	CodeInvalidNodeState      Code = "ESLURM_INVALID_NODE_STATE"
	CodeInvalidFeature        Code = "ESLURM_INVALID_FEATURE"
	CodeInvalidPrefer         Code = "ESLURM_INVALID_PREFER"
	CodeBatchConstraint       Code = "ESLURM_BATCH_CONSTRAINT"
	CodeNotSupported          Code = "ESLURM_NOT_SUPPORTED"
	CodeDisabled              Code = "ESLURM_DISABLED"
	CodeDependency            Code = "ESLURM_DEPENDENCY"
	CodeBatchOnly             Code = "ESLURM_BATCH_ONLY"
	CodeJobHeld               Code = "ESLURM_JOB_HELD"
	CodeInvalidAccount        Code = "ESLURM_INVALID_ACCOUNT"
	CodeInvalidQOS            Code = "ESLURM_INVALID_QOS"
	CodeInvalidLicenses       Code = "ESLURM_INVALID_LICENSES"
	CodeAccountingPolicy      Code = "ESLURM_ACCOUNTING_POLICY"
	CodeInvalidTimeLimit      Code = "ESLURM_INVALID_TIME_LIMIT"
	CodeReservationInvalid    Code = "ESLURM_RESERVATION_INVALID"
	CodeReservationAccess     Code = "ESLURM_RESERVATION_ACCESS"
	CodeReservationBusy       Code = "ESLURM_RESERVATION_BUSY"
	CodeNodesBusy             Code = "ESLURM_NODES_BUSY"
	CodeReservationNameDup    Code = "ESLURM_RESERVATION_NAME_DUP"
	CodeReservationOverlap    Code = "ESLURM_RESERVATION_OVERLAP"
	CodeReservationInUse      Code = "ESLURM_RESERVATION_IN_USE"
	CodeReservationEmpty      Code = "ESLURM_RESERVATION_EMPTY"
	CodeReservationUserGroup  Code = "ESLURM_RESERVATION_USER_GROUP"
	CodeGroupIDMissing        Code = "ESLURM_GROUP_ID_MISSING"
	CodePartitionInUse        Code = "ESLURM_PARTITION_IN_USE"
	CodeActiveNotSubset       Code = "ESLURM_ACTIVE_FEATURE_NOT_SUBSET"
	CodeInvalidTimeValue      Code = "ESLURM_INVALID_TIME_VALUE"
	CodeMissingWorkDir        Code = "ESLURM_MISSING_WORK_DIR"
	CodeNodeNotAvail          Code = "ESLURM_NODE_NOT_AVAIL"
	CodeInvalidCPUCount       Code = "ESLURM_INVALID_CPU_COUNT"
	CodePartitionNotAvail     Code = "ESLURM_PARTITION_NOT_AVAIL"
	CodePartitionGroup        Code = "ESLURM_JOB_MISSING_REQUIRED_PARTITION_GROUP"
	CodeCircularDependency    Code = "ESLURM_CIRCULAR_DEPENDENCY"
	CodeInvalidGRES           Code = "ESLURM_INVALID_GRES"
	CodeInvalidTaskMemory     Code = "ESLURM_INVALID_TASK_MEMORY"
	CodeJobNotPending         Code = "ESLURM_JOB_NOT_PENDING"
	CodeInvalidArray          Code = "ESLURM_INVALID_ARRAY"
	CodeJobStarted            Code = "ESLURM_JOB_STARTED"
	CodeJobFinished           Code = "ESLURM_JOB_FINISHED"
	CodeJobNotRunning         Code = "ESLURM_JOB_NOT_RUNNING"
	CodeJobNotPendingNorRun   Code = "ESLURM_JOB_NOT_PENDING_NOR_RUNNING"
	CodeInternal              Code = "ESLURM_INTERNAL"
	CodePrioResetFail         Code = "ESLURM_PRIO_RESET_FAIL"
	CodeInvalidNice           Code = "ESLURM_INVALID_NICE"
	CodeInvalidTimeMin        Code = "ESLURM_INVALID_TIME_MIN_LIMIT"
	CodeInvalidAcctFreq       Code = "ESLURMD_INVALID_ACCT_FREQ"
	CodeInvalidJobDefaults    Code = "ESLURM_INVALID_JOB_DEFAULTS"
	CodeInvalidBillingWeights Code = "ESLURM_INVALID_TRES_BILLING_WEIGHTS"
	CodeInvalidTRES           Code = "ESLURM_INVALID_TRES"
	CodeAuthCredInvalid       Code = "ESLURM_AUTH_CRED_INVALID"
	CodeAuthExpired           Code = "ESLURMD_CREDENTIAL_EXPIRED"
	CodeAuthReplayed          Code = "ESLURMD_CREDENTIAL_REPLAYED"
	CodePrologFailed          Code = "ESLURMD_PROLOG_FAILED"
)

// Loam's own codes, for conditions Slurm has no name for.
const (
	// CodeBadRequest: malformed JSON, an unknown field, a wrong type.
	CodeBadRequest Code = "LOAM_BAD_REQUEST"
	// CodeTooLarge: the body exceeds MaxRequestBytes.
	CodeTooLarge Code = "LOAM_REQUEST_TOO_LARGE"
	// CodeNotFound: no such path or method.
	CodeNotFound Code = "LOAM_NOT_FOUND"
	// CodeShuttingDown: the daemon is stopping; retry elsewhere or later.
	CodeShuttingDown Code = "SLURM_SHUTTING_DOWN"
	// CodeCtldConnect: the client could not reach the controller.
	CodeCtldConnect Code = "SLURMCTLD_COMMUNICATIONS_CONNECTION_ERROR"
	// CodeCommunication: a node daemon could not be reached.
	CodeCommunication Code = "SLURM_COMMUNICATIONS_CONNECTION_ERROR"
	// CodeUnavailable: the daemon is overloaded; retry later.
	CodeUnavailable Code = "SLURMCTLD_COMMUNICATIONS_BACKOFF"
	// CodeInvalidConfig: a configuration (reconfigure) was refused.
	CodeInvalidConfig Code = "LOAM_INVALID_CONFIG"
	// CodeLaunchFailed: a node daemon could not start the job.
	CodeLaunchFailed Code = "LOAM_LAUNCH_FAILED"
)

// texts are Slurm's slurm_strerror messages (and Loam's for its own codes).
var texts = map[Code]string{
	CodeError:                 "Unspecified error",
	CodeAgain:                 "Resource temporarily unavailable",
	CodeProtocolAuth:          "Protocol authentication error",
	CodeInvalidPartitionName:  "Invalid partition name specified",
	CodeDefaultPartitionUnset: "No partition specified or system default partition",
	CodeAccessDenied:          "Access/permission denied",
	CodeNodesNotInPartition:   "Requested nodes not in this partition",
	CodeTooManyCPUs:           "More processors requested than permitted",
	CodeInvalidNodeCount:      "Node count specification invalid",
	CodeScriptMissing:         "Job script not specified",
	CodeUserIDMissing:         "Invalid user id",
	CodePathnameTooLong:       "Pathname of a file, directory or other parameter too long",
	CodeNodeConfigUnavailable: "Requested node configuration is not available",
	CodePartConfigUnavailable: "Requested partition configuration not available now",
	CodeInvalidJobID:          "Invalid job id specified",
	CodeInvalidNodeName:       "Invalid node name specified",
	CodeWritingToFile:         "I/O error writing script/environment to file",
	CodeTransitionState:       "Job can not be altered now, try again later",
	CodeAlreadyDone:           "Job/step already completing or completed",
	CodeJobPending:            "Job is pending execution",
	CodeBadTaskCount:          "Task count specification invalid",
	CodeStepLimit:             "Step limit reached for this job",
	CodeInvalidNodeState:      "Invalid node state specified",
	CodeInvalidFeature:        "Invalid feature specification",
	CodeInvalidPrefer:         "Invalid preferred feature specification",
	CodeBatchConstraint:       "Job --batch option is invalid or not a subset of --constraints",
	CodeNotSupported:          "Requested operation not supported on this system",
	CodeDisabled:              "Requested operation is presently disabled",
	CodeDependency:            "Job dependency problem",
	CodeBatchOnly:             "Only batch jobs are accepted or processed",
	CodeJobHeld:               "Job is in held state, pending scheduler release",
	CodeInvalidAccount:        "Invalid account or account/partition combination specified",
	CodeInvalidQOS:            "Invalid qos specification",
	CodeInvalidLicenses:       "Invalid license specification",
	CodeAccountingPolicy:      "Job violates accounting/QOS policy (job submit limit, user's size and/or time limits)",
	CodeInvalidTimeLimit:      "Requested time limit is invalid (missing or exceeds some limit)",
	CodeReservationInvalid:    "Requested reservation is invalid",
	CodeReservationAccess:     "Access denied to requested reservation",
	CodeReservationBusy:       "Requested nodes are busy",
	CodeNodesBusy:             "Requested nodes are busy",
	CodeReservationNameDup:    "Duplicate reservation name",
	CodeReservationOverlap:    "Requested reservation overlaps with another reservation",
	CodeReservationInUse:      "Requested reservation is in use",
	CodeReservationEmpty:      "Reservation request lacks users, groups or accounts",
	CodeReservationUserGroup:  "Reservations can't have users and groups specified, only one or the other",
	CodeGroupIDMissing:        "Invalid group id",
	CodePartitionInUse:        "Partition is in use",
	CodeActiveNotSubset:       "Active features not subset of available features",
	CodeInvalidTimeValue:      "Invalid time specified",
	CodeMissingWorkDir:        "Job cannot be submitted without the current working directory specified.",
	CodeNodeNotAvail:          "Required node not available (down, drained or reserved)",
	CodeInvalidCPUCount:       "CPU count specification invalid",
	CodePartitionNotAvail:     "Required partition not available (inactive or drain)",
	CodePartitionGroup:        "User's group not permitted to use this partition",
	CodeCircularDependency:    "Circular job dependency",
	CodeInvalidGRES:           "Invalid generic resource (gres) specification",
	CodeInvalidTaskMemory:     "Memory required by task is not available",
	CodeJobNotPending:         "Job is no longer pending execution",
	CodeInvalidArray:          "Invalid job array specification",
	CodeJobStarted:            "Job has already started",
	CodeJobFinished:           "Job has already finished",
	CodeJobNotRunning:         "Job is not running",
	CodePrologFailed:          "Job prolog failed",
	CodeJobNotPendingNorRun:   "Job is not pending nor running",
	CodeInternal:              "Slurm internal error, contact system administrator",
	CodePrioResetFail:         "Changes to job priority are not persistent, change nice instead",
	CodeInvalidNice:           "Invalid --nice value",
	CodeInvalidTimeMin:        "Invalid time-min specification (exceeds job's time or other limits)",
	CodeInvalidAcctFreq:       "Invalid accounting frequency requested",
	CodeInvalidJobDefaults:    "Invalid JobDefaults specification",
	CodeInvalidBillingWeights: "Invalid TRESBillingWeights specification",
	CodeInvalidTRES:           "Invalid Trackable RESource (TRES) specification",
	CodeAuthCredInvalid:       "Invalid authentication credential",
	CodeAuthExpired:           "Job credential expired",
	CodeAuthReplayed:          "Job credential replayed",
	CodeJobNotSuspended:       "Job is not suspended",
	CodeUnexpectedMessage:     "Unexpected message received",

	CodeBadRequest:    "Invalid request",
	CodeTooLarge:      "Request too large",
	CodeNotFound:      "Unknown request",
	CodeShuttingDown:  "Process is shutting down and closing all communications",
	CodeUnavailable:   "Rate limit exceeded, please retry momentarily",
	CodeCtldConnect:   "Unable to contact slurm controller (connect failure)",
	CodeCommunication: "Communication connection failure",
	CodeInvalidConfig: "Invalid configuration",
	CodeLaunchFailed:  "Job launch failed",
}

// Text returns the message Slurm prints for code c, or "Unspecified error"
// for a code Loam does not know.
func (c Code) Text() string {
	if t, ok := texts[c]; ok {
		return t
	}
	return texts[CodeError]
}

// Known reports whether c is one of the codes above.
func (c Code) Known() bool {
	_, ok := texts[c]
	return ok
}

// Error is a failed request. Message is exactly what the Slurm command would
// print after its prefix; Detail, when set, says in Loam's words what was
// wrong (which field, which file) and is printed on a following line or in
// verbose mode.
type Error struct {
	Code    Code   `json:"code"`
	Message string `json:"error"`
	Detail  string `json:"detail,omitempty"`
	// Retry tells a client the request may succeed if sent again later
	// (EAGAIN, overload, shutdown), as Slurm's commands retry.
	Retry bool `json:"retry,omitempty"`
	// JobID is the id a refused request used up after the job was
	// created, as Slurm's refusal carries it for a request no node
	// configuration can hold: salloc then says the allocation was revoked.
	JobID uint32 `json:"job_id,omitempty"`
	// NoID marks, inside the controller, a refusal Slurm makes before it
	// gives the job an id: the next job takes the id (never sent).
	NoID bool `json:"-"`
}

// Error prints the message, then the detail after ": " when there is one.
func (e *Error) Error() string {
	if e.Detail != "" {
		return e.Message + ": " + e.Detail
	}
	return e.Message
}

// Is matches another *Error with the same code, so errors.Is(err,
// api.Errorf(api.CodeInvalidJobID, "")) works.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// NewError returns an error with code's Slurm text and no detail.
func NewError(code Code) *Error {
	return &Error{Code: code, Message: code.Text(), Retry: retryable(code)}
}

// Errorf returns an error with code's Slurm text and a formatted detail.
func Errorf(code Code, format string, args ...any) *Error {
	e := NewError(code)
	if format != "" {
		e.Detail = fmt.Sprintf(format, args...)
	}
	return e
}

func retryable(c Code) bool {
	switch c {
	case CodeAgain, CodeUnavailable, CodeShuttingDown, CodeTransitionState, CodeCtldConnect, CodeCommunication:
		return true
	}
	return false
}

// ErrorResponse is the body of every non-2xx answer.
type ErrorResponse struct {
	Error Error `json:"error"`
}

// HTTPStatus is the status a server answers an error with. Clients read the
// body, not the status; the status exists for humans with curl and for
// proxies. (Numbers, not net/http's names: the commands link this package
// and not net/http.)
func (c Code) HTTPStatus() int {
	switch c {
	case CodeBadRequest:
		return 400
	case CodeTooLarge:
		return 413
	case CodeNotFound:
		return 404
	case CodeProtocolAuth, CodeAuthCredInvalid, CodeAuthExpired, CodeAuthReplayed:
		return 401
	case CodeAccessDenied:
		return 403
	case CodeAgain, CodeUnavailable, CodeShuttingDown, CodeCtldConnect, CodeCommunication:
		return 503
	case CodeInternal, CodeWritingToFile, CodeError:
		return 500
	}
	return 422
}
