package command

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/job"
)

// baseFields are read for every listing: identity, array bookkeeping,
// state and what the default sort and the filters look at.
var baseFields = []string{"job_id", "array_job_id", "array_task_id", "array_task_string", "array_max_tasks",
	"job_state", "special_exit", "stopped", "partition", "priority", "start_time", "name", "state_reason"}

// sortFields are the table fields each -S letter reads.
var sortFields = map[byte][]string{
	'B': {"batch_host"}, 'C': {"cpus"}, 'D': {"node_count"}, 'e': {"end_time"},
	'g': {"group_name"}, 'G': {"group_id"}, 'l': {"time_limit"}, 'L': {"time_limit", "end_time"},
	'm': {"memory_per_cpu", "memory_per_node", "min_memory"}, 'M': {"end_time", "secs_pre_suspend", "suspended_secs"}, 'N': {"nodes"},
	'u': {"user_name"}, 'U': {"user_id"}, 'v': {"reservation"}, 'V': {"submit_time"},
}

// streamChunk is how much output a long listing collects before writing
// it (output's initial buffer).
const streamChunk = 60 << 10

// squeueOnce prints one listing.
func squeueOnce(ctx context.Context, env *Env, w *output, c Controller, p *squeueParams, now time.Time) int {
	if p.steps {
		return squeueStepList(ctx, env, w, c, p, now)
	}
	pr := p.printer(env, now)
	keys, sortErr := parseSortSpec(orDefault(p.sort, squeueSortDef))
	tbl, err := c.JobTable(ctx, p.query(pr, keys))
	if err != nil {
		w.raw("slurm_load_jobs error: " + errText(err) + "\n")
		return 1
	}
	jobs, err := tbl.Jobs()
	if err != nil {
		w.raw("slurm_load_jobs error: " + err.Error() + "\n")
		return 1
	}
	if len(p.jobs) == 1 && !knownJob(jobs, p.jobs[0].JobID) {
		w.raw("slurm_load_jobs error: " + api.CodeInvalidJobID.Text() + "\n")
		return 1
	}
	pr.reportBad(w)
	if pr.usesColumn("cluster") {
		if cfg, err := c.Config(ctx); err == nil {
			pr.cluster = cfg.ClusterName
		}
	}
	b := w.buf
	if !p.noHeader {
		b = pr.header(b)
	}
	if sortErr != "" {
		w.buf = b
		w.flush() // Slurm's header comes out before the message
		w.errf("Invalid sort specification: %s", sortErr)
		return 1
	}
	recs := p.records(ctx, c, jobs)
	srt := &jobSorter{now: now.Unix()}
	if len(p.jobs) == 1 {
		srt.single = p.jobs[0].JobID
	}
	srt.sort(recs, keys)
	for _, r := range recs {
		b = p.printRec(b, pr, r)
		if len(b) >= streamChunk {
			// Written in chunks: a buffer as large as the listing is
			// fresh memory, page faults a tenth of squeue's time.
			w.buf = b
			w.flush()
			b = w.buf
		}
	}
	w.buf = b
	if p.me && !p.noHeader {
		standing(ctx, w, c, recs, now)
	}
	return 0
}

// printer parses the format in use, reporting invalid specifications.
func (p *squeueParams) printer(env *Env, now time.Time) *jobPrinter {
	pr := &jobPrinter{now: now.Unix(), tf: newTimeFormat(env, now), tasks: newTaskListFormat(env), noconvert: p.noconvert}
	var bad []string
	if p.formatSet {
		pr.items, bad = parseShortFormat(p.format, squeueColumns)
	} else {
		f := p.formatLong
		if !p.formatLongSet && p.long {
			f = squeueLong
		} else if !p.formatLongSet {
			f = squeueDefault
		}
		pr.items, bad = parseLongFormat(f, squeueColumns)
	}
	pr.bad = bad
	return pr
}

// reportBad prints the format's invalid specifications.
func (pr *jobPrinter) reportBad(w *output) {
	for _, s := range pr.bad {
		// A "%" at the end has no letter: Slurm's "%c" of '\0' ends
		// its message there.
		w.errf("Invalid job format specification: %s", strings.TrimRight(s, "\x00"))
	}
}

