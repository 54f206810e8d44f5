package command

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/job"
)

// Default squeue formats (Slurm's, as -O specifications and -o formats).
const (
	squeueDefault  = "jobarrayid:.18 ,partition:.9 ,name:.8 ,username:.8 ,statecompact:.2 ,timeused:.10 ,numnodes:.6 ,reasonlist:0"
	squeueLong     = "jobarrayid:.18 ,partition:.9 ,name:.8 ,username:.8 ,state:.8 ,timeused:.10 ,timelimit:.9 ,numnodes:.6 ,reasonlist:0"
	squeueStart    = "%.18i %.9P %.8j %.8u %.2t %.19S %.6D %20Y %R"
	squeueSteps    = "%.15i %.8j %.9P %.8u %.9M %N"
	squeueSortDef  = "P,t,-p"
	versionLine    = "slurm 22.05.8 (Loam)"
	squeueHint     = "Try \"squeue --help\" for more information"
	squeueStateErr = "PENDING,RUNNING,SUSPENDED,COMPLETED,CANCELLED,FAILED,TIMEOUT,NODE_FAIL,PREEMPTED,BOOT_FAIL,DEADLINE,OUT_OF_MEMORY,COMPLETING,CONFIGURING,RESIZING,RESV_DEL_HOLD,REQUEUED,REQUEUE_FED,REQUEUE_HOLD,REVOKED,SIGNALING,SPECIAL_EXIT,STAGE_OUT,STOPPED"
)

// activeStates are what squeue shows without -t.
var activeStates = []string{"PENDING", "CONFIGURING", "RUNNING", "SUSPENDED", "COMPLETING", "STAGE_OUT", "RESV_DEL_HOLD",
	"SPECIAL_EXIT", "STOPPED"}

var squeueOpts = []optSpec{
	{long: "accounts", short: 'A', arg: requiredArg},
	{long: "all", short: 'a'},
	{long: "array", short: 'r'},
	{long: "array-unique"},
	{long: "Format", short: 'O', arg: requiredArg},
	{long: "format", short: 'o', arg: requiredArg},
	{long: "federation"},
	{long: "help"},
	{long: "hide"},
	{long: "iterate", short: 'i', arg: requiredArg},
	{long: "jobs", short: 'j', arg: optionalArg},
	{long: "local"},
	{long: "long", short: 'l'},
	{long: "licenses", short: 'L', arg: requiredArg},
	{long: "cluster", short: 'M', arg: requiredArg},
	{long: "clusters", short: 'M', arg: requiredArg},
	{long: "me"},
	{long: "name", short: 'n', arg: requiredArg},
	{long: "noconvert"},
	{long: "node", short: 'w', arg: requiredArg},
	{long: "nodes", short: 'w', arg: requiredArg},
	{long: "nodelist", short: 'w', arg: requiredArg},
	{long: "noheader", short: 'h'},
	{long: "partitions", short: 'p', arg: requiredArg},
	{long: "priority", short: 'P'},
	{long: "qos", short: 'q', arg: requiredArg},
	{long: "reservation", short: 'R', arg: requiredArg},
	{long: "sib", id: "sibling"},
	{long: "sibling", id: "sibling"},
	{long: "sort", short: 'S', arg: requiredArg},
	{long: "start"},
	{long: "steps", short: 's', arg: optionalArg},
	{long: "states", short: 't', arg: requiredArg},
	{long: "usage"},
	{long: "user", short: 'u', arg: requiredArg},
	{long: "users", short: 'u', arg: requiredArg},
	{short: 'U', arg: requiredArg, id: "A"},
	{long: "verbose", short: 'v'},
	{long: "version", short: 'V'},
	{long: "json"},
	{long: "yaml"},
}

// squeueParams is a parsed squeue command line with its environment.
type squeueParams struct {
	format, formatLong string
	long, start        bool
	noHeader, array    bool
	arrayUnique        bool
	priority           bool
	steps              bool
	stepList           string
	json, yaml         bool // --json or --yaml: the last one given wins
	iterate            int
	verbose            int
	all                bool // -a: jobs of hidden partitions too
	sort               string
	noconvert          bool
	jobs               []api.JobRef
	jobsGiven          bool
	users              []string // uids, as strings
	usersGiven         bool
	accounts, names    []string
	partitions, qos    []string
	licenses           []string
	states             []string // with statesGiven; else the active states
	statesGiven        bool
	allStates          bool
	nodes              []string
	reservation        string
	// formatSet and formatLongSet: -o or -O (or SQUEUE_FORMAT[2]) was
	// given, even empty, which prints an empty line per job as in Slurm.
	formatSet, formatLongSet bool
	// me: --me, which also says on standard error where each of the
	// caller's pending jobs stands (squeue_me.go).
	me bool
}

