package command

import (
	"context"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmdata"
)

// squeue --json and --yaml print Slurm 22.05's openapi v0.0.38 job records
// (the shape of slurmrestd's /slurm/v0.0.38/jobs): every job the
// controller holds, whatever the filters, in the order it lists them.

// dataEnvelope is the document squeue and sinfo print: meta, errors and
// the records under key.
func dataEnvelope(key string, records []slurmdata.Value) slurmdata.Value {
	version := slurmdata.NewDict().
		Set("major", slurmdata.Int(22)).
		Set("micro", slurmdata.Int(8)).
		Set("minor", slurmdata.Int(5))
	meta := slurmdata.NewDict().
		Set("plugin", slurmdata.Map(slurmdata.NewDict().
			Set("type", slurmdata.Str("openapi/v0.0.38")).
			Set("name", slurmdata.Str("Slurm OpenAPI v0.0.38")))).
		Set("Slurm", slurmdata.Map(slurmdata.NewDict().
			Set("version", slurmdata.Map(version)).
			Set("release", slurmdata.Str("22.05.8"))))
	return slurmdata.Map(slurmdata.NewDict().
		Set("meta", slurmdata.Map(meta)).
		Set("errors", slurmdata.List()).
		Set(key, slurmdata.List(records...)))
}

// writeData prints doc as JSON (no newline after it, as json-c leaves
// it) or YAML.
func writeData(w *output, doc slurmdata.Value, yaml bool) {
	if yaml {
		w.write(slurmdata.YAML(doc))
		return
	}
	w.write(slurmdata.JSON(doc))
}

// squeueData prints every job record as squeue --json or --yaml does.
func squeueData(ctx context.Context, env *Env, w *output, yaml bool) int {
	c, err := env.Dial(ctx)
	if err != nil {
		w.raw("slurm_load_jobs error: " + errText(err) + "\n")
		return 1
	}
	resp, err := c.Jobs(ctx, &api.JobQuery{Detail: true, All: true})
	if err != nil {
		w.raw("slurm_load_jobs error: " + errText(err) + "\n")
		return 1
	}
	cluster := ""
	if cfg, err := c.Config(ctx); err == nil {
		cluster = cfg.ClusterName
	}
	src := &jobDataSource{cluster: cluster, topo: nodeTopology(ctx, c), defMem: map[string]int64{}, users: env.Users}
	if parts, err := c.Partitions(ctx); err == nil {
		for _, p := range parts.Partitions {
			src.defMem[p.Name] = p.DefMemPerCPU
		}
	}
	records := make([]slurmdata.Value, 0, len(resp.Jobs))
	for i := range resp.Jobs {
		d := &jobData{j: &resp.Jobs[i], jobDataSource: src}
		records = append(records, slurmdata.Map(d.record()))
	}
	writeData(w, dataEnvelope("jobs", records), yaml)
	return 0
}

// jobDataSource is what the records need beyond the jobs: the cluster's
// name, the nodes' layout, each partition's default memory per CPU.
type jobDataSource struct {
	cluster string
	topo    map[string]api.Node
	defMem  map[string]int64
	users   Users
}

// jobData turns one api.Job into its v0.0.38 record.
type jobData struct {
	j *api.Job
	*jobDataSource
}

var (
	dStr  = slurmdata.Str
	dInt  = slurmdata.Int
	dBool = slurmdata.Bool
	dNull = slurmdata.Null
)

func dNum(n int) slurmdata.Value { return slurmdata.Int(int64(n)) }

// layoutCount is a CPU layout count of the job record: null when not
// given (or --hint=multithread's INFINITE16 tasks per core).
func layoutCount(n int) slurmdata.Value {
	return intOrNull(int64(n), n > 0 && n != job.NTasksPerCoreAny)
}

// intOrNull is an int, or null where Slurm holds NO_VAL for unset.
func intOrNull(n int64, set bool) slurmdata.Value {
	if !set {
		return dNull()
	}
	return dInt(n)
}

