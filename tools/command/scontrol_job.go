package command

import (
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// jobFormatter prints jobs as scontrol show job does: key=value pairs on
// lines starting with three blanks (one line with -o), details with -d.
// Loam's own fields follow Slurm's, so parsers of Slurm's output keep
// working.
type jobFormatter struct {
	now     int64
	tf      timeFormat
	tasks   taskListFormat // SLURM_BITSTR_LEN
	detail  bool
	oneLine bool
}

func (f *jobFormatter) sep() string {
	if f.oneLine {
		return " "
	}
	return "\n   "
}

// appendJob appends one job's record.
func (f *jobFormatter) appendJob(b []byte, j *api.Job) []byte {
	sep := f.sep()
	b = f.idLine(b, j)
	b = append(b, sep...)
	b = append(b, "UserId="+orDefault(j.UserName, u32(j.UserID))+"("+u32(j.UserID)+") GroupId="+
		orDefault(j.GroupName, u32(j.GroupID))+"("+u32(j.GroupID)+") MCS_label="+orDefault(j.MCSLabel, "N/A")+sep...)
	b = append(b, "Priority="+strconv.FormatUint(uint64(uint32(j.Priority)), 10)+" Nice="+strconv.Itoa(j.Nice)+
		" Account="+orNull(j.Account)+" QOS="+orNull(j.QOS)+sep...)
	b = append(b, "JobState="+string(shownJobState(j))+" Reason="+underscored(reasonText(j))+
		" Dependency="+orNull(j.Dependency)+sep...)
	b = append(b, "Requeue="+bit(j.Requeue)+" Restarts="+strconv.Itoa(j.Restarts)+" BatchFlag="+bit(j.BatchFlag)+
		" Reboot="+bit(j.Reboot)+" ExitCode="+j.ExitCode.String()+sep...)
	if f.detail {
		b = append(b, "DerivedExitCode="+j.DerivedExitCode.String()+sep...)
	}
	b = f.timeLines(b, j, sep)
	b = append(b, "Partition="+j.Partition+" AllocNode:Sid="+orNull(orDefault(j.AllocNode, j.SubmitHost))+":"+strconv.Itoa(j.AllocSID)+sep...)
	b = append(b, "ReqNodeList="+orNull(j.RequiredNodes)+" ExcNodeList="+orNull(j.ExcludedNodes)+sep...)
	b = append(b, "NodeList="+j.Nodes...)
	if j.SchedNodes != "" && j.Nodes == "" {
		// The nodes a pending job is planned on (squeue's SCHEDNODES), as
		// slurmctld shows them once backfill has planned it.
		b = append(b, " SchedNodeList="+j.SchedNodes...)
	}
	b = append(b, sep...)
	b = batchLine(b, j, sep)
	b = f.shapeLines(b, j, sep)
	b = f.fileLines(b, j, sep)
	b = f.loamLines(b, j, sep)
	b = append(b, sep...)
	if f.oneLine {
		return append(b, '\n')
	}
	return append(b, "\n\n"...)
}

// batchLine is slurmctld's optional line after NodeList=: --batch's
// features (shown even empty, for --batch=) and the batch host, on one
// line when both are there ("BatchFeatures=cpu BatchHost=gpu001").
func batchLine(b []byte, j *api.Job, sep string) []byte {
	if j.BatchFeatures == nil && j.BatchHost == "" {
		return b
	}
	if j.BatchFeatures != nil {
		b = append(b, "BatchFeatures="+*j.BatchFeatures...)
		if j.BatchHost != "" {
			b = append(b, ' ')
		}
	}
	if j.BatchHost != "" {
		b = append(b, "BatchHost="+j.BatchHost...)
	}
	return append(b, sep...)
}

// batchFeatures is --batch's features, "" when not given.
func batchFeatures(j *api.Job) string {
	if j.BatchFeatures == nil {
		return ""
	}
	return *j.BatchFeatures
}

func u32(n uint32) string { return strconv.FormatUint(uint64(n), 10) }

func bit(v bool) string {
	if v {
		return "1"
	}
	return "0"
}

// underscored replaces blanks as scontrol does in Reason=, "for easier
// parsing".
func underscored(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' {
			return '_'
		}
		return r
	}, s)
}

