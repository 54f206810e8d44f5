package command

import (
	"strconv"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// longOnlyCols are the columns -O names that have no -o letter.
var longOnlyCols = []jobCol{
	{names: []string{"numtasks"}, header: "TASKS", need: []string{"tasks"},
		val: num(func(j *api.Job) int64 { return int64(orNoVal(j.Tasks)) })},
	{names: []string{"cluster"}, header: "CLUSTER",
		val: func(b []byte, _ *api.Job, p *jobPrinter) []byte { return append(b, orNull(p.cluster)...) }},
	{names: []string{"container"}, header: "CONTAINER", need: []string{"container"},
		val: null(func(j *api.Job) string { return j.Container })},
	{names: []string{"burstbuffer"}, header: "BURST_BUFFER", need: []string{"burst_buffer"},
		val: null(func(j *api.Job) string { return j.BurstBuffer })},
	{names: []string{"burstbufferstate"}, header: "BURST_BUFFER_STATE", val: fixed("(null)")},
	{names: []string{"delayboot"}, header: "DELAY_BOOT", need: []string{"delay_boot"},
		val: func(b []byte, j *api.Job, _ *jobPrinter) []byte { return appendSecs(b, j.DelayBoot) }},
	{names: []string{"clusterfeature"}, header: "CLUSTER_FEATURES", need: []string{"cluster_features"},
		val: null(func(j *api.Job) string { return j.ClusterFeatures })},
	{names: []string{"prefer"}, header: "PREFER", need: []string{"prefer"},
		val: null(func(j *api.Job) string { return j.Prefer })},
	{names: []string{"admin_comment"}, header: "ADMIN_COMMENT", need: []string{"admin_comment"},
		val: null(func(j *api.Job) string { return j.AdminComment })},
	{names: []string{"system_comment"}, header: "SYSTEM_COMMENT", val: fixed("(null)")},
	{names: []string{"lastschedeval"}, header: "LAST_SCHED_EVAL", need: []string{"last_sched_eval"},
		val: timeCol(func(j *api.Job) int64 { return j.LastSchedEval })},
	{names: []string{"pendingtime"}, header: "PENDING_TIME", need: []string{"start_time", "submit_time"}, val: pendingTimeCol},
	{names: []string{"accruetime"}, header: "ACCRUE_TIME", need: []string{"accrue_time"},
		val: timeCol(func(j *api.Job) int64 { return j.AccrueTime })},
	{names: []string{"allocnodes"}, header: "ALLOC_NODES", need: []string{"alloc_node", "submit_host"},
		val: null(func(j *api.Job) string { return orDefault(j.AllocNode, j.SubmitHost) })},
	{names: []string{"allocsid"}, header: "ALLOC_SID", need: []string{"alloc_sid"}, // the peer: 19143
		val: func(b []byte, j *api.Job, _ *jobPrinter) []byte { return strconv.AppendInt(b, int64(j.AllocSID), 10) }},
	{names: []string{"associd"}, header: "ASSOC_ID", val: fixed("0")},
	{names: []string{"batchflag"}, header: "BATCH_FLAG", need: []string{"batch_flag"},
		val: num(func(j *api.Job) int64 { return b2i(j.BatchFlag) })},
	{names: []string{"boardspernode"}, header: "BOARDS_PER_NODE", val: fixed("0")},
	{names: []string{"cpuspertask", "cpus-per-task"}, header: "CPUS_PER_TASK", need: []string{"cpus_per_task"},
		val: num(func(j *api.Job) int64 { return int64(max(j.CPUsPerTask, 1)) })},
	{names: []string{"derivedec"}, header: "DERIVED_EC", val: fixed("0")},
	{names: []string{"eligibletime"}, header: "ELIGIBLE_TIME", need: []string{"eligible_time"},
		val: timeCol(func(j *api.Job) int64 { return j.EligibleTime })},
	{names: []string{"exit_code"}, header: "EXIT_CODE", need: []string{"exit_code"},
		val: num(func(j *api.Job) int64 { return int64(waitStatus(j.ExitCode)) })},
	{names: []string{"origin"}, header: "ORIGIN", val: fixed("NA")},
	{names: []string{"originraw"}, header: "ORIGIN_RAW", val: fixed("NA")},
	{names: []string{"siblingsactive"}, header: "ACTIVE_SIBLINGS", val: fixed("NA")},
	{names: []string{"siblingsactiveraw"}, header: "ACTIVE_SIBLINGS_RAW", val: fixed("NA")},
	{names: []string{"siblingsviable"}, header: "VIABLE_SIBLINGS", val: fixed("NA")},
	// Slurm 22.05 misspells this header; scripts match what it prints.
	{names: []string{"siblingsviableraw"}, header: "VIALBLE_SIBLINGS_RAW", val: fixed("NA")},
	{names: []string{"maxcpus"}, header: "MAX_CPUS", need: []string{"cpus"},
		val: num(func(j *api.Job) int64 { return int64(j.CPUs) })},
	{names: []string{"maxnodes"}, header: "MAX_NODES", need: []string{"node_count", "max_nodes"},
		val: num(func(j *api.Job) int64 { return int64(orDefaultInt(j.MaxNodes, j.NodeCount)) })},
	{names: []string{"network"}, header: "NETWORK", need: []string{"network"},
		val: null(func(j *api.Job) string { return j.Network })},
	{names: []string{"ntpercore"}, header: "NTASKS_PER_CORE", need: []string{"ntasks_per_core"},
		val: str(func(j *api.Job) string { return countOrNA(j.NTasksPerCore) })},
	{names: []string{"ntpernode"}, header: "NTASKS_PER_NODE", need: []string{"tasks_per_node"},
		val: num(func(j *api.Job) int64 { return int64(j.TasksPerNode) })},
	{names: []string{"ntpersocket"}, header: "NTASKS_PER_SOCKET", need: []string{"ntasks_per_socket"},
		val: str(func(j *api.Job) string { return countOrNA(j.NTasksPerSocket) })},
	{names: []string{"ntperboard"}, header: "NTASKS_PER_BOARD", val: fixed("0")},
	{names: []string{"preempttime"}, header: "PREEMPT_TIME", need: []string{"preempt_time"},
		val: timeCol(func(j *api.Job) int64 { return j.PreemptTime })},
	{names: []string{"profile"}, header: "PROFILE", val: fixed("NotSet")},
	{names: []string{"reboot"}, header: "REBOOT", need: []string{"reboot"},
		val: num(func(j *api.Job) int64 { return b2i(j.Reboot) })},
	{names: []string{"reqswitch"}, header: "REQ_SWITCH", need: []string{"required_switch"},
		val: num(func(j *api.Job) int64 { return int64(j.RequiredSwitch) })},
	{names: []string{"requeue"}, header: "REQUEUE", need: []string{"requeue"},
		val: num(func(j *api.Job) int64 { return b2i(j.Requeue) })},
	{names: []string{"resizetime"}, header: "RESIZE_TIME", val: fixed("N/A")},
	{names: []string{"restartcnt"}, header: "RESTART_COUNT", need: []string{"restart_cnt"},
		val: num(func(j *api.Job) int64 { return int64(j.Restarts) })},
	{names: []string{"sperboard"}, header: "SOCKETS_PER_BOARD", val: fixed("0")},
	{names: []string{"stderr"}, header: "STDERR", need: []string{"standard_error", "standard_output", "standard_output_default", "standard_error_default", "current_working_directory", "job_id", "array_job_id", "batch_flag"},
		val: str(squeueStdErr)},
	{names: []string{"stdin"}, header: "STDIN", need: []string{"standard_input"},
		val: null(func(j *api.Job) string { return j.StdIn })},
	{names: []string{"stdout"}, header: "STDOUT", need: []string{"standard_output", "standard_output_default", "current_working_directory", "job_id", "array_job_id", "batch_flag"},
		val: str(squeueStdOut)},
	{names: []string{"mintime"}, header: "TIME_MIN", need: []string{"time_minimum"},
		val: func(b []byte, j *api.Job, _ *jobPrinter) []byte { return appendSecs(b, j.TimeMinimum) }},
	{names: []string{"wait4switch"}, header: "WAIT4SWITCH", need: []string{"wait4switch"},
		val: func(b []byte, j *api.Job, _ *jobPrinter) []byte { return appendSecs(b, j.WaitForSwitch) }},
	{names: []string{"cpus-per-tres"}, header: "CPUS_PER_TRES", need: []string{"cpus_per_gpu"},
		val: str(func(j *api.Job) string { return orNA(perGPU(int64(j.CPUsPerGPU))) })},
	{names: []string{"mem-per-tres"}, header: "MEM_PER_TRES", need: []string{"memory_per_gpu"},
		val: str(func(j *api.Job) string { return orNA(perGPU(j.MemoryPerGPU)) })},
	{names: []string{"tres", "tres-alloc"}, header: "TRES_ALLOC", need: []string{"tres_alloc_str", "tres_req_str"},
		val: str(func(j *api.Job) string { return orNA(orDefault(j.TRESAllocStr, j.TRESReqStr)) })},
	{names: []string{"tres-bind"}, header: "TRES_BIND", need: []string{"tres_bind"},
		val: str(func(j *api.Job) string { return orNA(j.TRESBind) })},
	{names: []string{"tres-freq"}, header: "TRES_FREQ", need: []string{"tres_freq"},
		val: str(func(j *api.Job) string { return orNA(j.TRESFreq) })},
	{names: []string{"tres-per-job"}, header: "TRES_PER_JOB", need: []string{"tres_per_job"},
		val: str(func(j *api.Job) string { return orNA(j.TRESPerJob) })},
	{names: []string{"tres-per-socket"}, header: "TRES_PER_SOCKET", need: []string{"tres_per_socket"},
		val: str(func(j *api.Job) string { return orNA(j.TRESPerSocket) })},
	{names: []string{"tres-per-task"}, header: "TRES_PER_TASK", need: []string{"tres_per_task"},
		val: str(func(j *api.Job) string { return orNA(j.TRESPerTask) })},
	{names: []string{"mcslabel"}, header: "MCSLABEL", need: []string{"mcs_label"},
		val: null(func(j *api.Job) string { return j.MCSLabel })},
	{names: []string{"deadline"}, header: "DEADLINE", need: []string{"deadline"},
		val: timeCol(func(j *api.Job) int64 { return j.Deadline })},
	{names: []string{"hetjobid", "packjobid"}, header: "HET_JOB_ID", val: fixed("N/A")},
	{names: []string{"hetjoboffset", "packjoboffset"}, header: "HET_JOB_OFFSET", val: fixed("N/A")},
	{names: []string{"hetjobidset", "packjobidset"}, header: "HET_JOB_ID_SET", val: fixed("N/A")},

	// Loam's columns (R13). Slurm has no such names. The queue position
	// and the estimated start of every pending job come from the
	// scheduler's latest plan, corrected by history; Slurm's squeue uses
	// every letter, so the position's -o specifier is %#.
	{letter: '#', names: []string{"position"}, header: "POSITION", need: []string{"queue_position", "job_state"}, val: positionCol},
	{names: []string{"estimatedstart"}, header: "EST_START", need: []string{"estimated_start"},
		val: timeCol(func(j *api.Job) int64 { return j.EstimatedStart })},
}

// noVal is Slurm's NO_VAL, which squeue prints as a number for counts it
// does not know.
const noVal = 0xfffffffe

func orNoVal(n int) int {
	if n == 0 {
		return noVal
	}
	return n
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// waitStatus rebuilds the wait(2) status Slurm keeps as a job's exit_code.
func waitStatus(e job.ExitCode) int {
	if e.Signal != 0 {
		return e.Signal
	}
	return e.Status << 8
}

// stdErrPath and stdOutPath print output paths as squeue does: the
// path, stdout's for stderr, else Slurm's default name.
func stdErrPath(j *api.Job) string {
	switch {
	case !j.BatchFlag:
		return "N/A"
	case j.StdErr != "":
		return j.StdErr
	}
	return stdOutPath(j)
}

func stdOutPath(j *api.Job) string {
	if j.StdOut != "" {
		return j.StdOut
	}
	return j.WorkDir + "/slurm-" + strconv.FormatUint(uint64(j.JobID), 10) + ".out"
}

// squeueStdErr and squeueStdOut are squeue's -O stderr and stdout. The
// controller gives a batch job submitted without -o the default pattern
// and marks it so; Slurm stores no path then, and its squeue prints its
// own default with the job's own id (an array task's raw id) in place of
// the pattern, so these print what stdErrPath and stdOutPath print for a
// job without paths. The same name given with -o (or -e) prints as the
// pattern it is, as on the peer.
func squeueStdErr(j *api.Job) string {
	if j.BatchFlag && (j.StdErr == "" || j.StdErrDefault) {
		return squeueStdOut(j)
	}
	return stdErrPath(j)
}

func squeueStdOut(j *api.Job) string {
	if j.StdOutDefault {
		return stdOutPath(&api.Job{WorkDir: j.WorkDir, JobID: j.JobID})
	}
	return stdOutPath(j)
}

func pendingTimeCol(b []byte, j *api.Job, p *jobPrinter) []byte {
	if j.StartTime != 0 && j.StartTime < p.now {
		return strconv.AppendInt(b, j.StartTime-j.SubmitTime, 10)
	}
	return strconv.AppendInt(b, p.now-j.SubmitTime, 10)
}

func positionCol(b []byte, j *api.Job, _ *jobPrinter) []byte {
	if j.JobState != job.Pending || j.QueuePosition == 0 {
		return append(b, "N/A"...)
	}
	return strconv.AppendInt(b, int64(j.QueuePosition), 10)
}
