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
	// tasks, cpus and tres are an srun step's (step_list.go); a batch
	// step has one task.
	tasks, cpus int
	tres        string
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
	{'b', []string{"gres"}, "TRES_PER_JOB", false, func(s *step) string { return orNull(s.tres) }},
	{0, []string{"jobid"}, "JOBID", false, func(s *step) string { return strconv.FormatUint(uint64(s.j.JobID), 10) }},
	{0, []string{"arrayjobid"}, "ARRAY_JOB_ID", false, func(s *step) string {
		return strconv.FormatUint(uint64(arrayJobID(s.j)), 10)
	}},
	{0, []string{"numcpus"}, "NUM_CPUS", false, func(s *step) string { return strconv.Itoa(s.cpus) }},
	{0, []string{"stepstate"}, "STATE", false, func(*step) string { return "RUNNING" }},
}

type stepColumns struct{}

func (stepColumns) letter(c byte) (int, bool) {
	for i, col := range stepCols {
		if col.letter == c && c != 0 {
			return i, true
		}
	}
	return 0, false
}

func (stepColumns) long(name string) (int, bool) {
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
	for _, s := range bad {
		w.errf("Invalid job step format specification: %s", s)
	}
	if steps, ok, err := listSteps(ctx, c, now.Unix()); ok { // srun steps too (step_list.go)
		if err != nil {
			w.raw("slurm_get_job_steps error: " + errText(err) + "\n")
			return 1
		}
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
		"array_task_id", "partition", "user_name", "user_id", "start_time", "batch_host", "job_state", "batch_flag"}}
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
	tf := newTimeFormat(env, now)
	b := w.buf
	if !p.noHeader {
		b = stepLine(b, items, nil, tf)
	}
	for i := range jobs {
		s := &step{j: &jobs[i], id: "batch", name: "batch", now: now.Unix()}
		if s.j.JobState == job.Running && s.j.BatchFlag && p.stepMatch(s) {
			b = stepLine(b, items, s, tf)
		}
	}
	w.buf = b
	return 0
}

func (p *squeueParams) stepMatch(s *step) bool {
	if p.jobs != nil && !p.matchJobs(s.j) {
		return false
	}
	if p.partitions != nil && !p.partitionMatch(s.j.Partition) {
		return false
	}
	if p.stepList != "" {
		ok := false
		for _, want := range strtok(p.stepList, ",") {
			ok = ok || want == stepIDString(s) || strings.TrimPrefix(want, strconv.FormatUint(uint64(s.j.JobID), 10)+".") == s.id
		}
		if !ok {
			return false
		}
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
				b = pad(b, col.val(s), it.width, it.right, !col.nocut)
			}
		}
		b = append(b, it.suffix...)
	}
	return append(b, '\n')
}
