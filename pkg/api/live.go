package api

// The live system's views (R1, R5-R12): shares and quotas (sshare),
// priority factors and their audit trail (sprio), the reservations the
// scheduler holds (scontrol show reservation), a job's event log, and
// preemption statistics (sreport).

// Controller paths of the live views; all POST with a JSON body.
const (
	// PathShares takes SharesQuery and answers SharesResponse (sshare).
	PathShares = "/v1/shares"
	// PathPriorities takes PrioQuery and answers PrioResponse (sprio).
	PathPriorities = "/v1/priorities"
	// PathReservations takes ResvQuery and answers ReservationsResponse.
	PathReservations = "/v1/reservations"
	// PathJobLog takes JobLogQuery and answers JobLogResponse.
	PathJobLog = "/v1/jobs/log"
	// PathPreemptReport takes ReportQuery and answers PreemptReport.
	PathPreemptReport = "/v1/report/preemption"
	// PathUtilReport takes ReportQuery and answers UtilReport.
	PathUtilReport = "/v1/report/utilization"
)

// Loam's admission codes (R1): conditions Slurm finds only when the job
// starts, or never. Their texts say what is wrong; the Detail names the
// path or mount.
const (
	CodeWorkDirUnusable  Code = "LOAM_WORKDIR_UNUSABLE"
	CodeOutputDirMissing Code = "LOAM_OUTPUT_DIR_UNUSABLE"
	CodeScriptUnreadable Code = "LOAM_SCRIPT_UNREADABLE"
	CodeDataPathUnusable Code = "LOAM_DATA_PATH_UNUSABLE"
	CodeMountMissing     Code = "LOAM_MOUNT_MISSING"
)

func init() {
	texts[CodeWorkDirUnusable] = "Working directory does not exist or is not accessible to the user"
	texts[CodeOutputDirMissing] = "Output directory does not exist or is not writable by the user"
	texts[CodeScriptUnreadable] = "Batch script is not readable by the user"
	texts[CodeDataPathUnusable] = "Data path does not exist or is not readable by the user"
	texts[CodeMountMissing] = "Storage required by the partition is not mounted on its nodes"
}

// SharesQuery selects sshare rows. Empty lists do not filter; All adds
// every user row (sshare -a), otherwise only the caller's own user rows
// show, as in Slurm.
type SharesQuery struct {
	Accounts []string `json:"accounts,omitempty"`
	Users    []string `json:"users,omitempty"`
	All      bool     `json:"all,omitempty"`
}

// SharesResponse answers PathShares: tenant rows, each followed by its
// user rows, in tenants.conf order.
type SharesResponse struct {
	Now  int64      `json:"now"`
	Rows []ShareRow `json:"rows"`
	// Private is set when PrivateData=usage left only the caller's own
	// user rows: sshare prints them flat, without the root line.
	Private bool `json:"private,omitempty"`
}

// ShareRow is one association: a tenant (User empty) or a user within a
// tenant. Usage is decayed GPU-seconds (CPU-seconds converted at the
// cluster's GPU/CPU ratio), as the scheduler bills it.
type ShareRow struct {
	Account      string  `json:"account"`
	User         string  `json:"user,omitempty"`
	RawShares    float64 `json:"raw_shares"`
	NormShares   float64 `json:"norm_shares"`
	RawUsage     int64   `json:"raw_usage"`
	NormUsage    float64 `json:"norm_usage"`
	EffectvUsage float64 `json:"effectv_usage"`
	FairShare    float64 `json:"fair_share"`
	// Loam's quota columns, in GPUs (R6, R7): the tenant's guarantee, what
	// its (or the user's) running jobs hold, how much of that is beyond
	// the guarantee (borrowed), and how much of the tenant's idle
	// guarantee other tenants use (lent; tenant rows only).
	Guarantee int64  `json:"guarantee"`
	InUse     int64  `json:"in_use"`
	Borrowed  int64  `json:"borrowed"`
	Lent      int64  `json:"lent"`
	GrpTRES   string `json:"grp_tres,omitempty"`
}

// PrioQuery selects sprio rows; History asks for the audit trail of the
// selected jobs (sprio --history) instead of the current factors.
type PrioQuery struct {
	JobIDs     []uint32 `json:"job_ids,omitempty"`
	Users      []string `json:"users,omitempty"`
	Partitions []string `json:"partitions,omitempty"`
	History    bool     `json:"history,omitempty"`
}

// PrioResponse answers PathPriorities.
type PrioResponse struct {
	Now     int64           `json:"now"`
	Weights PriorityWeights `json:"weights"`
	Jobs    []JobPriority   `json:"jobs,omitempty"`
	History []PriorityAudit `json:"history,omitempty"`
}

