package api

import (
	"encoding/json"
	"strconv"
	"strings"
)

// MarshalJSON encodes r as encoding/json encodes the plain struct: the
// same members with the same values and omitempty rules (strings may be
// escaped differently, as JSON allows). It is written out because sbatch encodes one request in its
// whole life, and the reflection encoding/json does on first use of the
// large job.Request type was a tenth of sbatch's CPU time. The test
// TestSubmitRequestJSONMatchesReflection compares it with encoding/json
// for every field, so a field added to job.Request fails it until it is
// added here too.
func (r SubmitRequest) MarshalJSON() ([]byte, error) {
	o := jsonObject{b: make([]byte, 0, 1024)}
	o.open()
	o.key("job")
	if err := appendJobRequest(&o, r); err != nil {
		return nil, err
	}
	o.boolean("test_only", r.TestOnly)
	o.str("submit_host", r.SubmitHost, true)
	o.close()
	return o.b, o.err
}

// appendJobRequest writes r.Job as a JSON object, in job.Request's field
// order.
func appendJobRequest(o *jsonObject, r SubmitRequest) error {
	q := &r.Job
	o.open()
	o.str("name", q.Name, true)
	o.str("account", q.Account, true)
	o.strs("partitions", q.Partitions)
	o.str("qos", q.QOS, true)
	o.str("comment", q.Comment, true)
	o.str("wckey", q.WCKey, true)
	o.str("container", q.Container, true)
	o.str("mcs_label", q.MCSLabel, true)
	o.str("tres_freq", q.TresFreq, true)
	o.str("reservation", q.Reservation, true)
	o.str("licenses", q.Licenses, true)
	o.str("script", q.Script, true)
	o.strs("argv", q.Argv)
	o.str("current_working_directory", q.WorkDir, true)
	o.str("standard_output", q.StdOut, true)
	o.str("standard_error", q.StdErr, true)
	o.str("standard_input", q.StdIn, true)
	o.str("open_mode", string(q.OpenMode), true)
	o.value("export", q.Export, q.Export != nil)
	o.strs("environment", q.Environment)
	o.integer("min_nodes", int64(q.MinNodes), true)
	o.integer("max_nodes", int64(q.MaxNodes), true)
	o.boolean("nodes_set", q.NodesSet)
	o.boolean("nodes_from_gpus", q.NodesFromGPUs)
	o.integer("tasks", int64(q.NTasks), true)
	o.integer("tasks_per_node", int64(q.NTasksPerNode), true)
	o.integer("cpus_per_task", int64(q.CPUsPerTask), true)
	o.integer("min_cpus", int64(q.MinCPUs), true)
	o.integer("num_cpus", int64(q.NumCPUs), true)
	o.integer("max_cpus", int64(q.MaxCPUs), true)
	o.boolean("no_kill", q.NoKill)
	o.boolean("overcommit", q.Overcommit)
	o.boolean("spread_job", q.SpreadJob)
	o.boolean("use_min_nodes", q.UseMinNodes)
	o.str("distribution", q.Distribution, true)
	o.integer("sockets_per_node", int64(q.SocketsPerNode), true)
	o.integer("cores_per_socket", int64(q.CoresPerSocket), true)
	o.integer("threads_per_core", int64(q.ThreadsPerCore), true)
	o.integer("ntasks_per_core", int64(q.NTasksPerCore), true)
	o.integer("ntasks_per_socket", int64(q.NTasksPerSocket), true)
	o.str("tres_bind", q.TRESBind, true)
	o.value("cpu_frequency", q.CPUFreq, q.CPUFreq != nil)
	o.value("memory_per_node", q.MemPerNode, q.MemPerNode != nil)
	o.value("memory_per_cpu", q.MemPerCPU, q.MemPerCPU != nil)
	o.value("memory_per_gpu", q.MemPerGPU, q.MemPerGPU != nil)
	o.integer("temporary_disk_per_node", q.TmpDisk, true)
	o.value("gpus", q.GPUs, len(q.GPUs) > 0)
	o.value("gpus_per_node", q.GPUsPerNode, len(q.GPUsPerNode) > 0)
	o.value("gpus_per_task", q.GPUsPerTask, len(q.GPUsPerTask) > 0)
	o.integer("cpus_per_gpu", int64(q.CPUsPerGPU), true)
	o.boolean("cpus_per_gpu_default", q.CPUsPerGPUDefault)
	o.value("gres", q.GRES, len(q.GRES) > 0)
	o.integer("ntasks_per_gpu", int64(q.NTasksPerGPU), true)
	o.boolean("gpus_from_tasks", q.GPUsFromTasks)
	o.str("exclusive", string(q.Exclusive), true)
	o.str("required_nodes", q.NodeList, true)
	o.str("excluded_nodes", q.Exclude, true)
	o.str("constraints", q.Constraint, true)
	o.strs("features", q.Features)
	o.str("prefer", q.Prefer, true)
	if q.BatchFeatures != nil {
		o.str("batch_features", *q.BatchFeatures, false) // "" is --batch=
	}
	o.integer("required_switches", int64(q.Switches), true)
	o.value("wait_for_switch", q.SwitchWait, q.SwitchWait != nil)
	o.boolean("contiguous", q.Contiguous)
	o.boolean("reboot", q.Reboot)
	o.str("burst_buffer", q.BurstBuffer, true)
	o.str("network", q.Network, true)
	o.str("cluster_constraint", q.ClusterConstraint, true)
	o.integer("delay_boot", q.DelayBoot, true)
	o.boolean("power_level", q.PowerLevel)
	o.str("gres_flags", string(q.GresFlags), true)
	o.str("admin_comment", q.AdminComment, true)
	o.str("acctg_freq", q.AcctgFreq, true)
	o.str("gpus_per_socket", q.GPUsPerSocket, true)
	o.value("time_limit", q.TimeLimit, q.TimeLimit != nil)
	o.value("time_minimum", q.TimeMin, q.TimeMin != nil)
	o.value("begin_time", q.Begin, q.Begin != nil)
	o.value("deadline", q.Deadline, q.Deadline != nil)
	o.value("nice", q.Nice, q.Nice != nil)
	o.value("priority", q.Priority, q.Priority != nil)
	o.boolean("hold", q.Hold)
	o.value("requeue", q.Requeue, q.Requeue != nil)
	o.value("signal", q.Signal, q.Signal != nil)
	o.value("mail_type", q.MailType, q.MailType != 0)
	o.str("mail_user", q.MailUser, true)
	o.value("kill_on_invalid_dependency", q.KillOnInvalidDep, q.KillOnInvalidDep != nil)
	o.str("array", q.Array, true)
	o.str("dependency", q.Dependency, true)
	o.strs("data_paths", q.DataPaths)
	o.str("run_as_user", q.RunAsUser, true)
	o.integer("alloc_sid", int64(q.AllocSID), true)
	o.boolean("empty_name", q.EmptyName)
	o.integer("user_id", int64(q.UserID), false)
	o.integer("group_id", int64(q.GroupID), false)
	o.str("user_name", q.UserName, true)
	o.str("submit_host", q.SubmitHost, true)
	o.str("alloc_node", q.AllocNode, true)
	o.str("submit_dir", q.SubmitDir, true)
	o.boolean("default_output", q.DefaultOutput)
	o.close()
	return o.err
}