// Squeue runs squeue with args (without the program name) and returns its
// exit status.
func Squeue(ctx context.Context, env *Env, args []string) int {
	w := newOutput(env, "squeue")
	p, code, done := parseSqueue(env, w, args)
	if done {
		return w.exit(code)
	}
	if p.json || p.yaml {
		return w.exit(squeueData(ctx, env, w, p.yaml))
	}
	c, err := env.Dial(ctx)
	if err != nil {
		w.errf("slurm_load_jobs error: %s", errText(err))
		return w.exit(1)
	}
	if p.nodes != nil && !knownNodes(ctx, w, c, p.nodes) {
		return w.exit(1)
	}
	for {
		now := env.Now()
		if !p.noHeader && (p.iterate > 0 || p.verbose > 0 || p.long) {
			w.printf("%s\n", ctime(now))
		}
		code := squeueOnce(ctx, env, w, c, p, now)
		if p.iterate <= 0 {
			return w.exit(code)
		}
		w.printf("\n")
		w.flush()
		if err := env.Sleep(ctx, time.Duration(p.iterate)*time.Second); err != nil {
			return w.exit(code)
		}
	}
}

// knownNodes checks -w as Slurm's squeue does before printing anything:
// a name no node has is "Invalid node name X".
func knownNodes(ctx context.Context, w *output, c Controller, names []string) bool {
	resp, err := c.Nodes(ctx, &api.NodeQuery{Nodes: []string{hostlist.Compress(names)}})
	if err != nil {
		w.errf("slurm_load_node error: %s", errText(err))
		return false
	}
	if len(resp.Missing) > 0 {
		w.errf("Invalid node name %s", resp.Missing[0])
		return false
	}
	return true
}

// parseSqueue reads options and SQUEUE_* variables. done means the
// command ends here with code (errors, --help, --version).
func parseSqueue(env *Env, w *output, args []string) (p *squeueParams, code int, done bool) {
	if clustersFromEnv(env, w) {
		return nil, 1, true
	}
	opts, operands, err := getopt(env.prog("squeue"), args, squeueOpts)
	if err != nil {
		w.lines(err.(*usageError).lines)
		return nil, 1, true
	}
	p = &squeueParams{}
	squeueEnvFlags(env, p)
	override := false
	for _, o := range opts {
		stop, err := p.apply(env, w, o, &override)
		if err != nil {
			if err != errSilent {
				w.errf("%s", err.Error())
			}
			return nil, 1, true
		}
		if stop {
			return nil, 0, true
		}
	}
	if p.long && p.formatSet {
		w.raw("squeue: fatal: Options -o(--format) and -l(--long) are mutually exclusive. Please remove one and retry.\n")
		return nil, 1, true
	}
	if _, ok := env.Getenv("SQUEUE_ALL"); ok {
		p.all = true
	}
	if !override {
		if f, ok := env.Getenv("SQUEUE_FORMAT"); ok {
			p.format, p.formatSet = f, true
		} else if f, ok := env.Getenv("SQUEUE_FORMAT2"); ok {
			p.formatLong, p.formatLongSet = f, true
		}
	}
	if err := p.operands(w, operands); err != nil {
		return nil, 1, true
	}
	if p.steps && p.stepList != "" {
		if err := checkStepList(p.stepList); err != nil {
			w.errf("%s", err.Error())
			return nil, 1, true
		}
	}
	if err := squeueEnvLists(env, w, p); err != nil {
		w.errf("%s", err.Error())
		return nil, 1, true
	}
	if p.start && !p.steps {
		// Slurm's squeue sets this short format unless -o gave one, and
		// a short format wins over -O: --start ignores -O.
		if !p.formatSet {
			p.format, p.formatSet = squeueStart, true
		}
		if p.sort == "" {
			p.sort = "S"
		}
		if !p.statesGiven {
			p.states, p.statesGiven = []string{"PENDING"}, true
		}
	}
	return p, 0, false
}

