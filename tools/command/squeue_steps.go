package command

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// step is one job step as squeue -s lists it. Until srun steps exist,
// the steps are the batch steps of running batch jobs, as Slurm lists
// them ("12.batch").
type step struct {
	j    *api.Job
	id   string // "batch"
	now  int64
	name string
	// tasks, cpus and the TRES are an srun step's (step_list.go): tres
	// per node (squeue's gres and %b), per step and per task; a batch
	// step has one task.
	tasks, cpus              int
	tres, tresStep, tresTask string
	cluster                  string // for -O cluster
}

// stepCols are squeue -s's columns.
var stepCols = []struct {
	letter byte
	names  []string
	header string
	nocut  bool
	val    func(s *step) string
}{
	{'i', []string{"stepid"}, "STEPID", false, stepIDString},
	{'j', []string{"stepname"}, "NAME", false, func(s *step) string { return s.name }},
	{'P', []string{"partition"}, "PARTITION", false, func(s *step) string { return s.j.Partition }},
	{'u', []string{"username"}, "USER", false, func(s *step) string { return s.j.UserName }},
	{'U', []string{"userid"}, "UID", false, func(s *step) string { return strconv.FormatUint(uint64(s.j.UserID), 10) }},
	{'M', []string{"timeused"}, "TIME", true, func(s *step) string { return string(appendSecs(nil, s.now-s.j.StartTime)) }},
	{'N', []string{"nodes"}, "NODELIST", true, func(s *step) string { return s.j.BatchHost }},
	{'A', []string{"numtasks"}, "TASKS", false, func(s *step) string { return strconv.Itoa(max(s.tasks, 1)) }},
	{'l', []string{"timelimit"}, "TIME_LIMIT", false, func(*step) string { return "UNLIMITED" }},
	{'S', []string{"starttime"}, "START_TIME", false, nil},
	{'b', []string{"gres", "tres-per-node"}, "TRES_PER_JOB", false, func(s *step) string { return orNull(s.tres) }},
	{0, []string{"jobid"}, "JOB_ID", false, func(s *step) string { return strconv.FormatUint(uint64(s.j.JobID), 10) }},
	// A step of a job that is no array task has array job id 0.
	{0, []string{"arrayjobid"}, "ARRAY_JOB_ID", false, func(s *step) string {
		return strconv.FormatUint(uint64(s.j.ArrayJobID), 10)
	}},
	{0, []string{"arraytaskid"}, "ARRAY_TASK_ID", false, func(s *step) string {
		if s.j.ArrayTaskID == nil {
			return "N/A"
		}
		return strconv.Itoa(*s.j.ArrayTaskID)
	}},
	{0, []string{"numcpus"}, "NUM_CPUS", false, func(s *step) string { return strconv.Itoa(s.cpus) }},
	{0, []string{"stepstate"}, "STATE", false, func(*step) string { return "RUNNING" }},
	{0, []string{"cluster"}, "CLUSTER", false, func(s *step) string { return orNull(s.cluster) }},
	// cpufreq: what Slurm prints for a step without --cpu-freq; its
	// batch step's are zeros.
	{0, []string{"cpufreq"}, "CPU_FREQ", false, func(s *step) string {
		if s.id == "batch" {
			return "0-0:0"
		}
		return "Unknown-Unknown:Unknown"
	}},
	// The peer's srun -n2 -c2 --gres=gpu:1 step: TRES_PER_STEP cpu:4,
	// TRES_PER_NODE gres:gpu:1, TRES_PER_TASK cpu:2.
	{0, []string{"tres-per-job", "tres-per-step"}, "TRES_PER_STEP", false, func(s *step) string { return orNull(s.tresStep) }},
	// Options Loam's steps do not take: Slurm prints a NULL string.
	{0, []string{"network"}, "NETWORK", false, nullStep},
	{0, []string{"resvports"}, "RESERVED_PORTS", false, nullStep},
	{0, []string{"cpus-per-tres"}, "CPUS_PER_TRES", false, nullStep},
	{0, []string{"mem-per-tres"}, "MEM_PER_TRES", false, nullStep},
	{0, []string{"tres-bind"}, "TRES_BIND", false, nullStep},
	{0, []string{"tres-freq"}, "TRES_FREQ", false, nullStep},
	{0, []string{"tres-per-socket"}, "TRES_PER_SOCKET", false, nullStep},
	{0, []string{"tres-per-task"}, "TRES_PER_TASK", false, func(s *step) string { return orNull(s.tresTask) }},
	{0, []string{"container"}, "CONTAINER", false, nullStep},
}

func nullStep(*step) string { return "(null)" }

type stepColumns struct{}

func (stepColumns) letter(c byte) (int, bool) {
	for i, col := range stepCols {
		if col.letter == c && c != 0 {
			return i, true
		}
	}
	return 0, false
}

// long matches -O names; like Slurm, any name starting "numtask" is
// numtasks.
func (stepColumns) long(name string) (int, bool) {
	if strings.HasPrefix(name, "numtask") {
		name = "numtasks"
	}
	for i, col := range stepCols {
		for _, n := range col.names {
			if n == name {
				return i, true
			}
		}
	}
	return 0, false
}

func stepIDString(s *step) string {
	if s.j.ArrayTaskID != nil {
		return strconv.FormatUint(uint64(arrayJobID(s.j)), 10) + "_" + strconv.Itoa(*s.j.ArrayTaskID) + "." + s.id
	}
	return strconv.FormatUint(uint64(s.j.JobID), 10) + "." + s.id
}

