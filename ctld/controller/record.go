package controller

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// jobRecord is the controller's record of one job id: the request as
// accepted (shared by the tasks of an array) and the mutable status. Both
// are persisted; the fields after St are soft state rebuilt by the next
// scheduling cycle.
type jobRecord struct {
	ID  uint32
	Req *job.Request
	St  jobStatus

	plan    PendingInfo      // the latest cycle's word on a pending job
	resv    *ReservationInfo // the scheduler's reservation for it
	gone    bool             // removed from the live table
	reqBlob []byte           // Req as persisted (kept only while needed)

	// throttleHeld: a cycle left this array record's tasks waiting on
	// its throttle (array_throttle.go).
	throttleHeld bool
	// epilogStarted: EpilogSlurmctld already started for this run, before
	// a requeue on its exit code (requeue_exit.go).
	epilogStarted bool
	// ruleRequeue: the run being requeued ended by the controller's own
	// rule, RequeueExit or a failed PrologSlurmctld, not a node failure;
	// its accounting keeps its exit code (acct_runs.go).
	ruleRequeue bool
	// prologFailed: a failed PrologSlurmctld cancelled the job; its
	// srun or salloc says so (api.Allocation.Cause).
	prologFailed bool
	// nodePrologFailed: the node whose Prolog failed and cancelled this
	// interactive job; a step launched in it is refused as slurmd refuses
	// it (nodeprolog.go).
	nodePrologFailed string
}

// jobStatus is the persisted mutable part of a job. Times are Unix seconds.
type jobStatus struct {
	State  job.State  `json:"state"`
	Reason job.Reason `json:"reason,omitempty"`
	Desc   string     `json:"desc,omitempty"`
	// EndState is the state a job that is being stopped (cancel, timeout,
	// preemption) takes once its node daemon reports the end.
	EndState  job.State  `json:"end_state,omitempty"`
	EndReason job.Reason `json:"end_reason,omitempty"`
	// CancelledBy is the uid whose scancel ended the job (sacct's
	// "CANCELLED by N").
	CancelledBy *uint32 `json:"cancelled_by,omitempty"`
	// PrologFailed: a node's Prolog failed and ended this run; its batch
	// script never ran (sacct leaves the batch step's exit code blank).
	PrologFailed bool `json:"prolog_failed,omitempty"`
	// StopBy is when a job being stopped must be dead (signal, grace,
	// KillWait); past it and some slack the controller stops waiting for
	// its node daemon.
	StopBy int64 `json:"stop_by,omitempty"`

	// Array: the array job id and this record's task (-1 for an array's
	// pending record or an ordinary job); Pending lists the tasks an
	// array's pending record still holds; the statistics are the whole
	// array's, for SLURM_ARRAY_TASK_*.
	ArrayJobID   uint32 `json:"array_job_id,omitempty"`
	ArrayTask    int    `json:"array_task"`
	ArrayPending string `json:"array_pending,omitempty"`
	// TasksCut: a cancel took some of the pending record's tasks by name.
	// Like slurmctld, which then gives the record no task id of its own,
	// it keeps the list form down to one task ("12_[4]", not "12_4")
	// until a task starts from it.
	TasksCut   bool `json:"tasks_cut,omitempty"`
	Throttle   int  `json:"throttle,omitempty"`
	ArrayCount int  `json:"array_count,omitempty"`
	ArrayMin   int  `json:"array_min,omitempty"`
	ArrayMax   int  `json:"array_max,omitempty"`
	ArrayStep  int  `json:"array_step,omitempty"`

	Partitions []string `json:"partitions"`
	Partition  string   `json:"partition"`
	Account    string   `json:"account,omitempty"`
	Groups     []uint32 `json:"groups,omitempty"`
	// TimeLimit in seconds (api.UnlimitedSeconds); the partition's default
	// is applied at submit.
	TimeLimit int64 `json:"time_limit"`

	Submit   int64 `json:"submit"`
	Eligible int64 `json:"eligible,omitempty"`
	// Accrue is the accrue time kept when Eligible moves on: an array
	// task the throttle let go keeps its array's (convert.go accrueTime).
	Accrue   int64 `json:"accrue,omitempty"`
	Begin    int64 `json:"begin,omitempty"`
	Start    int64 `json:"start,omitempty"`
	End      int64 `json:"end,omitempty"`
	Deadline int64 `json:"deadline,omitempty"`
	Preempt  int64 `json:"preempt,omitempty"`

	Priority int64 `json:"priority"`
	Nice     int   `json:"nice"`
	Pinned   int64 `json:"fixed_priority,omitempty"` // an operator's fixed priority, 0: computed (fixed_priority.go)
	// SiteFactor is an operator's SiteFactor= (update_layout.go).
	SiteFactor int64 `json:"site_factor,omitempty"`
	Hold       Hold  `json:"hold,omitempty"`
	Restarts   int   `json:"restarts,omitempty"`
	Requeue    bool  `json:"requeue"`
	// RequeueHold is the hold a job being requeued gets (requeuehold).
	RequeueHold Hold  `json:"requeue_hold,omitempty"`
	LostRun     int64 `json:"lost_run,omitempty"`
	// Preemption (R11, R12, preempt.go): who preempted the running job
	// and why, its grace window, how often it was preempted, and whether
	// its last preemption found it checkpointed ("saved": it exited by
	// itself inside the grace window; "missed": it was killed).
	PreemptBy     uint32 `json:"preempt_by,omitempty"`
	PreemptReason string `json:"preempt_reason,omitempty"`
	PreemptGrace  int64  `json:"preempt_grace,omitempty"`
	Preemptions   int    `json:"preemptions,omitempty"`
	Checkpoint    string `json:"checkpoint,omitempty"`

	// SpecialExit is set by requeue State=SpecialExit: the job pends in
	// state SPECIAL_EXIT, with this description, until released
	// (requeue_op.go).
	SpecialExit string `json:"special_exit,omitempty"`
	// Stopped is set once SIGSTOP sent through scancel reached the job's
	// processes and cleared by SIGCONT: the running job shows STOPPED
	// (stopped.go).
	Stopped bool `json:"stopped,omitempty"`
	// RequeueCancelled: a cancel turned the requeue under way into the
	// job's end (cancel.go). Slurm counted the restart when the requeue
	// began, so the job shows one restart more than it ran.
	RequeueCancelled bool `json:"requeue_cancelled,omitempty"`

	ExitCode  job.ExitCode         `json:"exit_code"`
	Derived   job.ExitCode         `json:"derived_exit_code,omitempty"` // the highest step exit (DerivedExitCode)
	Alloc     []api.NodeAllocation `json:"alloc,omitempty"`
	BatchHost string               `json:"batch_host,omitempty"`
	// ResizeTime is when the job last lost a node it was allocated and
	// kept running without it (--no-kill, nokill.go).
	ResizeTime int64 `json:"resize_time,omitempty"`
	// Launched is set when the batch node confirmed the start.
	Launched bool `json:"launched,omitempty"`
	// BatchUsage is what the batch script used, from its node's end
	// event (usage.go).
	BatchUsage *api.NodeUsage `json:"batch_usage,omitempty"`

	Dep        *job.Dependency `json:"dep,omitempty"`
	KillInvDep bool            `json:"kill_inv_dep,omitempty"`
	// NoKillInvDep: --kill-on-invalid-dep=no, over DependencyParameters.
	NoKillInvDep bool `json:"no_kill_inv_dep,omitempty"`

	// Suspension (suspend.go), as Slurm keeps it: when the job was last
	// suspended or resumed, the seconds it ran before its last
	// suspension, and the seconds it spent suspended in all (its end
	// moves by them).
	SuspendTime int64 `json:"suspend_time,omitempty"`
	PreSuspend  int64 `json:"pre_suspend,omitempty"`
	Suspended   int64 `json:"suspended,omitempty"`
}