// record lists the fields in the order Slurm 22.05 emits them; fields
// Loam has no notion of get what Slurm prints for a job without them.
func (d *jobData) record() *slurmdata.Dict {
	j := d.j
	r := slurmdata.NewDict()
	r.Set("account", dStr(j.Account))
	r.Set("accrue_time", dInt(j.AccrueTime))
	r.Set("admin_comment", dStr(j.AdminComment))
	r.Set("array_job_id", dInt(int64(j.ArrayJobID)))
	if j.ArrayTaskID != nil {
		r.Set("array_task_id", dNum(*j.ArrayTaskID))
	} else {
		r.Set("array_task_id", dNull())
	}
	r.Set("array_max_tasks", dNum(j.ArrayMaxTasks))
	r.Set("array_task_string", dStr(d.arrayTaskString()))
	r.Set("association_id", dInt(0))
	r.Set("batch_features", dStr(batchFeatures(j)))
	r.Set("batch_flag", dBool(j.BatchFlag))
	r.Set("batch_host", dStr(j.BatchHost))
	r.Set("flags", slurmdata.Strs(d.flags()))
	r.Set("burst_buffer", dStr(j.BurstBuffer))
	r.Set("burst_buffer_state", dStr(""))
	r.Set("cluster", dStr(d.cluster))
	r.Set("cluster_features", dStr(j.ClusterFeatures))
	r.Set("command", dStr(j.Command))
	r.Set("comment", dStr(j.Comment))
	r.Set("container", dStr(j.Container))
	r.Set("contiguous", dBool(j.Contiguous))
	r.Set("core_spec", dNull())
	r.Set("thread_spec", dNull())
	r.Set("cores_per_socket", layoutCount(j.CoresPerSocket))
	r.Set("billable_tres", d.billable())
	// Slurm 22.05 tests the minimum CPU frequency for NO_VAL here, so
	// without one cpus_per_task is null whatever -c said; with one it
	// names the key cpu_frequency_minumum (the peer's --cpu-freq=1000-2000
	// job: cpus_per_task 1, cpu_frequency_minumum 1000).
	r.Set("cpus_per_task", intOrNull(int64(max(j.CPUsPerTask, 1)), j.CPUFreqMin != 0))
	if j.CPUFreqMin != 0 {
		r.Set("cpu_frequency_minumum", dInt(j.CPUFreqMin))
	} else {
		r.Set("cpu_frequency_minimum", dNull())
	}
	r.Set("cpu_frequency_maximum", intOrNull(j.CPUFreqMax, j.CPUFreqMax != 0))
	r.Set("cpu_frequency_governor", intOrNull(j.CPUFreqGov, j.CPUFreqGov != 0))
	r.Set("cpus_per_tres", dStr(perGPU(int64(d.j.CPUsPerGPU))))
	r.Set("deadline", dInt(j.Deadline))
	r.Set("delay_boot", dInt(int64(uint32(j.DelayBoot))))
	r.Set("dependency", dStr(j.Dependency))
	r.Set("derived_exit_code", dNum(waitStatus(j.DerivedExitCode)))
	r.Set("eligible_time", dInt(j.EligibleTime))
	r.Set("end_time", dInt(j.EndTime))
	r.Set("excluded_nodes", dStr(j.ExcludedNodes))
	r.Set("exit_code", dNum(waitStatus(j.ExitCode)))
	r.Set("features", dStr(j.Features))
	r.Set("federation_origin", dStr(""))
	r.Set("federation_siblings_active", dStr(""))
	r.Set("federation_siblings_viable", dStr(""))
	r.Set("gres_detail", slurmdata.Strs(j.GRESDetail))
	r.Set("group_id", dInt(int64(j.GroupID)))
	r.Set("group_name", dStr(d.groupName()))
	r.Set("job_id", dInt(int64(j.JobID)))
	if res, ok := d.resources(); ok {
		r.Set("job_resources", slurmdata.Map(res))
	}
	d.recordRest(r)
	return r
}

