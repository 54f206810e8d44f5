package api

// The controller's own statistics, as Slurm's sdiag shows them.

// PathStats takes StatsRequest and answers StatsResponse (sdiag). With
// Reset, only operators may call it; the answer then holds the counters
// just after the reset.
const PathStats = "/v1/stats"

// StatsRequest asks for the statistics, or resets them first.
type StatsRequest struct {
	Reset bool `json:"reset,omitempty"`
}

// StatsResponse is the controller's statistics since the last reset (or
// its start). Times are Unix seconds; durations are microseconds.
//
// Loam's scheduler examines every pending job in its one cycle, so the
// Cycle fields describe that cycle: sdiag prints them both as Slurm's main
// schedule and as its backfill statistics.
type StatsResponse struct {
	ReqTime      int64 `json:"req_time"`
	ReqTimeStart int64 `json:"req_time_start"`

	// ServerThreads is the API requests being served, this one included.
	ServerThreads int `json:"server_threads"`
	// AgentCalls is the calls to node daemons in flight; Loam starts each
	// at once, so there is no agent queue.
	AgentCalls int `json:"agent_calls"`

	JobsSubmitted int64 `json:"jobs_submitted"`
	JobsStarted   int64 `json:"jobs_started"`
	JobsCompleted int64 `json:"jobs_completed"`
	JobsCanceled  int64 `json:"jobs_canceled"`
	JobsFailed    int64 `json:"jobs_failed"`

	// JobStatesTime is when JobsPending and JobsRunning were counted.
	JobStatesTime int64 `json:"job_states_time"`
	JobsPending   int   `json:"jobs_pending"`
	JobsRunning   int   `json:"jobs_running"`

	// Cycles is the scheduling cycles run; CycleSum their total time and
	// DepthSum the pending jobs they examined.
	Cycles    int64 `json:"cycles"`
	CycleLast int64 `json:"cycle_last_us"`
	CycleMax  int64 `json:"cycle_max_us"`
	CycleSum  int64 `json:"cycle_sum_us"`
	DepthSum  int64 `json:"depth_sum"`
	// LastCycleAt is when the last cycle ran (0: none yet); QueueLen the
	// pending jobs it examined.
	LastCycleAt int64 `json:"last_cycle_at"`
	QueueLen    int   `json:"queue_len"`
	// Backfilled is the jobs started ahead of a higher-priority blocked
	// job.
	Backfilled int64 `json:"backfilled"`
	// ResvLast is the reservations held after the last cycle (Slurm's
	// backfill table); ResvSum their total over the cycles.
	ResvLast int   `json:"resv_last"`
	ResvSum  int64 `json:"resv_sum"`

	// TimeLatency is how long 1000 reads of the clock took.
	TimeLatency int64 `json:"time_latency_us"`

	RPCTypes []RPCTypeStat `json:"rpc_types"`
	RPCUsers []RPCUserStat `json:"rpc_users"`
}

// RPCTypeStat is the requests one API path served.
type RPCTypeStat struct {
	Path string `json:"path"`
	// ID is the path's number (PathID), which sdiag -i sorts by.
	ID    int   `json:"id"`
	Count int64 `json:"count"`
	Time  int64 `json:"time_us"`
}

// RPCUserStat is the requests one user made.
type RPCUserStat struct {
	UID   uint32 `json:"uid"`
	Count int64  `json:"count"`
	Time  int64  `json:"time_us"`
}

// statPaths numbers the controller's paths for sdiag, in a fixed order
// (append only: a path keeps its number). Slurm numbers its message
// types; Loam's paths are not Slurm's messages, so these numbers are
// Loam's own.
var statPaths = []string{
	PathPing, PathSubmit, PathJobs, PathJobTable, PathCancel, PathHold, PathRelease, PathUpdate,
	PathRequeue, PathSuspend, PathTop, PathNotify, PathNodes, PathNodeUpdate, PathPartitions, PathConfig,
	PathReconfigure, PathAccounting, PathSuggestions, PathWebToken, PathNodeRegister, PathNodeHeartbeat,
	PathNodeEvents, PathStepCreate, PathStepComplete, PathSteps, PathAllocate, PathAllocationWait,
	PathAllocationRelease, PathNoticeWait, PathShares, PathPriorities, PathReservations, PathJobLog,
	PathPreemptReport, PathUtilReport, PathStats,
	PathAdvResvCreate, PathAdvResvUpdate, PathAdvResvDelete, PathAdvResvList,
	PathJobScript, PathSetDebug, PathShutdown,
	PathStepStat,
	PathSbcast,
	PathPartitionUpdate, PathPartitionDelete,
	PathTriggerSet, PathTriggerGet, PathTriggerClear,
	PathAssocs,
}

var statPathIDs = func() map[string]int {
	m := make(map[string]int, len(statPaths))
	for i, p := range statPaths {
		m[p] = 1001 + i
	}
	return m
}()

// PathID is path's number in sdiag's statistics: 1001 and up in a fixed
// order, 0 for a path the list does not know.
func PathID(path string) int { return statPathIDs[path] }
