package api

import (
	"fmt"
	"strconv"

	"github.com/loamhpc/loam/pkg/job"
)

// jobField is one column of a JobTable: how to print a Job's value as a
// string and how to read it back.
type jobField struct {
	name string
	get  func(j *Job, b []byte) []byte
	set  func(j *Job, s string) error
}

func strField(name string, p func(*Job) *string) jobField {
	return jobField{name,
		func(j *Job, b []byte) []byte { return append(b, *p(j)...) },
		func(j *Job, s string) error { *p(j) = s; return nil }}
}

func intField(name string, p func(*Job) *int) jobField {
	return jobField{name,
		func(j *Job, b []byte) []byte { return strconv.AppendInt(b, int64(*p(j)), 10) },
		func(j *Job, s string) error {
			v, err := strconv.Atoi(s)
			*p(j) = v
			return err
		}}
}

func int64Field(name string, p func(*Job) *int64) jobField {
	return jobField{name,
		func(j *Job, b []byte) []byte { return strconv.AppendInt(b, *p(j), 10) },
		func(j *Job, s string) error {
			v, err := strconv.ParseInt(s, 10, 64)
			*p(j) = v
			return err
		}}
}

func uint32Field(name string, p func(*Job) *uint32) jobField {
	return jobField{name,
		func(j *Job, b []byte) []byte { return strconv.AppendUint(b, uint64(*p(j)), 10) },
		func(j *Job, s string) error {
			v, err := strconv.ParseUint(s, 10, 32)
			*p(j) = uint32(v)
			return err
		}}
}

func boolField(name string, p func(*Job) *bool) jobField {
	return jobField{name,
		func(j *Job, b []byte) []byte {
			if *p(j) {
				return append(b, '1')
			}
			return append(b, '0')
		},
		func(j *Job, s string) error {
			*p(j) = s == "1"
			if s != "0" && s != "1" {
				return fmt.Errorf("not 0 or 1")
			}
			return nil
		}}
}