func (f *jobFormatter) idLine(b []byte, j *api.Job) []byte {
	b = append(b, "JobId="+u32(j.JobID)+" "...)
	if j.ArrayJobID != 0 {
		b = append(b, "ArrayJobId="+u32(j.ArrayJobID)+" ArrayTaskId="...)
		if j.ArrayTaskString != "" {
			b = append(b, f.tasks.cut(taskString(j))...)
		} else if j.ArrayTaskID != nil {
			b = strconv.AppendInt(b, int64(*j.ArrayTaskID), 10)
		} else {
			// An array record cancelled task by task holds none;
			// scontrol prints slurmctld's NO_VAL for it.
			b = append(b, "4294967294"...)
		}
		b = append(b, ' ')
		if j.ArrayMaxTasks > 0 {
			b = append(b, "ArrayTaskThrottle="+strconv.Itoa(j.ArrayMaxTasks)+" "...)
		}
	}
	return append(b, "JobName="+j.Name...)
}

func (f *jobFormatter) time(unix int64) string {
	return string(f.tf.appendTime(nil, unix, "Unknown"))
}

func (f *jobFormatter) timeLines(b []byte, j *api.Job, sep string) []byte {
	b = append(b, "RunTime="...)
	p := jobPrinter{now: f.now}
	b = appendHMS(b, p.timeUsed(j))
	b = append(b, " TimeLimit="...)
	if j.TimeLimit == 0 {
		b = append(b, "Partition_Limit"...)
	} else {
		b = appendHMS(b, roundMinutes(j.TimeLimit))
	}
	b = append(b, " TimeMin="...)
	if j.TimeMinimum == 0 {
		b = append(b, "N/A"...)
	} else {
		b = appendHMS(b, roundMinutes(j.TimeMinimum))
	}
	b = append(b, sep+"SubmitTime="+f.time(j.SubmitTime)+" EligibleTime="+f.time(j.EligibleTime)+sep...)
	b = append(b, "AccrueTime="+f.time(j.AccrueTime)+sep...)
	if j.ResizeTime != 0 { // a --no-kill job that lost a node (job_info.c)
		b = append(b, "ResizeTime="+f.time(j.ResizeTime)+sep...)
	}
	end := f.time(j.EndTime)
	if j.TimeLimit == api.UnlimitedSeconds && j.EndTime > f.now {
		end = "Unknown"
	}
	deadline := "N/A"
	if j.Deadline != 0 {
		deadline = f.time(j.Deadline)
	}
	b = append(b, "StartTime="+f.time(j.StartTime)+" EndTime="+end+" Deadline="+deadline+sep...)
	if j.StartTime != 0 && j.JobState != job.Pending {
		pt := "None"
		if j.PreemptTime != 0 {
			pt = f.time(j.PreemptTime)
		}
		b = append(b, "PreemptEligibleTime="+f.time(j.StartTime)+" PreemptTime="+pt+sep...)
	}
	st := "None"
	if j.SuspendTime != 0 {
		st = f.time(j.SuspendTime)
	}
	b = append(b, "SuspendTime="+st+" SecsPreSuspend="+strconv.FormatInt(j.SecsPreSuspend, 10)...)
	return append(b, " LastSchedEval="+f.time(j.LastSchedEval)+" Scheduler="+schedulerOf(j)+sep...)
}

// schedulerOf is slurmctld's Scheduler= for a job: a pending job its
// backfill pass tries to place (every few seconds) shows "Backfill:*", as
// the peer's pending jobs waiting on resources do all the time; a job the
// pass skips and a job that started show "Main".
func schedulerOf(j *api.Job) string {
	if j.JobState != job.Pending || j.LastSchedEval == 0 || !j.StateReason.BackfillTried() {
		return "Main"
	}
	return "Backfill:*"
}

// roundMinutes keeps UNLIMITED and whole minutes, as Slurm stores limits.
func roundMinutes(secs int64) int64 {
	if secs == api.UnlimitedSeconds {
		return secs
	}
	return secs / 60 * 60
}

