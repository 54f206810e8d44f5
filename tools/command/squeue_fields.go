package command

import (
	"strings"

	"strconv"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// jobCol is one squeue column: its -o letter, -O names, header, the job
// table fields it reads and how it prints a job. Values print through
// pad: cut says whether a right-justified value is cut to the width
// (Slurm leaves times and node lists whole); headers are always cut except
// the node list headers.
type jobCol struct {
	letter   byte
	names    []string
	header   string
	need     []string
	nocut    bool
	hdrNoCut bool
	// reasonOrNodes: %R, cut when it shows a reason, not when nodes.
	reasonOrNodes bool
	val           func(b []byte, j *api.Job, p *jobPrinter) []byte
}

// Table fields that several columns read.
var (
	needID     = []string{"job_id", "array_job_id", "array_task_id", "array_task_string"}
	needState  = []string{"job_state", "special_exit", "stopped"}
	needTimes  = []string{"job_state", "start_time", "end_time", "secs_pre_suspend", "suspended_secs"}
	needReason = []string{"job_state", "state_reason", "state_description", "nodes"}
)

func str(f func(j *api.Job) string) func(b []byte, j *api.Job, p *jobPrinter) []byte {
	return func(b []byte, j *api.Job, _ *jobPrinter) []byte { return append(b, f(j)...) }
}

func null(f func(j *api.Job) string) func(b []byte, j *api.Job, p *jobPrinter) []byte {
	return func(b []byte, j *api.Job, _ *jobPrinter) []byte { return append(b, orNull(f(j))...) }
}

func num(f func(j *api.Job) int64) func(b []byte, j *api.Job, p *jobPrinter) []byte {
	return func(b []byte, j *api.Job, _ *jobPrinter) []byte { return strconv.AppendInt(b, f(j), 10) }
}

func fixed(s string) func(b []byte, j *api.Job, p *jobPrinter) []byte {
	return func(b []byte, _ *api.Job, _ *jobPrinter) []byte { return append(b, s...) }
}

func timeCol(f func(j *api.Job) int64) func(b []byte, j *api.Job, p *jobPrinter) []byte {
	return func(b []byte, j *api.Job, p *jobPrinter) []byte { return p.tf.appendTime(b, f(j), "N/A") }
}

// jobCols is squeue's column table, in Slurm's -o letter order, then the
// -O-only columns. Columns for what Loam does not track (licenses, wckeys,
// burst buffers, core specialization...) print what Slurm prints when the
// job has none.
var jobCols = []jobCol{
	{letter: 'a', names: []string{"account"}, header: "ACCOUNT", need: []string{"account"},
		val: null(func(j *api.Job) string { return j.Account })},
	{letter: 'A', names: []string{"jobid"}, header: "JOBID", need: []string{"job_id"},
		val: num(func(j *api.Job) int64 { return int64(j.JobID) })},
	{letter: 'b', names: []string{"gres", "tres-per-node"}, header: "TRES_PER_NODE", need: []string{"tres_per_node"},
		val: str(func(j *api.Job) string { return orNA(j.TRESPerNode) })},
	{letter: 'B', names: []string{"batchhost"}, header: "EXEC_HOST", need: []string{"batch_host"},
		val: str(func(j *api.Job) string { return orDefault(j.BatchHost, "n/a") })},
	{letter: 'c', names: []string{"mincpus"}, header: "MIN_CPUS", need: []string{"min_cpus_node", "cpus_per_task", "tasks_per_node"},
		val: num(func(j *api.Job) int64 { return int64(minCPUsNode(j)) })},
	{letter: 'C', names: []string{"numcpus"}, header: "CPUS", need: []string{"cpus"},
		val: num(func(j *api.Job) int64 { return int64(j.CPUs) })},
	{letter: 'd', names: []string{"mintmpdisk"}, header: "MIN_TMP_DISK", need: []string{"min_tmp_disk"},
		val: func(b []byte, j *api.Job, p *jobPrinter) []byte { return appendMB(b, j.MinTmpDisk, p.noconvert) }},
	{letter: 'D', names: []string{"numnodes"}, header: "NODES", need: []string{"node_count"},
		val: num(func(j *api.Job) int64 { return int64(j.NodeCount) })},
	{letter: 'e', names: []string{"endtime"}, header: "END_TIME", need: []string{"end_time", "time_limit"}, val: endTimeCol},
	{letter: 'E', names: []string{"dependency"}, header: "DEPENDENCY", need: []string{"dependency"},
		val: null(func(j *api.Job) string { return j.Dependency })},
	{letter: 'f', names: []string{"feature"}, header: "FEATURES", need: []string{"features"},
		val: null(func(j *api.Job) string { return j.Features })},
	{letter: 'F', names: []string{"arrayjobid"}, header: "ARRAY_JOB_ID", need: needID, val: arrayJobIDCol},
	{letter: 'g', names: []string{"groupname"}, header: "GROUP", need: []string{"group_name", "group_id"},
		val: func(b []byte, j *api.Job, _ *jobPrinter) []byte {
			if j.GroupName == "" {
				return strconv.AppendUint(b, uint64(j.GroupID), 10)
			}
			return append(b, j.GroupName...)
		}},
	{letter: 'G', names: []string{"groupid"}, header: "GROUP", need: []string{"group_id"},
		val: num(func(j *api.Job) int64 { return int64(j.GroupID) })},
	{letter: 'h', names: []string{"oversubscribe", "shared"}, header: "OVER_SUBSCRIBE", need: []string{"exclusive"},
		val: str(func(j *api.Job) string { return shareString(j.Exclusive) })},
	{letter: 'H', names: []string{"sockets"}, header: "SOCKETS_PER_NODE", need: []string{"sockets_per_node"},
		val: str(func(j *api.Job) string { return countOrStar(j.SocketsPerNode) })},
	{letter: 'i', names: []string{"jobarrayid"}, header: "JOBID", need: append([]string{"array_max_tasks"}, needID...), val: jobIDCol},
	{letter: 'I', names: []string{"cores"}, header: "CORES_PER_SOCKET", need: []string{"cores_per_socket"},
		val: str(func(j *api.Job) string { return countOrStar(j.CoresPerSocket) })},
	{letter: 'j', names: []string{"name"}, header: "NAME", need: []string{"name"},
		val: str(func(j *api.Job) string { return j.Name })},
	{letter: 'J', names: []string{"threads"}, header: "THREADS_PER_CORE", need: []string{"threads_per_core"},
		val: str(func(j *api.Job) string { return countOrStar(j.ThreadsPerCore) })},
	{letter: 'k', names: []string{"comment"}, header: "COMMENT", need: []string{"comment"},
		val: null(func(j *api.Job) string { return j.Comment })},
	{letter: 'K', names: []string{"arraytaskid"}, header: "ARRAY_TASK_ID", need: needID, val: arrayTaskIDCol},
	{letter: 'l', names: []string{"timelimit"}, header: "TIME_LIMIT", need: []string{"time_limit"}, nocut: true, val: timeLimitCol},
	{letter: 'L', names: []string{"timeleft"}, header: "TIME_LEFT", need: append([]string{"time_limit"}, needTimes...), nocut: true, val: timeLeftCol},
	{letter: 'm', names: []string{"minmemory"}, header: "MIN_MEMORY", need: []string{"memory_per_cpu", "memory_per_node", "min_memory"},
		val: minMemoryCol},
	{letter: 'M', names: []string{"timeused"}, header: "TIME", need: needTimes, nocut: true,
		val: func(b []byte, j *api.Job, p *jobPrinter) []byte { return appendSecs(b, p.timeUsed(j)) }},
	{letter: 'n', names: []string{"reqnodes"}, header: "REQ_NODES", need: []string{"required_nodes"}, nocut: true,
		val: str(func(j *api.Job) string { return j.RequiredNodes })},
	{letter: 'N', names: []string{"nodelist"}, header: "NODELIST", need: []string{"nodes"}, nocut: true, hdrNoCut: true,
		val: str(func(j *api.Job) string { return j.Nodes })},
	{letter: 'o', names: []string{"command"}, header: "COMMAND", need: []string{"command"},
		val: null(func(j *api.Job) string { return j.Command })},
	{letter: 'O', names: []string{"contiguous"}, header: "CONTIGUOUS", need: []string{"contiguous"},
		val: str(contiguousFlag)},
	{letter: 'p', names: []string{"priority"}, header: "PRIORITY", need: []string{"priority"}, val: priorityCol},
	{letter: 'P', names: []string{"partition"}, header: "PARTITION", need: []string{"partition"},
		val: str(func(j *api.Job) string { return j.Partition })},
	{letter: 'q', names: []string{"qos"}, header: "QOS", need: []string{"qos"},
		val: null(func(j *api.Job) string { return j.QOS })},
	{letter: 'Q', names: []string{"prioritylong"}, header: "PRIORITY", need: []string{"priority"},
		val: num(func(j *api.Job) int64 { return int64(uint32(j.Priority)) })},
	{letter: 'r', names: []string{"reason"}, header: "REASON", need: []string{"state_reason", "state_description"},
		val: str(reasonText)},
	{letter: 'R', names: []string{"reasonlist"}, header: "NODELIST(REASON)", need: needReason, hdrNoCut: true, reasonOrNodes: true, val: reasonListCol},
	{letter: 's', names: []string{"selectjobinfo"}, header: "", val: fixed("")},
	{letter: 'S', names: []string{"starttime"}, header: "START_TIME", need: []string{"start_time"},
		val: timeCol(func(j *api.Job) int64 { return j.StartTime })},
	{letter: 't', names: []string{"statecompact"}, header: "ST", need: needState,
		val: str(func(j *api.Job) string { return shownJobState(j).ShortCode() })},
	{letter: 'T', names: []string{"state"}, header: "STATE", need: needState,
		val: str(func(j *api.Job) string { return string(shownJobState(j)) })},
	{letter: 'u', names: []string{"username"}, header: "USER", need: []string{"user_name", "user_id"},
		val: func(b []byte, j *api.Job, _ *jobPrinter) []byte {
			if j.UserName == "" {
				return strconv.AppendUint(b, uint64(j.UserID), 10)
			}
			return append(b, j.UserName...)
		}},
	{letter: 'U', names: []string{"userid"}, header: "UID", need: []string{"user_id"},
		val: num(func(j *api.Job) int64 { return int64(j.UserID) })},
	{letter: 'v', names: []string{"reservation"}, header: "RESERVATION", need: []string{"reservation"},
		val: null(func(j *api.Job) string { return j.Reservation })},
	{letter: 'V', names: []string{"submittime"}, header: "SUBMIT_TIME", need: []string{"submit_time"},
		val: timeCol(func(j *api.Job) int64 { return j.SubmitTime })},
	{letter: 'w', names: []string{"wckey"}, header: "WCKEY", need: []string{"wckey"},
		val: null(func(j *api.Job) string { return j.WCKey })},
	{letter: 'W', names: []string{"licenses"}, header: "LICENSES", need: []string{"licenses"},
		val: null(func(j *api.Job) string { return j.Licenses })},
	// Slurm 22.05's -O has no name for the excluded nodes, only %x.
	{letter: 'x', header: "EXC_NODES", need: []string{"excluded_nodes"}, nocut: true,
		val: str(func(j *api.Job) string { return j.ExcludedNodes })},
	{letter: 'X', names: []string{"corespec"}, header: "CORE_SPEC", val: fixed("N/A")},
	{letter: 'y', names: []string{"nice"}, header: "NICE", need: []string{"nice"},
		val: num(func(j *api.Job) int64 { return int64(j.Nice) })},
	{letter: 'Y', names: []string{"schednodes"}, header: "SCHEDNODES", hdrNoCut: true, nocut: true, need: []string{"sched_nodes"},
		val: str(func(j *api.Job) string { return orNull(j.SchedNodes) })},
	{letter: 'z', names: []string{"sct"}, header: "S:C:T", need: []string{"sockets_per_node", "cores_per_socket", "threads_per_core"},
		val: str(func(j *api.Job) string {
			return countOrStar(j.SocketsPerNode) + ":" + countOrStar(j.CoresPerSocket) + ":" + countOrStar(j.ThreadsPerCore)
		})},
	{letter: 'Z', names: []string{"workdir"}, header: "WORK_DIR", need: []string{"current_working_directory"},
		val: str(func(j *api.Job) string { return j.WorkDir })},
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// orDefaultInt is n, or def when n is 0.
func orDefaultInt(n, def int) int {
	if n == 0 {
		return def
	}
	return n
}

// shareString is Slurm's job_share_string of a job's sharing request.
func shareString(e string) string {
	switch job.Exclusive(e) {
	case job.ExclusiveNodes:
		return "NO"
	case job.Oversubscribe:
		return "YES"
	case job.ExclusiveUser:
		return "USER"
	case job.ExclusiveMCS:
		return "MCS"
	}
	return "OK"
}

// minCPUsNode is Slurm's pn_min_cpus, as the controller reports it (from
// a controller that does not, CPUs per task times tasks per node).
func minCPUsNode(j *api.Job) int {
	if j.MinCPUsNode > 0 {
		return j.MinCPUsNode
	}
	return max(j.CPUsPerTask, 1) * max(j.TasksPerNode, 1)
}

// minMemoryCol prints the memory size as Slurm's convert_num_unit: in
// the largest exact unit, or with --noconvert in MB ("2048M"; 0 as "0").
func minMemoryCol(b []byte, j *api.Job, p *jobPrinter) []byte {
	return appendMB(b, minMemory(j), p.noconvert)
}

// appendMB prints megabytes as squeue's %m and %d do: converted to the
// largest unit, or with --noconvert in megabytes ("0" when none).
func appendMB(b []byte, mb int64, noconvert bool) []byte {
	if !noconvert {
		return append(b, resource.FormatMemory(mb)...)
	}
	if mb == 0 {
		return append(b, '0')
	}
	return append(strconv.AppendInt(b, mb, 10), 'M')
}

// minMemory is Slurm's pn_min_memory without its per-CPU flag: the
// per-CPU size when memory is per CPU, else the per-node size.
func minMemory(j *api.Job) int64 {
	switch {
	case j.MemoryPerCPU > 0:
		return j.MemoryPerCPU
	case j.MemoryPerNode > 0:
		return j.MemoryPerNode
	}
	return j.MinMemory
}

// reasonText is the reason as squeue %r and scontrol print it: Slurm's
// state_desc when there is one ("ReqNodeNotAvail, UnavailableNodes:n1",
// which begins with the reason it details), else the reason's name. A
// description of another kind (the message of a launch failure) is
// Loam's detail, not something Slurm prints there; but a job held because
// its reservation ended shows "Reservation NAME was deleted", as Slurm's,
// and a job too few of whose partition's nodes are up shows Slurm's
// description of Resources.
func reasonText(j *api.Job) string {
	if d := j.StateDescription; d != "" && (strings.HasPrefix(d, string(j.StateReason)) ||
		j.StateReason == job.ReasonReservationDeleted || heldDesc(j) || d == job.DescNodesUnavailable) {
		return d
	}
	return string(j.StateReason)
}