// pending, running and finished classify a record's state. A suspended
// job counts as running: it keeps its nodes and its processes.
func (r *jobRecord) pending() bool { return r.St.State == job.Pending }
func (r *jobRecord) running() bool {
	switch r.St.State {
	case job.Running, job.Completing, job.Configuring, job.Suspended:
		return true
	}
	return false
}
func (r *jobRecord) finished() bool { return r.St.State.IsTerminal() }

// arrayRecord reports whether r is an array's pending record (holding not
// yet started tasks).
func (r *jobRecord) arrayRecord() bool { return r.St.ArrayPending != "" }

// taskID returns r's array task index, or nil.
func (r *jobRecord) taskID() *int {
	if r.St.ArrayTask < 0 || r.St.ArrayJobID == 0 {
		return nil
	}
	t := r.St.ArrayTask
	return &t
}

// pendingTasks parses the tasks an array's pending record holds.
func (r *jobRecord) pendingTasks() []int {
	if r.St.ArrayPending == "" {
		return nil
	}
	a, err := job.ParseArray(r.St.ArrayPending, job.MaxArraySizeLimit)
	if err != nil {
		return nil
	}
	out := make([]int, 0, a.Count())
	for i := range a.All() {
		out = append(out, i)
	}
	return out
}

func unix(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.Unix()
}

func fromUnix(s int64) time.Time {
	if s == 0 {
		return time.Time{}
	}
	return time.Unix(s, 0)
}

func limitDuration(sec int64) time.Duration {
	if sec <= 0 {
		return 0
	}
	return time.Duration(sec) * time.Second
}

// statusBlob encodes the status for the store.
func (r *jobRecord) statusBlob() []byte {
	b, err := json.Marshal(&r.St)
	if err != nil {
		panic(fmt.Sprintf("encode job %d status: %v", r.ID, err)) // plain data: cannot fail
	}
	return b
}

// requestBlob encodes the request for the store, once per request.
func (r *jobRecord) requestBlob() []byte {
	if r.reqBlob == nil {
		b, err := json.Marshal(r.Req)
		if err != nil {
			panic(fmt.Sprintf("encode job %d request: %v", r.ID, err))
		}
		r.reqBlob = b
	}
	return r.reqBlob
}

// decodeRecord rebuilds a record from the store.
func decodeRecord(id uint32, request, status []byte) (*jobRecord, error) {
	r := &jobRecord{ID: id, Req: &job.Request{}, reqBlob: request}
	if err := json.Unmarshal(request, r.Req); err != nil {
		return nil, fmt.Errorf("job %d request: %w", id, err)
	}
	if err := json.Unmarshal(status, &r.St); err != nil {
		return nil, fmt.Errorf("job %d status: %w", id, err)
	}
	return r, nil
}