// query is what squeue asks the controller for. With one job id (as
// Slurm's slurm_load_job) only the job is asked for, so that a job the
// other filters hide still counts as existing.
func (p *squeueParams) query(pr *jobPrinter, keys []sortKey) *api.JobQuery {
	extra := slices.Clone(baseFields)
	for _, k := range keys {
		extra = append(extra, sortFields[k.c]...)
	}
	if p.usersGiven {
		extra = append(extra, "user_id")
	}
	if p.accounts != nil {
		extra = append(extra, "account")
	}
	if p.qos != nil {
		extra = append(extra, "qos")
	}
	if p.names != nil {
		extra = append(extra, "name")
	}
	if p.nodes != nil {
		extra = append(extra, "nodes")
	}
	if p.reservation != "" {
		extra = append(extra, "reservation")
	}
	if p.me {
		extra = append(extra, "queue_position", "estimated_start")
	}
	q := &api.JobQuery{Fields: pr.fields(extra...), All: p.showsHidden()}
	for _, r := range p.jobs {
		q.JobIDs = appendUnique(q.JobIDs, strconv.FormatUint(uint64(r.JobID), 10))
	}
	if len(p.jobs) == 1 {
		return q
	}
	// Accounts, names and QOS match without regard to case, as Slurm's
	// squeue compares them (xstrcasecmp), so match filters them here.
	q.Users, q.Partitions = p.users, p.partitions
	switch {
	case p.allStates:
	case p.statesGiven:
		q.States = p.states
	default:
		q.States = activeStates
	}
	if p.nodes != nil {
		q.Nodes = []string{hostlist.Compress(p.nodes)}
	}
	return q
}