func (f *jobFormatter) shapeLines(b []byte, j *api.Job, sep string) []byte {
	tasks := "N/A"
	if j.Tasks != 0 {
		tasks = strconv.Itoa(j.Tasks)
	}
	nodes := strconv.Itoa(j.NodeCount)
	if j.JobState == job.Pending && j.MaxNodes > 0 {
		// Slurm shows the range until the job starts, its minimum
		// never above its maximum (-n6 --ntasks-per-node=2 -N1-2: 2-2).
		nodes = strconv.Itoa(min(j.NodeCount, j.MaxNodes)) + "-" + strconv.Itoa(j.MaxNodes)
	}
	numCPUs := strconv.Itoa(j.CPUs)
	if j.MaxCPUs > 0 {
		numCPUs += "-" + strconv.Itoa(j.MaxCPUs)
	}
	b = append(b, "NumNodes="+nodes+" NumCPUs="+numCPUs+" NumTasks="+tasks+
		" CPUs/Task="+strconv.Itoa(max(j.CPUsPerTask, 1))+" ReqB:S:C:T=0:0:"+countOrStar(j.CoresPerSocket)+":"+
		countOrStar(j.ThreadsPerCore)+sep...)
	b = append(b, "TRES="+orNull(orDefault(j.TRESAllocStr, j.TRESReqStr))+sep...)
	b = append(b, "Socks/Node="+countOrStar(j.SocketsPerNode)+" NtasksPerN:B:S:C="+strconv.Itoa(j.TasksPerNode)+":0:"+
		countOrStar(j.NTasksPerSocket)+":"+countOrStar(j.NTasksPerCore)+" CoreSpec=*"+sep...)
	if f.detail && len(j.Allocation) > 0 {
		b = f.allocLines(b, j, sep)
	}
	memKind, mem := "Node", j.MemoryPerNode
	if j.MemoryPerCPU > 0 {
		memKind, mem = "CPU", j.MemoryPerCPU
	} else if mem == 0 {
		mem = j.MinMemory
	}
	b = append(b, "MinCPUsNode="+strconv.Itoa(minCPUsNode(j))+" MinMemory"+memKind+"="+resource.FormatMemory(mem)+
		" MinTmpDiskNode="+resource.FormatMemory(j.MinTmpDisk)+sep...)
	b = append(b, "Features="+orNull(j.Features)+" DelayBoot="...)
	b = append(appendHMS(b, j.DelayBoot), sep...)
	if j.ClusterFeatures != "" {
		b = append(b, "ClusterFeatures="+j.ClusterFeatures+sep...)
	}
	if j.Prefer != "" { // a pending job's --prefer
		b = append(b, "Prefer="+j.Prefer+sep...)
	}
	if j.Reservation != "" {
		b = append(b, "Reservation="+j.Reservation+sep...)
	}
	return append(b, "OverSubscribe="+shareString(j.Exclusive)+" Contiguous="+contiguousFlag(j)+" Licenses="+orNull(j.Licenses)+" Network="+orNull(j.Network)+sep...)
}

// contiguousFlag is show job's Contiguous= (and squeue's %O): 1 for
// --contiguous, else 0.
func contiguousFlag(j *api.Job) string {
	if j.Contiguous {
		return "1"
	}
	return "0"
}

// countOrStar prints a layout count of show job's ReqB:S:C:T, Socks/Node
// and NtasksPerN:B:S:C lines: "*" when not given (--hint=multithread's
// tasks per core included, as Slurm prints INFINITE16).
func countOrStar(n int) string {
	if n <= 0 || n == job.NTasksPerCoreAny {
		return "*"
	}
	return strconv.Itoa(n)
}

// countOrNA is a layout count as squeue -O prints it: N/A when not given.
func countOrNA(n int) string {
	if s := countOrStar(n); s != "*" {
		return s
	}
	return "N/A"
}

// jobCPUFreq is --cpu-freq as show job's line prints it
// ("CPU_max_freq=High "), "" without one.
func jobCPUFreq(j *api.Job) string {
	return job.CPUFreq{Min: uint32(j.CPUFreqMin), Max: uint32(j.CPUFreqMax), Gov: uint32(j.CPUFreqGov)}.String()
}

// allocLines prints -d's JOB_GRES and per-node lines, grouping
// consecutive nodes with the same CPUs, memory and GRES into one host
// list, as Slurm does.
func (f *jobFormatter) allocLines(b []byte, j *api.Job, sep string) []byte {
	b = append(b, "JOB_GRES="+orNull(jobGRES(j))+sep...)
	gres := func(i int) string {
		if i < len(j.GRESDetail) {
			return j.GRESDetail[i]
		}
		return gpuDetail(j.Allocation[i].GPUs)
	}
	for i := 0; i < len(j.Allocation); {
		a := j.Allocation[i]
		k := i + 1
		for k < len(j.Allocation) && j.Allocation[k].CPUIDs == a.CPUIDs && j.Allocation[k].Memory == a.Memory &&
			gres(k) == gres(i) {
			k++
		}
		var names []string
		for _, x := range j.Allocation[i:k] {
			names = append(names, x.Node)
		}
		b = append(b, "  Nodes="+hostlist.Ranged(names)+" CPU_IDs="+a.CPUIDs+" Mem="+
			strconv.FormatInt(a.Memory, 10)+" GRES="+gres(i)+sep...)
		i = k
	}
	return b
}

