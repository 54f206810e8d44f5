package command

import (
	"bufio"
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

var scancelOpts = []optSpec{
	{long: "account", short: 'A', arg: requiredArg},
	{long: "batch", short: 'b'},
	{long: "ctld"},
	{long: "full", short: 'f'},
	{long: "help"},
	{long: "hurry", short: 'H'},
	{long: "interactive", short: 'i'},
	{long: "cluster", short: 'M', arg: requiredArg},
	{long: "clusters", short: 'M', arg: requiredArg},
	{long: "jobname", short: 'n', arg: requiredArg},
	{long: "me"},
	{long: "name", short: 'n', arg: requiredArg},
	{long: "nodelist", short: 'w', arg: requiredArg},
	{long: "partition", short: 'p', arg: requiredArg},
	{long: "qos", short: 'q', arg: requiredArg},
	{long: "quiet", short: 'Q'},
	{long: "reservation", short: 'R', arg: requiredArg},
	{long: "sibling", arg: requiredArg},
	{long: "signal", short: 's', arg: requiredArg},
	{long: "state", short: 't', arg: requiredArg},
	{long: "usage"},
	{long: "user", short: 'u', arg: requiredArg},
	{long: "verbose", short: 'v'},
	{long: "version", short: 'V'},
	{long: "wckey", arg: requiredArg},
}

// scancelParams is a parsed scancel command line.
type scancelParams struct {
	req         api.CancelRequest
	steps       []string // "12.3": Loam has no steps but the batch one
	interactive bool
	verbose     int // -1 with -Q
	filtered    bool
	filterDesc  string
	// signalled: -s or -b was given. Slurm then reports a job that does
	// not exist or has ended (as "Invalid job id specified") without -v.
	signalled bool
}

// Scancel runs scancel with args and returns its exit status. As in
// Slurm, cancelling a job that does not exist or has ended is silent and
// succeeds (-v reports it); jobs selected by -u, -p, -n ... are cancelled
// by one request to the controller.
func Scancel(ctx context.Context, env *Env, args []string) int {
	w := newOutput(env, "scancel")
	p, code, done := parseScancel(env, w, args)
	if done {
		return w.exit(code)
	}
	c, err := env.Dial(ctx)
	if err != nil {
		w.errf("%s", errText(err))
		return w.exit(1)
	}
	if p.interactive {
		if ok := p.confirm(ctx, env, w, c); !ok {
			return w.exit(0)
		}
	}
	return w.exit(p.cancel(ctx, w, c))
}

func parseScancel(env *Env, w *output, args []string) (*scancelParams, int, bool) {
	opts, operands, err := getopt("scancel", args, scancelOpts)
	if err != nil {
		w.lines(err.(*usageError).lines)
		return nil, 1, true
	}
	p := &scancelParams{}
	f := &p.req.Filter
	var desc []string
	for _, o := range opts {
		switch o.id {
		case "A":
			f.Accounts = strtok(strings.ToLower(o.val), ",")
			desc = append(desc, "account="+o.val)
		case "b":
			p.signalled = true
			p.req.BatchOnly = true
		case "f":
			p.req.Full = true
		case "i":
			p.interactive = true
		case "n":
			f.Names = strtok(o.val, ",")
			desc = append(desc, "job_name="+o.val)
		case "w":
			f.Nodes = []string{o.val}
			desc = append(desc, "nodelist="+o.val)
		case "p":
			f.Partitions = strtok(o.val, ",")
			desc = append(desc, "partition="+o.val)
		case "q":
			f.QOS = strtok(strings.ToLower(o.val), ",")
			desc = append(desc, "qos="+o.val)
		case "Q":
			p.verbose = -1
		case "R":
			f.Reservations = []string{o.val}
			desc = append(desc, "reservation="+o.val)
		case "wckey", "sibling":
			name := map[string]string{"wckey": "wckey", "sibling": "sibling"}[o.id]
			w.errf("--%s is not supported by Loam", name)
			return nil, 1, true
		case "s":
			p.signalled = true
			sig, err := job.ParseSignal(o.val)
			if err != nil || strings.ContainsAny(o.val, "@:") {
				w.raw("Unknown job signal: " + o.val + "\n")
				return nil, 1, true
			}
			p.req.Signal = sig.Number
		case "t":
			st, ok := scancelState(o.val)
			if !ok {
				w.raw("Invalid job state specified: " + o.val + "\nValid job states are PENDING, RUNNING, and SUSPENDED\n")
				return nil, 1, true
			}
			f.States = []string{st}
			desc = append(desc, "state="+st)
		case "u", "me":
			name := o.val
			if o.id == "me" {
				name = strconv.FormatUint(uint64(env.UID), 10)
			}
			uid, ok := env.Users.UID(name)
			if !ok {
				w.errf("Invalid user name: %s", name)
				return nil, 1, true
			}
			f.Users = []string{strconv.FormatUint(uint64(uid), 10)}
			desc = append(desc, "user_name="+name)
		case "v":
			if p.verbose >= 0 {
				p.verbose++
			}
		case "V":
			w.printf("%s\n", versionLine)
			return nil, 0, true
		case "help":
			w.printf("%s", scancelHelp)
			return nil, 0, true
		case "usage":
			w.printf("%s", scancelUsage)
			return nil, 0, true
		}
	}
	for _, s := range operands {
		if err := p.addID(s); err != nil {
			w.errf("%s", err.Error())
			return nil, 1, true
		}
	}
	p.filtered = len(desc) > 0
	slices.Sort(desc) // Slurm lists the filters by name, not as given
	p.filterDesc = strings.Join(desc, " ") + " "
	if f.Empty() && len(p.steps) == 0 {
		w.errf("No job identification provided")
		return nil, 1, true
	}
	return p, 0, false
}

// scancelState accepts the states scancel -t takes: like Slurm's, every
// job state, though only pending, running and suspended jobs can match, as
// scancel acts on active jobs only.
func scancelState(s string) (string, bool) {
	st, err := job.ParseState(s)
	if err != nil {
		return "", false
	}
	return string(st), true
}

// addID reads one job argument: "12", "12_3", "12_[1-3]", "12_*", or a
// step "12.3".
func (p *scancelParams) addID(s string) error {
	if id, stepID, ok := strings.Cut(s, "."); ok {
		if _, err := api.ParseJobRef(id); err != nil || stepID == "" {
			return errors.New("Invalid job id " + s)
		}
		if stepID == "batch" {
			p.req.BatchOnly = true
			p.req.Filter.JobIDs = append(p.req.Filter.JobIDs, id)
			return nil
		}
		if _, err := strconv.ParseUint(stepID, 10, 32); err != nil {
			return errors.New("Invalid job id " + s)
		}
		p.steps = append(p.steps, s)
		return nil
	}
	if _, err := api.ParseJobRef(s); err != nil {
		return errors.New("Invalid job id " + s)
	}
	p.req.Filter.JobIDs = append(p.req.Filter.JobIDs, s)
	return nil
}

// cancel sends the request and reports as scancel does.
func (p *scancelParams) cancel(ctx context.Context, w *output, c Controller) int {
	code := 0
	for _, s := range p.steps {
		// Loam runs no job steps but the batch one.
		w.errf("Kill job error on job step id %s: %s", s, api.CodeInvalidJobID.Text())
		code = 1
	}
	if p.req.Filter.Empty() {
		return code
	}
	if p.verbose > 0 && !p.filtered {
		for _, id := range p.req.Filter.JobIDs {
			w.raw(p.verb(id))
		}
	}
	res, err := c.Cancel(ctx, &p.req)
	if err != nil {
		w.errf("Kill job error: %s", errText(err))
		return 1
	}
	return max(code, p.report(w, res))
}

func (p *scancelParams) verb(id string) string {
	if p.req.Signal != 0 {
		return "scancel: Signal " + strconv.Itoa(p.req.Signal) + " to job " + id + "\n"
	}
	return "scancel: Terminating job " + id + "\n"
}

// report prints per-job failures: jobs that are gone or unknown are
// reported only with -v; other failures always, and they fail the
// command.
func (p *scancelParams) report(w *output, res *api.JobResults) int {
	code := 0
	for _, r := range res.Results {
		if p.verbose > 0 && p.filtered {
			w.raw(p.verb(r.JobID))
		}
		if r.Error == nil || p.verbose < 0 {
			continue
		}
		gone := r.Error.Code == api.CodeInvalidJobID || r.Error.Code == api.CodeAlreadyDone
		msg := r.Error.Message
		if gone && p.signalled {
			msg = api.CodeInvalidJobID.Text()
		}
		if p.verbose > 0 || !gone || p.signalled {
			w.errf("Kill job error on job id %s: %s", r.JobID, msg)
		}
		if !gone || p.req.Signal != 0 || p.signalled {
			code = 1
		}
	}
	if p.filtered && len(p.req.Filter.JobIDs) == 0 && len(res.Results) == 0 && p.verbose > 0 {
		w.errf("No active jobs match ALL job filters, including: %s", p.filterDesc)
	}
	return code
}

// confirm asks, for each selected job, "Cancel job_id=... [y/n]? " and
// keeps only the jobs the user answers y for.
func (p *scancelParams) confirm(ctx context.Context, env *Env, w *output, c Controller) bool {
	f := p.req.Filter
	q := &api.JobQuery{JobIDs: f.JobIDs, Users: f.Users, Accounts: f.Accounts, Partitions: f.Partitions,
		States: f.States, Names: f.Names, QOS: f.QOS, Nodes: f.Nodes}
	if len(q.States) == 0 {
		q.States = []string{string(job.Pending), string(job.Running), string(job.Suspended)}
	}
	resp, err := c.Jobs(ctx, q)
	if err != nil {
		w.errf("slurm_load_jobs error: %s", errText(err))
		return false
	}
	in := bufio.NewReader(env.Stdin)
	var keep []string
	for i := range resp.Jobs {
		j := &resp.Jobs[i]
		id := string(jobIDCol(nil, j, nil))
		w.printf("Cancel job_id=%s name=%s partition=%s [y/n]? ", id, j.Name, j.Partition)
		w.flush()
		ans, _ := in.ReadString('\n')
		if strings.HasPrefix(strings.ToLower(strings.TrimSpace(ans)), "y") {
			keep = append(keep, id)
		}
	}
	p.req.Filter = api.JobFilter{JobIDs: keep}
	p.filtered = false
	return len(keep) > 0
}