// jobFieldList is every column a JobTable may carry, in JobFields order.
var jobFieldList = []jobField{
	uint32Field("job_id", func(j *Job) *uint32 { return &j.JobID }),
	uint32Field("array_job_id", func(j *Job) *uint32 { return &j.ArrayJobID }),
	{"array_task_id", getTaskID, setTaskID},
	strField("array_task_string", func(j *Job) *string { return &j.ArrayTaskString }),
	intField("array_max_tasks", func(j *Job) *int { return &j.ArrayMaxTasks }),
	intField("array_task_count", func(j *Job) *int { return &j.ArrayTaskCount }),
	strField("name", func(j *Job) *string { return &j.Name }),
	uint32Field("user_id", func(j *Job) *uint32 { return &j.UserID }),
	strField("user_name", func(j *Job) *string { return &j.UserName }),
	uint32Field("group_id", func(j *Job) *uint32 { return &j.GroupID }),
	strField("group_name", func(j *Job) *string { return &j.GroupName }),
	strField("account", func(j *Job) *string { return &j.Account }),
	strField("partition", func(j *Job) *string { return &j.Partition }),
	strField("qos", func(j *Job) *string { return &j.QOS }),
	strField("comment", func(j *Job) *string { return &j.Comment }),
	strField("wckey", func(j *Job) *string { return &j.WCKey }),
	strField("container", func(j *Job) *string { return &j.Container }),
	strField("mcs_label", func(j *Job) *string { return &j.MCSLabel }),
	strField("tres_freq", func(j *Job) *string { return &j.TRESFreq }),
	strField("admin_comment", func(j *Job) *string { return &j.AdminComment }),
	strField("job_state", func(j *Job) *string { return (*string)(&j.JobState) }),
	boolField("special_exit", func(j *Job) *bool { return &j.SpecialExit }),
	boolField("stopped", func(j *Job) *bool { return &j.Stopped }),
	strField("state_reason", func(j *Job) *string { return (*string)(&j.StateReason) }),
	strField("state_description", func(j *Job) *string { return &j.StateDescription }),
	int64Field("priority", func(j *Job) *int64 { return &j.Priority }),
	intField("nice", func(j *Job) *int { return &j.Nice }),
	boolField("hold", func(j *Job) *bool { return &j.Hold }),
	boolField("contiguous", func(j *Job) *bool { return &j.Contiguous }),
	strField("nodes", func(j *Job) *string { return &j.Nodes }),
	intField("node_count", func(j *Job) *int { return &j.NodeCount }),
	intField("max_nodes", func(j *Job) *int { return &j.MaxNodes }),
	intField("min_cpus_node", func(j *Job) *int { return &j.MinCPUsNode }),
	intField("cpus", func(j *Job) *int { return &j.CPUs }),
	intField("max_cpus", func(j *Job) *int { return &j.MaxCPUs }),
	intField("tasks", func(j *Job) *int { return &j.Tasks }),
	intField("cpus_per_task", func(j *Job) *int { return &j.CPUsPerTask }),
	intField("tasks_per_node", func(j *Job) *int { return &j.TasksPerNode }),
	intField("sockets_per_node", func(j *Job) *int { return &j.SocketsPerNode }),
	intField("cores_per_socket", func(j *Job) *int { return &j.CoresPerSocket }),
	intField("threads_per_core", func(j *Job) *int { return &j.ThreadsPerCore }),
	intField("ntasks_per_core", func(j *Job) *int { return &j.NTasksPerCore }),
	intField("ntasks_per_socket", func(j *Job) *int { return &j.NTasksPerSocket }),
	strField("tres_bind", func(j *Job) *string { return &j.TRESBind }),
	int64Field("cpu_frequency_minimum", func(j *Job) *int64 { return &j.CPUFreqMin }),
	int64Field("cpu_frequency_maximum", func(j *Job) *int64 { return &j.CPUFreqMax }),
	int64Field("cpu_frequency_governor", func(j *Job) *int64 { return &j.CPUFreqGov }),
	int64Field("memory_per_node", func(j *Job) *int64 { return &j.MemoryPerNode }),
	int64Field("memory_per_cpu", func(j *Job) *int64 { return &j.MemoryPerCPU }),
	int64Field("memory_per_gpu", func(j *Job) *int64 { return &j.MemoryPerGPU }),
	intField("cpus_per_gpu", func(j *Job) *int { return &j.CPUsPerGPU }),
	int64Field("min_memory", func(j *Job) *int64 { return &j.MinMemory }),
	int64Field("min_tmp_disk", func(j *Job) *int64 { return &j.MinTmpDisk }),
	strField("required_nodes", func(j *Job) *string { return &j.RequiredNodes }),
	strField("excluded_nodes", func(j *Job) *string { return &j.ExcludedNodes }),
	strField("features", func(j *Job) *string { return &j.Features }),
	strField("prefer", func(j *Job) *string { return &j.Prefer }),
	strField("exclusive", func(j *Job) *string { return &j.Exclusive }),
	strField("tres_per_node", func(j *Job) *string { return &j.TRESPerNode }),
	strField("tres_per_job", func(j *Job) *string { return &j.TRESPerJob }),
	strField("tres_per_task", func(j *Job) *string { return &j.TRESPerTask }),
	strField("tres_req_str", func(j *Job) *string { return &j.TRESReqStr }),
	strField("tres_alloc_str", func(j *Job) *string { return &j.TRESAllocStr }),
	int64Field("time_limit", func(j *Job) *int64 { return &j.TimeLimit }),
	int64Field("time_minimum", func(j *Job) *int64 { return &j.TimeMinimum }),
	int64Field("submit_time", func(j *Job) *int64 { return &j.SubmitTime }),
	int64Field("eligible_time", func(j *Job) *int64 { return &j.EligibleTime }),
	int64Field("accrue_time", func(j *Job) *int64 { return &j.AccrueTime }),
	int64Field("begin_time", func(j *Job) *int64 { return &j.BeginTime }),
	int64Field("start_time", func(j *Job) *int64 { return &j.StartTime }),
	int64Field("end_time", func(j *Job) *int64 { return &j.EndTime }),
	int64Field("deadline", func(j *Job) *int64 { return &j.Deadline }),
	int64Field("preempt_time", func(j *Job) *int64 { return &j.PreemptTime }),
	int64Field("suspend_time", func(j *Job) *int64 { return &j.SuspendTime }),
	int64Field("secs_pre_suspend", func(j *Job) *int64 { return &j.SecsPreSuspend }),
	int64Field("suspended_secs", func(j *Job) *int64 { return &j.SuspendedSecs }),
	{"exit_code", getExitCode, setExitCode},
	strField("batch_host", func(j *Job) *string { return &j.BatchHost }),
	boolField("batch_flag", func(j *Job) *bool { return &j.BatchFlag }),
	strField("command", func(j *Job) *string { return &j.Command }),
	strField("current_working_directory", func(j *Job) *string { return &j.WorkDir }),
	strField("standard_output", func(j *Job) *string { return &j.StdOut }),
	strField("standard_error", func(j *Job) *string { return &j.StdErr }),
	strField("standard_input", func(j *Job) *string { return &j.StdIn }),
	boolField("standard_output_default", func(j *Job) *bool { return &j.StdOutDefault }),
	boolField("standard_error_default", func(j *Job) *bool { return &j.StdErrDefault }),
	intField("restart_cnt", func(j *Job) *int { return &j.Restarts }),
	intField("required_switch", func(j *Job) *int { return &j.RequiredSwitch }),
	int64Field("wait4switch", func(j *Job) *int64 { return &j.WaitForSwitch }),
	boolField("reboot", func(j *Job) *bool { return &j.Reboot }),
	strField("burst_buffer", func(j *Job) *string { return &j.BurstBuffer }),
	strField("network", func(j *Job) *string { return &j.Network }),
	strField("cluster_features", func(j *Job) *string { return &j.ClusterFeatures }),
	int64Field("delay_boot", func(j *Job) *int64 { return &j.DelayBoot }),
	strField("power_flags", func(j *Job) *string { return &j.Power }),
	strField("gres_flags", func(j *Job) *string { return &j.GresFlags }),
	strField("tres_per_socket", func(j *Job) *string { return &j.TRESPerSocket }),
	boolField("requeue", func(j *Job) *bool { return &j.Requeue }),
	strField("dependency", func(j *Job) *string { return &j.Dependency }),
	strField("mail_type", func(j *Job) *string { return &j.MailType }),
	strField("mail_user", func(j *Job) *string { return &j.MailUser }),
	strField("submit_host", func(j *Job) *string { return &j.SubmitHost }),
	strField("alloc_node", func(j *Job) *string { return &j.AllocNode }),
	intField("alloc_sid", func(j *Job) *int { return &j.AllocSID }),
	strField("submit_dir", func(j *Job) *string { return &j.SubmitDir }),
	strField("reservation", func(j *Job) *string { return &j.Reservation }),
	strField("licenses", func(j *Job) *string { return &j.Licenses }),
	strField("signal", func(j *Job) *string { return &j.Signal }),
	intField("queue_position", func(j *Job) *int { return &j.QueuePosition }),
	int64Field("estimated_start", func(j *Job) *int64 { return &j.EstimatedStart }),
	strField("sched_nodes", func(j *Job) *string { return &j.SchedNodes }),
	strField("tenant", func(j *Job) *string { return &j.Tenant }),
	strField("queue_class", func(j *Job) *string { return &j.QueueClass }),
	intField("gpus", func(j *Job) *int { return &j.GPUs }),
	intField("borrowed_gpus", func(j *Job) *int { return &j.BorrowedGPUs }),
	int64Field("last_sched_eval", func(j *Job) *int64 { return &j.LastSchedEval }),
}