// gpuDetail prints a node's GPUs as Slurm's gres_detail: "gpu:2(IDX:0-1)".
func gpuDetail(gpus []int) string {
	if len(gpus) == 0 {
		return ""
	}
	return "gpu:" + strconv.Itoa(len(gpus)) + "(IDX:" + job.FormatRanges(sortedInts(gpus)) + ")"
}

func sortedInts(v []int) []int {
	out := append([]int(nil), v...)
	for i := 1; i < len(out); i++ {
		for k := i; k > 0 && out[k] < out[k-1]; k-- {
			out[k], out[k-1] = out[k-1], out[k]
		}
	}
	return out
}

// jobGRES is Slurm's gres_total: the job's GRES summed over its nodes
// ("gpu:16").
func jobGRES(j *api.Job) string {
	total := map[string]int{}
	var order []string
	for i, a := range j.Allocation {
		detail := ""
		if i < len(j.GRESDetail) {
			detail = j.GRESDetail[i]
		} else {
			detail = gpuDetail(a.GPUs)
		}
		for _, item := range splitTop(detail) {
			name, n := gresCount(item)
			if name == "" {
				continue
			}
			if _, ok := total[name]; !ok {
				order = append(order, name)
			}
			total[name] += n
		}
	}
	var parts []string
	for _, name := range order {
		parts = append(parts, name+":"+strconv.Itoa(total[name]))
	}
	return strings.Join(parts, ",")
}

// splitTop splits "gpu:8(IDX:0-7),nic:1" at commas outside parentheses.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// gresCount reads "gpu:h100:8(IDX:0-7)" as ("gpu:h100", 8).
func gresCount(item string) (string, int) {
	item, _, _ = strings.Cut(item, "(")
	i := strings.LastIndexByte(item, ':')
	if i < 0 {
		return "", 0
	}
	n, err := strconv.Atoi(item[i+1:])
	if err != nil {
		return "", 0
	}
	return item[:i], n
}

func (f *jobFormatter) fileLines(b []byte, j *api.Job, sep string) []byte {
	b = append(b, "Command="+orNull(j.Command)+sep...)
	b = append(b, "WorkDir="+j.WorkDir...)
	if j.AdminComment != "" {
		b = append(b, sep+"AdminComment="+j.AdminComment+" "...)
	}
	if j.Comment != "" {
		b = append(b, sep+"Comment="+j.Comment+" "...)
	}
	if j.BatchFlag {
		b = append(b, sep+"StdErr="+shownStdio(stdErrPath(j), j)...)
		b = append(b, sep+"StdIn="+shownStdio(orDefault(j.StdIn, "/dev/null"), j)...)
		b = append(b, sep+"StdOut="+shownStdio(stdOutPath(j), j)...)
	}
	if j.RequiredSwitch > 0 { // --switches, where Slurm puts it for batch and other jobs
		b = append(b, sep+"Switches="+strconv.Itoa(j.RequiredSwitch)+"@"+
			slurmtime.FormatDuration(time.Duration(j.WaitForSwitch)*time.Second)...)
	}
	if j.BurstBuffer != "" {
		b = append(b, sep+"BurstBuffer="+j.BurstBuffer...)
	}
	if f := jobCPUFreq(j); f != "" {
		b = append(b, sep+f...)
	}
	b = append(b, sep+"Power="+j.Power...)
	b = appendJobFlags(b, j, sep)
	for _, kv := range [][2]string{{"CpusPerTres", cpusPerTRES(j)}, {"MemPerTres", perGPU(j.MemoryPerGPU)},
		{"TresBind", j.TRESBind}, {"TresFreq", j.TRESFreq}, {"TresPerJob", j.TRESPerJob}, {"TresPerNode", j.TRESPerNode},
		{"TresPerSocket", j.TRESPerSocket}, {"TresPerTask", j.TRESPerTask}} {
		if kv[1] != "" {
			b = append(b, sep+kv[0]+"="+kv[1]...)
		}
	}
	if j.MailType != "" && j.MailUser != "" {
		b = append(b, sep+"MailUser="+j.MailUser+" MailType="+j.MailType...)
	}
	if j.NTasksPerTRES > 0 {
		b = append(b, sep+"NtasksPerTRES="+strconv.Itoa(j.NTasksPerTRES)...)
	}
	if j.Container != "" {
		b = append(b, sep+"Container="+j.Container...)
	}
	return b
}