func appendUnique(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

func knownJob(jobs []api.Job, id uint32) bool {
	for i := range jobs {
		if jobs[i].JobID == id || jobs[i].ArrayJobID == id {
			return true
		}
	}
	return false
}

// records filters the jobs as squeue's _filter_job does, combines the
// pending tasks of arrays into their array's line, and makes one record
// per line to print.
func (p *squeueParams) records(ctx context.Context, c Controller, jobs []api.Job) []*jobRec {
	var tiers map[string]int
	if p.priority {
		tiers = partitionTiers(ctx, c)
	}
	recs := make([]*jobRec, 0, len(jobs))
	for i := range jobs {
		j := &jobs[i]
		if !p.match(j) {
			continue
		}
		if !p.priority {
			if p.partitionMatch(j.Partition) {
				recs = append(recs, &jobRec{j: j, part: j.Partition})
			}
			continue
		}
		for _, part := range strtok(j.Partition, ",") {
			if p.partitionMatch(part) {
				tier, ok := tiers[part]
				if !ok {
					tier = 1
				}
				recs = append(recs, &jobRec{j: j, part: part, partPrio: tier})
			}
		}
	}
	if !p.array {
		recs = combinePendingTasks(recs, p.arrayUnique)
	}
	return recs
}

func partitionTiers(ctx context.Context, c Controller) map[string]int {
	tiers := map[string]int{}
	if resp, err := c.Partitions(ctx); err == nil {
		for _, pt := range resp.Partitions {
			tiers[pt.Name] = pt.PriorityTier
		}
	}
	return tiers
}

// showsHidden reports whether the listing includes jobs whose partitions
// are all hidden from the user: with -a or -p, as Slurm's squeue.
func (p *squeueParams) showsHidden() bool { return p.all || p.partitions != nil }

// partitionMatch reports whether one of the comma-separated partitions
// is selected by -p.
func (p *squeueParams) partitionMatch(parts string) bool {
	if p.partitions == nil {
		return true
	}
	for _, part := range strtok(parts, ",") {
		if slices.Contains(p.partitions, part) {
			return true
		}
	}
	return false
}

// match applies every filter but the partition's; it narrows a pending
// array record to the tasks -j names.
func (p *squeueParams) match(j *api.Job) bool {
	if j.JobID == 0 || (p.jobs != nil && !p.matchJobs(j)) || (p.licenses != nil && !matchLicenses(p.licenses, j.Licenses)) {
		return false
	}
	if p.accounts != nil && !containsFold(p.accounts, j.Account) {
		return false
	}
	if p.qos != nil && !containsFold(p.qos, j.QOS) {
		return false
	}
	if !p.matchState(shownJobState(j)) { // SPECIAL_EXIT: -t SE, not -t PD
		return false
	}
	if p.nodes != nil && !intersects(p.nodes, j.Nodes) {
		return false
	}
	if p.usersGiven && !slices.Contains(p.users, strconv.FormatUint(uint64(j.UserID), 10)) {
		return false
	}
	if p.reservation != "" && j.Reservation != p.reservation {
		return false
	}
	return p.names == nil || containsFold(p.names, j.Name)
}

func containsFold(list []string, s string) bool {
	if s == "" {
		return false
	}
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

func (p *squeueParams) matchState(s job.State) bool {
	switch {
	case p.allStates:
		return true
	case p.statesGiven:
		return slices.Contains(p.states, string(s))
	}
	return slices.Contains(activeStates, string(s))
}

// intersects reports whether the host list names any of hosts.
func intersects(hosts []string, list string) bool {
	if list == "" {
		return false
	}
	names, err := hostlist.Expand(list)
	if err != nil {
		return false
	}
	for _, n := range names {
		if slices.Contains(hosts, n) {
			return true
		}
	}
	return false
}

// matchJobs applies -j. A reference to tasks of a pending array record
// keeps the record with only those tasks, as Slurm prints "12_[3-4]".
func (p *squeueParams) matchJobs(j *api.Job) bool {
	var keep []int
	for _, r := range p.jobs {
		switch {
		case r.Tasks == nil && (r.JobID == j.JobID || (j.ArrayJobID != 0 && r.JobID == j.ArrayJobID)):
			return true
		case r.Tasks == nil || j.ArrayJobID != r.JobID:
		case j.ArrayTaskID != nil && *j.ArrayTaskID == r.Tasks[0]:
			return true
		case j.ArrayTaskString != "":
			if a := parseTasks(j.ArrayTaskString); a != nil && a.Contains(r.Tasks[0]) {
				keep = append(keep, r.Tasks[0])
			}
		}
	}
	if keep == nil {
		return false
	}
	slices.Sort(keep)
	keep = slices.Compact(keep)
	j.ArrayMaxTasks = 0
	if len(keep) == 1 {
		j.ArrayTaskID, j.ArrayTaskString = &keep[0], ""
	} else {
		j.ArrayTaskString = job.FormatRanges(keep)
	}
	return true
}

// parseTasks reads an array record's task string (throttle allowed).
func parseTasks(s string) *job.Array {
	a, err := job.ParseArray(s, job.MaxArraySizeLimit)
	if err != nil {
		return nil
	}
	return a
}

// combinePendingTasks folds pending tasks that have their own record back
// into their array's pending line, as squeue's
// _combine_pending_array_tasks does (same name and partition, reasons
// merged). --array-unique keeps them apart.
func combinePendingTasks(recs []*jobRec, unique bool) []*jobRec {
	if unique {
		return recs
	}
	type key struct {
		id         uint32
		name, part string
	}
	masters := map[key]*jobRec{}
	for _, r := range recs {
		if j := r.j; j.JobState == job.Pending && j.ArrayTaskString != "" {
			k := key{arrayJobID(j), j.Name, j.Partition}
			if masters[k] == nil {
				masters[k] = r
			}
		}
	}
	if len(masters) == 0 {
		return recs
	}
	merged := map[*jobRec][]int{}
	out := recs[:0]
	for _, r := range recs {
		t := r.j
		if t.JobState == job.Pending && t.ArrayTaskID != nil {
			if m := masters[key{arrayJobID(t), t.Name, t.Partition}]; m != nil {
				merged[m] = append(merged[m], *t.ArrayTaskID)
				mergeReason(m.j, t)
				continue
			}
		}
		out = append(out, r)
	}
	for m, ids := range merged {
		if tasks := parseTasks(m.j.ArrayTaskString); tasks != nil {
			ids = append(ids, slices.Collect(tasks.All())...)
		}
		slices.Sort(ids)
		m.j.ArrayTaskString, m.j.ArrayMaxTasks = job.FormatRanges(slices.Compact(ids)), 0
	}
	return out
}

// mergeReason adds a task's reason to its array line's, as
// _merge_job_reason does.
func mergeReason(m, t *api.Job) {
	if m.StateReason == t.StateReason {
		return
	}
	if m.StateDescription == "" {
		m.StateDescription = string(m.StateReason)
	}
	if !strings.Contains(m.StateDescription, string(t.StateReason)) {
		m.StateDescription += "," + string(t.StateReason)
	}
}

// printRec prints one record, one line per task with -r.
func (p *squeueParams) printRec(b []byte, pr *jobPrinter, r *jobRec) []byte {
	j := r.j
	if r.part != j.Partition {
		cp := *j
		cp.Partition = r.part
		j = &cp
	}
	if !p.array || j.ArrayTaskString == "" {
		return pr.row(b, j)
	}
	s, _, _ := strings.Cut(j.ArrayTaskString, "%")
	tasks := parseTasks(s)
	if tasks == nil {
		return pr.row(b, j)
	}
	cp := *j
	cp.ArrayTaskString, cp.ArrayMaxTasks = "", 0
	for i := range tasks.All() {
		cp.ArrayTaskID = &i
		b = pr.row(b, &cp)
	}
	return b
}