var jobFieldIndex = func() map[string]int {
	m := make(map[string]int, len(jobFieldList))
	for i, f := range jobFieldList {
		m[f.name] = i
	}
	return m
}()

// JobFields returns the names of every field a JobTable may carry: the
// scalar fields of Job under their JSON names.
func JobFields() []string {
	out := make([]string, len(jobFieldList))
	for i, f := range jobFieldList {
		out[i] = f.name
	}
	return out
}

// ValidJobField reports whether name is a JobTable field.
func ValidJobField(name string) bool {
	_, ok := jobFieldIndex[name]
	return ok
}

func getTaskID(j *Job, b []byte) []byte {
	if j.ArrayTaskID == nil {
		return b
	}
	return strconv.AppendInt(b, int64(*j.ArrayTaskID), 10)
}

func setTaskID(j *Job, s string) error {
	if s == "" {
		j.ArrayTaskID = nil
		return nil
	}
	v, err := strconv.Atoi(s)
	j.ArrayTaskID = &v
	return err
}

func getExitCode(j *Job, b []byte) []byte {
	b = strconv.AppendInt(b, int64(j.ExitCode.Status), 10)
	b = append(b, ':')
	return strconv.AppendInt(b, int64(j.ExitCode.Signal), 10)
}

func setExitCode(j *Job, s string) error {
	ec, err := job.ParseExitCode(s)
	j.ExitCode = ec
	return err
}