// appendJobFlags prints the line of the job's flags after Power=:
// --gres-flags, --kill-on-invalid-dep and --spread-job. Slurm 22.05 puts
// them on one line with nothing between them
// ("GresEnforceBind=YesKillOInInvalidDependent=NoSpreadJob=Yes").
func appendJobFlags(b []byte, j *api.Job, sep string) []byte {
	var flags []string
	switch job.GresFlags(j.GresFlags) {
	case job.GresDisableBinding:
		flags = append(flags, "GresEnforceBind=No")
	case job.GresEnforceBinding:
		flags = append(flags, "GresEnforceBind=Yes")
	}
	if j.KillInvDep {
		flags = append(flags, "KillOInInvalidDependent=Yes")
	} else if j.NoKillInvDep {
		flags = append(flags, "KillOInInvalidDependent=No")
	}
	if j.SpreadJob {
		flags = append(flags, "SpreadJob=Yes")
	}
	if len(flags) == 0 {
		return b
	}
	return append(b, sep+strings.Join(flags, "")...)
}

// loamLines prints Loam's additions after every Slurm field, each only
// when it has a value: tenant and queue class, the queue position and
// planned start of a pending job (R13), GPUs held and how many are
// borrowed from other tenants' quota (R7, per node with -d), its
// preemptions (R11: how many, by whom, whether the last one found it
// checkpointed, run time lost), and the reservation the scheduler holds
// for the job (R9).
func (f *jobFormatter) loamLines(b []byte, j *api.Job, sep string) []byte {
	if j.Tenant != "" || j.QueueClass != "" {
		b = append(b, sep+"Tenant="+orNull(j.Tenant)+" QueueClass="+orNull(j.QueueClass)...)
	}
	if j.JobState == job.Pending && (j.QueuePosition > 0 || j.EstimatedStart != 0) {
		b = append(b, sep+"QueuePosition="+strconv.Itoa(j.QueuePosition)+" EstimatedStart="+f.time(j.EstimatedStart)...)
	}
	if j.GPUs > 0 {
		b = append(b, sep+"GPUs="+strconv.Itoa(j.GPUs)+" BorrowedGPUs="+strconv.Itoa(j.BorrowedGPUs)...)
		if f.detail {
			b = f.borrowedLines(b, j, sep)
		}
	}
	if j.Preemptions > 0 {
		b = append(b, sep+"Preemptions="+strconv.Itoa(j.Preemptions)+" PreemptedBy="+u32(j.PreemptedBy)+
			" PreemptReason="+orNull(j.PreemptReason)+" Checkpoint="+orNull(j.Checkpoint)+
			" LostRunTime="+string(appendHMS(nil, j.LostRunTime))...)
	}
	if r := j.SchedReservation; r != nil {
		b = append(b, sep+"SchedReservation=yes ReservationCreated="+f.time(r.Created)+
			" ReservationPlannedStart="+f.time(r.PlannedStart)+" ReservationExpires="+f.time(r.Expires)+
			" ReservationNodes="+orNull(r.Nodes)...)
	}
	return b
}

// borrowedLines prints, per node, the GPU indices held and those
// borrowed. The key is GPUNode=, not Nodes=: scripts collect Slurm's own
// per-node lines ("   Nodes=n1 CPU_IDs=0-3 Mem=...") by that key.
func (f *jobFormatter) borrowedLines(b []byte, j *api.Job, sep string) []byte {
	for _, a := range j.Allocation {
		if len(a.GPUs) == 0 {
			continue
		}
		var borrowed []int
		for i, g := range a.GPUs {
			if i < len(a.Borrowed) && a.Borrowed[i] {
				borrowed = append(borrowed, g)
			}
		}
		b = append(b, sep+"  GPUNode="+a.Node+" GPU_IDs="+job.FormatRanges(sortedInts(a.GPUs))+
			" Borrowed="+orDefault(job.FormatRanges(sortedInts(borrowed)), "none")...)
	}
	return b
}
