package command

import (
	"math/big"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// sacct --json prints the document of Slurm 22.05's data_parser v0.0.38
// (openapi/dbv0.0.38): the same keys in the same order, with the peer's
// empty forms for what Loam's accounting does not keep (comments,
// associations' partitions, heterogeneous jobs, MCS labels, WCKeys,
// reservations, CPU frequencies, energy). The serialisation is the
// peer's too (sacct_jsonfmt.go).

// jsonDoc is the whole document for jobs.
func (pr *acctPrinter) jsonDoc(jobs []api.AcctJob, q *api.AcctQuery, rq *sacctRequest) jObj {
	list := jArr{}
	for i := range jobs {
		j := &jobs[i]
		if !rq.selects(j) {
			continue
		}
		list = append(list, pr.jsonJob(j, q.AllocationsOnly))
	}
	errs := jArr{}
	if len(list) == 0 {
		errs = append(errs, jObj{
			{"description", "Nothing found"},
			{"error_number", 9003},
			{"error", "Nothing found with query"},
			{"source", "slurmdb_jobs_get"},
		})
	}
	return jObj{
		{"meta", jObj{
			{"plugin", jObj{{"type", "openapi/dbv0.0.38"}, {"name", "Slurm OpenAPI DB v0.0.38"}}},
			{"Slurm", jObj{
				{"version", jObj{{"major", 22}, {"micro", 8}, {"minor", 5}}},
				{"release", slurmVersion},
			}},
		}},
		{"errors", errs},
		{"jobs", list},
	}
}

// slurmVersion is the Slurm release Loam's commands answer as.
const slurmVersion = "22.05.8"

// jsonJobOrder is the peer's order of jobs: its records' order, which
// is the order jobs (and array tasks) got their ids.
func jsonJobOrder(jobs []api.AcctJob) {
	slices.SortStableFunc(jobs, func(a, b api.AcctJob) int {
		return int(int64(a.JobID) - int64(b.JobID))
	})
}

func (pr *acctPrinter) jsonJob(j *api.AcctJob, allocOnly bool) jObj {
	started := j.StartTime != 0
	steps := jArr{}
	if !allocOnly {
		for k := range j.Steps {
			steps = append(steps, pr.jsonStep(j, &j.Steps[k]))
		}
	}
	user := pr.users.Name(j.UserID)
	return jObj{
		{"account", j.Account},
		{"comment", jObj{{"administrator", nil}, {"job", nil}, {"system", nil}}},
		{"allocation_nodes", pick(started, j.NodeCount, 0)},
		{"array", jsonArray(j)},
		{"association", jObj{{"account", j.Account}, {"cluster", pr.cluster}, {"partition", nil}, {"user", user}}},
		{"cluster", pr.cluster},
		{"constraints", j.Constraints},
		{"container", nil},
		{"derived_exit_code", jsonExit(j.DerivedExitCode)},
		{"time", jsonJobTime(j)},
		{"exit_code", jsonExit(j.ExitCode)},
		{"flags", jsonFlags(started)},
		{"group", pr.users.Group(j.GroupID)},
		{"het", jObj{{"job_id", 0}, {"job_offset", nil}}},
		{"job_id", int64(j.JobID)},
		{"name", j.Name},
		{"mcs", jObj{{"label", ""}}},
		{"nodes", orDefault(pickStr(started, j.Nodes), "None assigned")},
		{"partition", j.Partition},
		{"priority", j.Priority},
		{"qos", j.QOS},
		{"required", jsonRequired(j)},
		{"kill_request_user", pr.killer(j)},
		{"reservation", jObj{{"id", 0}, {"name", 0}}},
		{"state", jObj{{"current", string(j.State)}, {"reason", acctReason(j)}}},
		{"steps", steps},
		{"tres", jObj{
			{"allocated", jsonJobAlloc(j)},
			{"requested", jsonTRES(j.ReqTRES, false)},
		}},
		{"user", user},
		{"wckey", jObj{{"wckey", ""}, {"flags", jArr{}}}},
		{"working_directory", j.WorkDir},
	}
}

func pickStr(has bool, v string) string {
	if has {
		return v
	}
	return ""
}

// killer is the user who cancelled the job; null when nobody did.
func (pr *acctPrinter) killer(j *api.AcctJob) any {
	if j.State != job.Cancelled || j.CancelledBy == nil {
		return nil
	}
	return pr.users.Name(*j.CancelledBy)
}

// jsonArray is the array block: a task's job id and index, or for the
// record of tasks not yet split off, their indices as the peer's hex
// bitmap ("0xF" for 0-3) and the running-task limit.
func jsonArray(j *api.AcctJob) jObj {
	var task, taskID any
	limit := 0
	if j.ArrayTaskID != nil {
		taskID = *j.ArrayTaskID
	}
	if j.ArrayTaskString != "" {
		spec, lim, _ := strings.Cut(j.ArrayTaskString, "%")
		limit, _ = strconv.Atoi(lim)
		if bits, ok := taskBitmap(spec); ok {
			task = bits
		}
	}
	return jObj{
		{"job_id", int64(j.ArrayJobID)},
		{"limits", jObj{{"max", jObj{{"running", jObj{{"tasks", limit}}}}}}},
		{"task", task},
		{"task_id", taskID},
	}
}

// taskBitmap reads "0-3,7" or "0-15:2" and prints it as Slurm prints a
// bitstring in hex ("0x8F").
func taskBitmap(spec string) (string, bool) {
	var b big.Int
	for _, part := range strings.Split(spec, ",") {
		rng, step, hasStep := strings.Cut(part, ":")
		lo, hi, isRange := strings.Cut(rng, "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return "", false
		}
		z, by := a, 1
		if isRange {
			if z, err = strconv.Atoi(hi); err != nil || z < a {
				return "", false
			}
		}
		if hasStep {
			if by, err = strconv.Atoi(step); err != nil || by <= 0 {
				return "", false
			}
		}
		for i := a; i <= z; i += by {
			b.SetBit(&b, i, 1)
		}
	}
	return "0x" + strings.ToUpper(b.Text(16)), true
}

// jsonExit is an exit code as the peer's dumper writes it: a death by
// signal names the signal; any other exit reads SUCCESS with return
// code 0 (Slurm 22.05's data_parser does not carry the exit status).
func jsonExit(ec job.ExitCode) jObj {
	if ec.Signal != 0 {
		return jObj{
			{"status", "SIGNALED"},
			{"return_code", nil},
			{"signal", jObj{{"signal_id", ec.Signal}, {"name", signalDescription(ec.Signal)}}},
		}
	}
	return jObj{{"status", "SUCCESS"}, {"return_code", 0}}
}

// signalDescription is strsignal's text ("Terminated").
func signalDescription(sig int) string {
	s := syscall.Signal(sig).String()
	if s == "" {
		return strconv.Itoa(sig)
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func jsonFlags(started bool) jArr {
	if !started {
		return jArr{}
	}
	// Loam starts every job from its scheduling pass.
	return jArr{"CLEAR_SCHEDULING", "STARTED_ON_SCHEDULE"}
}

// jsonJobTime is the job's times. Its CPU times stay 0: the peer's job
// record carries none, only its steps do. A job cancelled before it
// started has no start (null); one still pending starts at 0.
func jsonJobTime(j *api.AcctJob) jObj {
	var start any = j.StartTime
	if j.StartTime == 0 && j.EndTime != 0 {
		start = nil
	}
	zero := func() jObj { return jObj{{"seconds", 0}, {"microseconds", 0}} }
	return jObj{
		{"elapsed", j.Elapsed},
		{"eligible", j.EligibleTime},
		{"end", j.EndTime},
		{"start", start},
		{"submission", j.SubmitTime},
		{"suspended", j.Suspended},
		{"system", zero()},
		{"limit", j.TimeLimit / 60},
		{"total", zero()},
		{"user", zero()},
	}
}

// jsonRequired is the CPUs and memory the job asked for; the memory is
// Slurm's req_mem in MiB as asked: per node with --mem (the peer's
// --mem=1000 -n2 prints 1000), else per CPU (--mem-per-cpu=700 prints
// 700). Records without the request derive it per CPU from ReqTRES.
func jsonRequired(j *api.AcctJob) jObj {
	t, _ := resource.ParseTRES(j.ReqTRES)
	cpus := t.Get("cpu")
	if cpus == 0 {
		cpus = int64(j.CPUs)
	}
	mem := t.Get("mem") / max(cpus, 1)
	switch {
	case j.MemPerNode > 0:
		mem = j.MemPerNode
	case j.MemPerCPU > 0:
		mem = j.MemPerCPU
	}
	return jObj{{"CPUs", cpus}, {"memory", mem}}
}

// jsonTRES is a TRES list as the peer's entries, in TRES id order;
// memory in MiB as Loam counts it. energy adds the energy entry with a null count.
func jsonTRES(s string, energy bool) jArr {
	t, err := resource.ParseTRES(s)
	if err != nil {
		return jArr{}
	}
	type ent struct {
		id         int
		typ, name  string
		count      any
		hasNameVal bool
	}
	var ents []ent
	for _, c := range t {
		typ, name, isGres := strings.Cut(c.Name, "/")
		id := accountingTRESID(c.Name) // tres_ids.go
		n := c.Count
		ents = append(ents, ent{id: id, typ: typ, name: name, count: n, hasNameVal: isGres})
	}
	if energy {
		ents = append(ents, ent{id: 3, typ: "energy"})
	}
	slices.SortStableFunc(ents, func(a, b ent) int { return a.id - b.id })
	out := jArr{}
	for _, e := range ents {
		var name any
		if e.hasNameVal {
			name = e.name
		}
		out = append(out, jObj{{"type", e.typ}, {"name", name}, {"id", e.id}, {"count", e.count}})
	}
	return out
}

// jsonJobAlloc is the job's allocated TRES: none before it started; the
// peer lists energy (unmeasured) for a job that ran only its batch
// script, as its ConsumedEnergy field does.
func jsonJobAlloc(j *api.AcctJob) jArr {
	if j.StartTime == 0 {
		return jArr{}
	}
	numbered := slices.ContainsFunc(j.Steps, func(s api.AcctStep) bool { return leadingDigits(s.StepID) > 0 })
	return jsonTRES(j.AllocTRES, !numbered)
}