// PriorityWeights are the configured weights (sprio -w). AgingCap is the
// largest aging term of any partition; Compensation is points per hour of
// run time lost to preemption.
type PriorityWeights struct {
	Age          float64 `json:"age"`
	Fairshare    float64 `json:"fairshare"`
	JobSize      float64 `json:"job_size"`
	Partition    float64 `json:"partition"`
	QOS          float64 `json:"qos"`
	AgingCap     float64 `json:"aging_cap"`
	Compensation float64 `json:"compensation"`
}

// JobPriority is one pending job's priority and its weighted factors.
type JobPriority struct {
	JobID     uint32          `json:"job_id"`
	Partition string          `json:"partition"`
	User      string          `json:"user"`
	Account   string          `json:"account,omitempty"`
	QOS       string          `json:"qos,omitempty"`
	Priority  int64           `json:"priority"`
	Nice      int             `json:"nice"`
	Factors   PriorityFactors `json:"factors"`
}

// PriorityAudit is one recorded priority change (R5).
type PriorityAudit struct {
	JobID   uint32          `json:"job_id"`
	Time    int64           `json:"time"`
	Old     int64           `json:"old"`
	New     int64           `json:"new"`
	Reason  string          `json:"reason"`
	Factors PriorityFactors `json:"factors"`
}

// ResvQuery selects reservations by name ("loam_12"); empty: all.
type ResvQuery struct {
	Names []string `json:"names,omitempty"`
}

// ReservationsResponse answers PathReservations.
type ReservationsResponse struct {
	Now          int64         `json:"now"`
	Reservations []Reservation `json:"reservations"`
}

// Reservation is a reservation the scheduler holds for a blocked job
// (R9), in Slurm's reservation terms: it starts when it was created and
// ends at its timeout (or, without one, at the job's planned start).
type Reservation struct {
	Name         string           `json:"name"` // loam_<jobid>
	JobID        uint32           `json:"job_id"`
	Partition    string           `json:"partition"`
	User         string           `json:"user"`
	Account      string           `json:"account,omitempty"`
	StartTime    int64            `json:"start_time"`
	EndTime      int64            `json:"end_time,omitempty"`
	PlannedStart int64            `json:"planned_start,omitempty"`
	Expires      int64            `json:"expires,omitempty"`
	Nodes        string           `json:"nodes,omitempty"` // held and awaited
	NodeCount    int              `json:"node_count"`
	CPUs         int              `json:"cpus"`
	GPUs         int              `json:"gpus"`
	MemMB        int64            `json:"mem"`
	Held         []NodeAllocation `json:"held,omitempty"`
	Awaiting     []NodeAllocation `json:"awaiting,omitempty"`
}

// JobLogQuery asks for one job's event log.
type JobLogQuery struct {
	JobID uint32 `json:"job_id"`
}

// JobLogResponse answers PathJobLog, oldest event first.
type JobLogResponse struct {
	JobID  uint32     `json:"job_id"`
	Events []JobEntry `json:"events"`
}

// JobEntry is one event of a job's life: kind (submit, preempt,
// preempt_end, requeue, resv_create, resv_drop, ...) and its detail as
// JSON.
type JobEntry struct {
	Time   int64  `json:"time"`
	Kind   string `json:"kind"`
	Detail string `json:"detail,omitempty"`
}

// ReportQuery is a time window [Start, End) in Unix seconds (0: the last
// day for Start, now for End), grouped by Period ("day", "month" or "" for
// the whole window), optionally for some accounts.
type ReportQuery struct {
	Start    int64    `json:"start,omitempty"`
	End      int64    `json:"end,omitempty"`
	Period   string   `json:"period,omitempty"`
	Accounts []string `json:"accounts,omitempty"`
}

// PreemptReport answers PathPreemptReport: one row per account and period
// (R12).
type PreemptReport struct {
	Start int64        `json:"start"`
	End   int64        `json:"end"`
	Rows  []PreemptRow `json:"rows"`
}

// PreemptRow counts the preemptions of one account in one period:
// victims, how many were requeued, how many exited inside their grace
// window (checkpoint completed), the run time lost in seconds and in
// GPU-hours.
type PreemptRow struct {
	Account      string  `json:"account"`
	Period       string  `json:"period,omitempty"` // "2026-11-29", "2026-11"
	Count        int64   `json:"count"`
	Requeued     int64   `json:"requeued"`
	Checkpointed int64   `json:"checkpointed"`
	LostSeconds  int64   `json:"lost_seconds"`
	LostGPUHours float64 `json:"lost_gpu_hours"`
}

// UtilReport answers PathUtilReport: the cluster's CPU and GPU time in the
// window, as sreport cluster utilization divides it.
type UtilReport struct {
	Cluster     string `json:"cluster"`
	Start       int64  `json:"start"`
	End         int64  `json:"end"`
	CPUCapacity int64  `json:"cpu_capacity"` // CPU-seconds
	CPUAlloc    int64  `json:"cpu_alloc"`
	GPUCapacity int64  `json:"gpu_capacity"`
	GPUAlloc    int64  `json:"gpu_alloc"`
}