// jsonObject appends one JSON object's members to b. Rare or structured
// values go through encoding/json (value), which costs little for small
// types; strings, numbers and booleans are written directly.
type jsonObject struct {
	b     []byte
	first bool
	err   error
}

func (o *jsonObject) open()  { o.b, o.first = append(o.b, '{'), true }
func (o *jsonObject) close() { o.b, o.first = append(o.b, '}'), false }

func (o *jsonObject) key(k string) {
	if !o.first {
		o.b = append(o.b, ',')
	}
	o.first = false
	o.b = append(o.b, '"')
	o.b = append(o.b, k...)
	o.b = append(o.b, '"', ':')
}

func (o *jsonObject) str(k, v string, omitEmpty bool) {
	if omitEmpty && v == "" {
		return
	}
	o.key(k)
	o.quote(v)
}

func (o *jsonObject) strs(k string, v []string) {
	if len(v) == 0 {
		return
	}
	o.key(k)
	o.b = append(o.b, '[')
	for i, s := range v {
		if i > 0 {
			o.b = append(o.b, ',')
		}
		o.quote(s)
	}
	o.b = append(o.b, ']')
}

func (o *jsonObject) integer(k string, v int64, omitEmpty bool) {
	if omitEmpty && v == 0 {
		return
	}
	o.key(k)
	o.b = strconv.AppendInt(o.b, v, 10)
}

func (o *jsonObject) boolean(k string, v bool) {
	if v {
		o.key(k)
		o.b = append(o.b, "true"...)
	}
}

func (o *jsonObject) value(k string, v any, present bool) {
	if !present || o.err != nil {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		o.err = err
		return
	}
	o.key(k)
	o.b = append(o.b, data...)
}

// quote writes s as a JSON string.
func (o *jsonObject) quote(s string) { o.b = appendJSONString(o.b, s) }

// UnmarshalJSON decodes a SubmitResponse. The common answer,
// {"job_id":N} and nothing else, is read directly (sbatch decodes one
// answer in its life, and encoding/json's first use of a type is costly);
// anything else goes through encoding/json.
func (r *SubmitResponse) UnmarshalJSON(data []byte) error {
	const head = `{"job_id":`
	s := strings.TrimRight(string(data), " \t\r\n")
	if digits, ok := strings.CutPrefix(s, head); ok {
		if digits, ok = strings.CutSuffix(digits, "}"); ok {
			if id, err := strconv.ParseUint(digits, 10, 32); err == nil {
				*r = SubmitResponse{JobID: uint32(id)}
				return nil
			}
		}
	}
	type plain SubmitResponse
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*r = SubmitResponse(p)
	return nil
}