// squeueStepList prints squeue -s.
func squeueStepList(ctx context.Context, env *Env, w *output, c Controller, p *squeueParams, now time.Time) int {
	format := orDefault(p.format, squeueSteps)
	var items []item
	var bad []string
	if p.formatLong != "" {
		items, bad = parseLongFormat(p.formatLong, stepColumns{})
	} else {
		items, bad = parseShortFormat(format, stepColumns{})
	}
	// Slurm's squeue parses the format once the steps have loaded.
	reportBad := func() {
		for _, s := range bad {
			w.errf("Invalid job step format specification: %s", s)
		}
	}
	cluster := stepCluster(ctx, c, items)
	if steps, ok, err := listSteps(ctx, c, now.Unix()); ok { // srun steps too (step_list.go)
		if err != nil {
			w.raw("slurm_get_job_steps error: " + errText(err) + "\n")
			return 1
		}
		reportBad()
		for i := range steps {
			steps[i].cluster = cluster
		}
		sortSteps(steps, p.sort, now.Unix())
		b := w.buf
		if !p.noHeader {
			b = stepLine(b, items, nil, newTimeFormat(env, now))
		}
		for i := range steps {
			if p.stepMatch(&steps[i]) {
				b = stepLine(b, items, &steps[i], newTimeFormat(env, now))
			}
		}
		w.buf = b
		return 0
	}
	q := &api.JobQuery{States: []string{string(job.Running)}, Fields: []string{"job_id", "array_job_id",
		"array_task_id", "partition", "user_name", "user_id", "start_time", "batch_host", "job_state", "batch_flag"},
		All: p.showsHidden()}
	tbl, err := c.JobTable(ctx, q)
	if err != nil {
		w.raw("slurm_get_job_steps error: " + errText(err) + "\n")
		return 1
	}
	jobs, err := tbl.Jobs()
	if err != nil {
		w.raw("slurm_get_job_steps error: " + err.Error() + "\n")
		return 1
	}
	reportBad()
	tf := newTimeFormat(env, now)
	b := w.buf
	if !p.noHeader {
		b = stepLine(b, items, nil, tf)
	}
	var steps []step
	for i := range jobs {
		s := step{j: &jobs[i], id: "batch", name: "batch", now: now.Unix(), cluster: cluster}
		if s.j.JobState == job.Running && s.j.BatchFlag && p.stepMatch(&s) {
			steps = append(steps, s)
		}
	}
	sortSteps(steps, p.sort, now.Unix())
	for i := range steps {
		b = stepLine(b, items, &steps[i], tf)
	}
	w.buf = b
	return 0
}

// stepCluster is the cluster's name when the format prints it.
func stepCluster(ctx context.Context, c Controller, items []item) string {
	k, _ := stepColumns{}.long("cluster")
	for _, it := range items {
		if it.field == k {
			if cfg, err := c.Config(ctx); err == nil {
				return cfg.ClusterName
			}
		}
	}
	return ""
}

func (p *squeueParams) stepMatch(s *step) bool {
	if p.jobs != nil && !p.matchJobs(s.j) {
		return false
	}
	if p.partitions != nil && !p.partitionMatch(s.j.Partition) {
		return false
	}
	if p.stepList != "" && !stepListed(p.stepList, s) {
		return false
	}
	if p.nodes != nil && !intersects(p.nodes, s.j.BatchHost) {
		return false
	}
	return !p.usersGiven || containsFold(p.users, strconv.FormatUint(uint64(s.j.UserID), 10))
}

func stepLine(b []byte, items []item, s *step, tf timeFormat) []byte {
	for _, it := range items {
		if it.field >= 0 {
			col := stepCols[it.field]
			switch {
			case s == nil:
				b = pad(b, col.header, it.width, it.right && col.letter != 'S', col.letter != 'N')
			case col.letter == 'S':
				b = pad(b, string(tf.appendTime(nil, s.j.StartTime, "N/A")), it.width, it.right, true)
			default:
				v := col.val(s)
				if isNullCut([]byte(v), it) {
					b = spaces(b, it.width)
				} else {
					b = pad(b, v, it.width, it.right, !col.nocut)
				}
			}
		}
		b = append(b, it.suffix...)
	}
	return append(b, '\n')
}

// stepListed applies a -s list (checked by checkStepList) as Slurm does:
// an entry JOB[_TASK].STEP names a job (or every task of array JOB), or
// one task of an array, and a step
// number read with strtol, so "12.batch" is step 0 of job 12 and a batch
// step is never named.
func stepListed(list string, s *step) bool {
	id, err := strconv.Atoi(s.id)
	if err != nil {
		return false
	}
	for _, entry := range strtok(list, ",") {
		parts := strtok(entry, ".")
		if len(parts) < 2 {
			continue
		}
		job, rest := cInt(parts[0])
		step, _ := cInt(parts[1])
		if int(step) != id {
			continue
		}
		if strings.HasPrefix(rest, "_") {
			task, _ := cInt(rest[1:])
			if s.j.ArrayTaskID != nil && uint32(job) == s.j.ArrayJobID && int(task) == *s.j.ArrayTaskID {
				return true
			}
			continue
		}
		if uint32(job) == s.j.JobID || (s.j.ArrayJobID != 0 && uint32(job) == s.j.ArrayJobID) {
			return true
		}
	}
	return false
}