// recordRest continues record from job_state on.
func (d *jobData) recordRest(r *slurmdata.Dict) {
	j := d.j
	r.Set("job_state", dStr(string(shownJobState(j))))
	r.Set("last_sched_evaluation", dInt(j.LastSchedEval))
	r.Set("licenses", dStr(""))
	r.Set("max_cpus", dInt(0))
	r.Set("max_nodes", dNum(d.maxNodes()))
	r.Set("mcs_label", dStr(j.MCSLabel))
	r.Set("memory_per_tres", dStr(d.memoryPerTRES()))
	r.Set("name", dStr(j.Name))
	r.Set("nodes", dStr(j.Nodes))
	r.Set("nice", intOrNull(int64(j.Nice), j.Nice != 0))
	r.Set("tasks_per_core", layoutCount(j.NTasksPerCore))
	r.Set("tasks_per_node", dNum(j.TasksPerNode))
	r.Set("tasks_per_socket", layoutCount(j.NTasksPerSocket))
	r.Set("tasks_per_board", dInt(0))
	// A job that ended before it ran, submitted without -n, has no task
	// count (scontrol NumTasks=N/A): Slurm prints cpus and tasks null.
	r.Set("cpus", intOrNull(int64(j.CPUs), j.Tasks != 0))
	r.Set("node_count", dNum(j.NodeCount))
	r.Set("tasks", intOrNull(int64(j.Tasks), j.Tasks != 0))
	r.Set("het_job_id", dInt(0))
	r.Set("het_job_id_set", dStr(""))
	r.Set("het_job_offset", dInt(0))
	r.Set("partition", dStr(j.Partition))
	r.Set("prefer", dStr(j.Prefer))
	r.Set("memory_per_node", intOrNull(j.MemoryPerNode, j.MemoryPerNode > 0))
	r.Set("memory_per_cpu", intOrNull(j.MemoryPerCPU, j.MemoryPerNode <= 0 && j.MemoryPerCPU > 0))
	r.Set("minimum_cpus_per_node", dNum(max(j.MinCPUsNode, 1)))
	r.Set("minimum_tmp_disk_per_node", dInt(j.MinTmpDisk))
	r.Set("preempt_time", dInt(j.PreemptTime))
	r.Set("pre_sus_time", dInt(j.SecsPreSuspend))
	r.Set("priority", dInt(j.Priority))
	r.Set("profile", dNull())
	r.Set("qos", dStr(j.QOS))
	r.Set("reboot", dBool(j.Reboot))
	r.Set("required_nodes", dStr(j.RequiredNodes))
	r.Set("requeue", dBool(j.Requeue))
	r.Set("resize_time", dInt(0))
	r.Set("restart_cnt", dNum(j.Restarts))
	r.Set("resv_name", dStr(j.Reservation))
	r.Set("shared", sharedValue(j.Exclusive))
	r.Set("show_flags", slurmdata.Strs([]string{"SHOW_ALL", "SHOW_DETAIL", "SHOW_LOCAL"}))
	r.Set("sockets_per_board", dInt(0))
	r.Set("sockets_per_node", layoutCount(j.SocketsPerNode))
	r.Set("start_time", dInt(j.StartTime))
	r.Set("state_description", dStr(j.StateDescription))
	r.Set("state_reason", dStr(string(j.StateReason)))
	out, errPath := d.stdio()
	r.Set("standard_error", dStr(errPath))
	r.Set("standard_input", dStr(j.StdIn))
	r.Set("standard_output", dStr(out))
	r.Set("submit_time", dInt(j.SubmitTime))
	r.Set("suspend_time", dInt(j.SuspendTime))
	r.Set("system_comment", dStr(""))
	r.Set("time_limit", minutesOrNull(j.TimeLimit))
	r.Set("time_minimum", dInt(j.TimeMinimum/60))
	r.Set("threads_per_core", layoutCount(j.ThreadsPerCore))
	r.Set("tres_bind", dStr(j.TRESBind))
	r.Set("tres_freq", dStr(j.TRESFreq))
	r.Set("tres_per_job", dStr(j.TRESPerJob))
	r.Set("tres_per_node", dStr(j.TRESPerNode))
	r.Set("tres_per_socket", dStr(j.TRESPerSocket))
	r.Set("tres_per_task", dStr(j.TRESPerTask))
	r.Set("tres_req_str", dStr(j.TRESReqStr))
	r.Set("tres_alloc_str", dStr(j.TRESAllocStr))
	r.Set("user_id", dInt(int64(j.UserID)))
	r.Set("user_name", dStr(j.UserName))
	r.Set("wckey", dStr(j.WCKey))
	r.Set("current_working_directory", dStr(j.WorkDir))
}