// apply handles one option.
func (p *squeueParams) apply(env *Env, w *output, o option, override *bool) (stop bool, err error) {
	switch o.id {
	case "A":
		p.accounts = strtok(o.val, ",")
	case "a":
		p.all = true
	case "noconvert":
		p.noconvert = true
	case "federation", "local", "sibling":
	case "r":
		p.array = true
	case "array-unique":
		p.arrayUnique = true
	case "O":
		if p.formatSet {
			return false, errors.New("-O (--Format) is incompatible with -o (--format)")
		}
		p.formatLong, p.formatLongSet, *override = o.val, true, true
	case "o":
		if p.formatLongSet {
			return false, errors.New("-o (--format) is incompatible with -O (--Format)")
		}
		p.format, p.formatSet, *override = o.val, true, true
	case "help":
		w.printf("%s", squeueHelp)
		return true, nil
	case "usage":
		w.printf("%s", squeueUsage)
		return true, nil
	case "V":
		w.printf("%s\n", versionLine)
		return true, nil
	case "hide":
	case "i":
		n, _ := strtol(o.val) // C's atoi: "5s" is 5
		if n <= 0 {
			w.raw("squeue: error: --iterate=" + o.val + "\n\n")
			return false, errSilent
		}
		p.iterate = n
	case "j":
		p.jobsGiven = true
		if o.has {
			return false, p.setJobs(o.val)
		}
	case "l":
		p.long, *override = true, true
	case "L":
		p.licenses = strtok(o.val, ",")
	case "M":
		refuseClusters(w, o.val, false)
		return false, errSilent
	case "me":
		p.users, p.usersGiven, p.me = []string{strconv.FormatUint(uint64(env.UID), 10)}, true, true
	case "n":
		p.names = strtok(o.val, ",")
	case "w":
		names, err := hostlist.Expand(o.val)
		if err != nil {
			return false, errors.New("'" + o.val + "' invalid entry for --nodelist")
		}
		p.nodes = names
	case "h":
		p.noHeader = true
	case "p":
		p.partitions = strtok(o.val, ",")
	case "P":
		p.priority = true
	case "q":
		p.qos = strtok(o.val, ",")
	case "R":
		p.reservation = o.val
	case "S":
		p.sort = o.val
	case "start":
		p.start, *override = true, true
	case "s":
		p.steps, *override = true, true
		if o.has {
			p.stepList = o.val
		}
	case "t":
		return false, p.setStates(o.val)
	case "u":
		p.setUsers(env, w, o.val)
	case "v":
		p.verbose++
	case "json", "yaml":
		p.json, p.yaml = o.id == "json", o.id == "yaml"
	}
	return false, nil
}

// errSilent ends a command whose message is already printed.
var errSilent = errors.New("")

// setJobs reads a -j list as Slurm does, with strtol: "12x" is job 12,
// "12_3" task 3 of array 12, and anything not starting with a positive
// number is an error.
func (p *squeueParams) setJobs(list string) error {
	p.jobs = p.jobs[:0]
	for _, s := range strtok(list, ",") {
		id, rest := cInt(s)
		if id <= 0 {
			return errors.New("Invalid job id: " + s)
		}
		ref := api.JobRef{JobID: uint32(id)}
		if strings.HasPrefix(rest, "_") {
			task, _ := strtol(rest[1:])
			ref.Tasks = []int{task}
		}
		p.jobs = append(p.jobs, ref)
	}
	return nil
}

func (p *squeueParams) setStates(list string) error {
	p.statesGiven = true
	if strings.EqualFold(list, "all") {
		p.allStates, p.states = true, nil
		return nil
	}
	p.allStates, p.states = false, nil
	for _, s := range strtok(list, ",") {
		st, err := job.ParseState(s)
		if err != nil {
			return errors.New("Invalid job state specified: " + s + "\nsqueue: error: Valid job states include: " + squeueStateErr + "\n")
		}
		p.states = append(p.states, string(st))
	}
	return nil
}

// setUsers resolves -u names to uids; unknown users are reported and
// dropped, as Slurm does (an empty list then matches nothing).
func (p *squeueParams) setUsers(env *Env, w *output, list string) {
	p.users, p.usersGiven = []string{}, true
	for _, u := range strtok(list, ",") {
		uid, ok := env.Users.UID(u)
		if !ok {
			w.raw("squeue: error: Invalid user: " + u + "\n\n")
			continue
		}
		p.users = append(p.users, strconv.FormatUint(uint64(uid), 10))
	}
}

// operands takes a job list after -j (or a step list after -s), as
// "squeue -j 12" allows.
func (p *squeueParams) operands(w *output, ops []string) error {
	if len(ops) == 0 {
		return nil
	}
	switch {
	case p.jobsGiven:
		if err := p.setJobs(ops[0]); err != nil {
			w.errf("%s", err.Error())
			return err
		}
		ops = ops[1:]
	case p.steps:
		p.stepList, ops = ops[0], ops[1:]
	}
	if len(ops) > 0 {
		w.errf("Unrecognized option: %s", ops[0])
		w.printf("%s", squeueUsage)
		return errSilent
	}
	return nil
}
