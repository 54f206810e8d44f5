package command

import (
	"context"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

var sstatOpts = []optSpec{
	{long: "allsteps", short: 'a'},
	{long: "helpformat", short: 'e'},
	{long: "help", short: 'h'},
	{long: "pidformat", short: 'i'},
	{long: "jobs", short: 'j', arg: requiredArg},
	{long: "noheader", short: 'n'},
	{long: "noconvert"},
	{long: "fields", short: 'o', arg: requiredArg},
	{long: "format", short: 'o', arg: requiredArg},
	{long: "parsable", short: 'p'},
	{long: "parsable2", short: 'P'},
	{long: "usage"},
	{long: "verbose", short: 'v'},
	{long: "version", short: 'V'},
}

// StatController is the part of the controller's API behind sstat. The
// real client implements it.
type StatController interface {
	StepStat(ctx context.Context, req *api.StepStatRequest) (*api.StepStatResponse, error)
}

// sstat's field lists.
const (
	sstatDefault = "jobid,maxvmsize,maxvmsizenode,maxvmsizetask,avevmsize,maxrss,maxrssnode,maxrsstask,averss,maxpages,maxpagesnode,maxpagestask,avepages,mincpu,mincpunode,mincputask,avecpu,ntasks,avecpufreq,reqcpufreqmin,reqcpufreqmax,reqcpufreqgov,consumedenergy,maxdiskread,maxdiskreadnode,maxdiskreadtask,avediskread,maxdiskwrite,maxdiskwritenode,maxdiskwritetask,avediskwrite,tresusageinave,tresusageinmax,tresusageinmaxnode,tresusageinmaxtask,tresusageinmin,tresusageinminnode,tresusageinmintask,tresusageintot,tresusageoutave,tresusageoutmax,tresusageoutmaxnode,tresusageoutmaxtask,tresusageoutmin,tresusageoutminnode,tresusageoutmintask,tresusageouttot"
	sstatPids    = "jobid,nodelist,pids"
)

// sstatJob is one -j operand: a job and a step ("" the default, "batch",
// "extern" or a number).
type sstatJob struct {
	job  uint32
	step string
}

// sstatRun is one sstat invocation's settings.
type sstatRun struct {
	pr        *acctPrinter // cells and delimiters, as sacct's
	fields    []acctField
	all       bool
	perNode   bool // -i: a line per node of each step
	header    bool
	noconvert bool // --noconvert: sizes in bytes
}

// Sstat runs sstat: the live usage of running steps, asked of the node
// daemons through the controller.
func Sstat(ctx context.Context, env *Env, args []string) int {
	w := newOutput(env, "sstat")
	opts, _, err := getopt(env.prog("sstat"), args, sstatOpts)
	if err != nil {
		w.lines(err.(*usageError).lines)
		return w.exit(1)
	}
	run := &sstatRun{pr: &acctPrinter{delim: "|"}, header: true}
	format, extra, jobs := sstatDefault, "", ""
	for _, o := range opts {
		switch o.id {
		case "a":
			run.all = true
		case "e":
			w.printf("%s", sstatFieldHelp())
			return w.exit(0)
		case "h":
			w.printf("%s", sstatHelp)
			return w.exit(0)
		case "usage":
			w.printf("%s", sstatUsage)
			return w.exit(0)
		case "V":
			w.printf("%s\n", versionLine)
			return w.exit(0)
		case "i":
			run.perNode = true
		case "j":
			jobs = o.val
		case "n":
			run.header = false
		case "noconvert":
			run.noconvert = true
		case "o":
			extra = joinNonEmpty(extra, o.val) // sstat adds up its -o lists
		case "p":
			run.pr.parsable = 1
		case "P":
			run.pr.parsable = 2
		}
	}
	switch {
	case run.perNode && extra != "":
		format = sstatPids + "," + extra // sstat appends -o to -i's fields
	case run.perNode:
		format = sstatPids
	case extra != "":
		format = extra
	}
	if code := run.parseFormat(w, format); code != 0 {
		return w.exit(code)
	}
	if jobs == "" {
		w.errf("You didn't give me any jobs to stat.")
		return w.exit(1)
	}
	list, bad := parseSstatJobs(jobs)
	if bad != "" {
		w.raw("sstat: fatal: " + bad + "\n")
		return w.exit(1)
	}
	return run.stat(ctx, env, w, list)
}

// parseSstatJobs reads -j's list: JOB, JOB.STEP or JOB_TASK[.STEP]; the
// message is sstat's for an operand it cannot read.
func parseSstatJobs(s string) ([]sstatJob, string) {
	var out []sstatJob
	for _, tok := range strtok(s, ",") {
		id, step, hasStep := strings.Cut(tok, ".")
		id, _, _ = strings.Cut(id, "_")
		n, err := strconv.ParseUint(id, 10, 32)
		if err != nil {
			return nil, "Bad job/step specified: " + tok
		}
		if hasStep {
			if _, err := strconv.ParseUint(step, 10, 32); err != nil && step != "batch" && step != "extern" {
				return nil, "Bad step specified: " + id
			}
		}
		out = append(out, sstatJob{job: uint32(n), step: step})
	}
	return out, ""
}

// stat asks for each job's steps and prints them.
func (run *sstatRun) stat(ctx context.Context, env *Env, w *output, jobs []sstatJob) int {
	c, err := env.Dial(ctx)
	if err != nil {
		w.errf("%s", errText(err))
		return w.exit(1)
	}
	sc, ok := c.(StatController)
	if !ok {
		w.errf("%s", api.NewError(api.CodeNotSupported).Message)
		return w.exit(1)
	}
	if run.header {
		w.write(run.headerLine(nil))
	}
	for _, j := range jobs {
		resp, err := sc.StepStat(ctx, &api.StepStatRequest{JobID: j.job, Step: j.step, All: run.all})
		w.flush() // the lines so far come before any complaint, as sstat's
		switch {
		case err != nil:
			w.errf("couldn't get steps for job %d", j.job)
		case len(resp.Steps) == 0 && j.step != "":
			// A step asked for by name, of a job pending, running or
			// ended, as sstat words it.
			w.errf("StepId=%d.%s not found running.", j.job, j.step)
		case resp.NoSteps:
			w.errf("No steps running for job %d", j.job)
		}
		if err != nil {
			continue
		}
		for _, s := range resp.Steps {
			w.write(run.rows(nil, &s))
		}
	}
	return w.exit(0)
}

// joinNonEmpty joins two field lists with a comma, either of them empty.
func joinNonEmpty(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "," + b
}