func minutesOrNull(secs int64) slurmdata.Value {
	if secs == api.UnlimitedSeconds {
		return dNull()
	}
	return dInt(secs / 60)
}

// sharedValue is the job's --exclusive / --oversubscribe as v0.0.38 names
// it; null when neither was given.
func sharedValue(exclusive string) slurmdata.Value {
	switch exclusive {
	case "":
		return dNull()
	case "exclusive":
		return dStr("none")
	case "user", "mcs":
		return dStr(exclusive)
	}
	return dStr("shared")
}

// arrayTaskString is a pending array record's tasks, with the throttle
// as Slurm appends it ("3-4%2").
func (d *jobData) arrayTaskString() string {
	s := d.j.ArrayTaskString
	if s != "" && d.j.ArrayMaxTasks > 0 && !strings.Contains(s, "%") {
		s += "%" + strconv.Itoa(d.j.ArrayMaxTasks)
	}
	return s
}

// flags are the job's bit flags Slurm lists: JOB_CPUS_SET for -c,
// JOB_MEM_SET for --mem or --mem-per-cpu (a memory other than the
// partition's default), JOB_WAS_RUNNING while it runs, and TRES_STR_CALC
// once it ended after running (not when cancelled while pending: no nodes).
func (d *jobData) flags() []string {
	j := d.j
	var f []string
	if j.KillInvDep {
		f = append(f, "KILL_INV_DEP")
	}
	if j.NoKillInvDep {
		f = append(f, "NO_KILL_INV_DEP")
	}
	if j.GresFlags == string(job.GresEnforceBinding) {
		f = append(f, "GRES_ENFORCE_BIND")
	}
	if j.SpreadJob {
		f = append(f, "SPREAD_JOB")
	}
	if j.JobState.IsTerminal() && j.StartTime > 0 && j.Nodes != "" {
		f = append(f, "TRES_STR_CALC")
	}
	if j.CPUsPerTask > 1 && j.CPUsPerGPU == 0 { // -c given: --cpus-per-gpu excludes it
		f = append(f, "JOB_CPUS_SET")
	}
	if j.GresFlags == string(job.GresDisableBinding) {
		f = append(f, "GRES_DISABLE_BIND")
	}
	if j.JobState == job.Running || j.JobState == job.Suspended {
		f = append(f, "JOB_WAS_RUNNING")
	}
	if j.MemoryPerNode > 0 || j.MemoryPerCPU > 0 && j.MemoryPerCPU != d.defMem[j.Partition] {
		f = append(f, "JOB_MEM_SET")
	}
	return f
}

// billable is the billing TRES of the allocation, null before one.
func (d *jobData) billable() slurmdata.Value {
	for _, kv := range strings.Split(d.j.TRESAllocStr, ",") {
		if v, ok := strings.CutPrefix(kv, "billing="); ok {
			if n, err := strconv.ParseFloat(v, 64); err == nil {
				return slurmdata.Float(n)
			}
		}
	}
	return dNull()
}

func (d *jobData) groupName() string {
	if d.j.GroupName != "" || d.users == nil {
		return d.j.GroupName
	}
	return d.users.Group(d.j.GroupID)
}

// maxNodes is -N's maximum while the job waits; Slurm clears it at start.
func (d *jobData) maxNodes() int {
	if d.j.JobState == job.Pending {
		return d.j.MaxNodes
	}
	return 0
}

func (d *jobData) memoryPerTRES() string {
	return perGPU(d.j.MemoryPerGPU)
}

// perGPU is a per-GPU amount as Slurm's cpus_per_tres and mem_per_tres
// hold it ("gres:gpu:N"), empty when not asked for.
func perGPU(n int64) string {
	if n > 0 {
		return "gres:gpu:" + strconv.FormatInt(n, 10)
	}
	return ""
}

// stdio returns standard output and error as Slurm keeps them: empty when
// the job was submitted without -o (the controller's default file; Slurm
// stores no path then), and standard error empty when submitted without
// -e. A name given explicitly stays, even the default's.
func (d *jobData) stdio() (string, string) {
	j := d.j
	out, errPath := j.StdOut, j.StdErr
	if j.StdErrDefault {
		errPath = ""
	}
	if j.StdOutDefault {
		out = ""
	}
	return out, errPath
}
