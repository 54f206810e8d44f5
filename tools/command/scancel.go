package command

import (
	"bufio"
	"context"
	"strconv"
	"strings"

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
	ids   []scancelID
	texts []string // the job arguments, comma lists split
	// signal is the --signal number; 0 without one (the jobs are then
	// cancelled, as by SIGKILL).
	signal      int
	batch       bool
	full        bool
	interactive bool
	ctld        bool // --ctld: step signals go through the controller
	verbose     int  // -1 with -Q
	filters     scancelFilters
	// sibling is --sibling's cluster: Loam has no federation, so no job
	// is a sibling of another (scancel_run.go notFederated).
	sibling string
}

// scancelFilters are the options that select jobs by attribute. A nil
// field was not given; Slurm compares each given one exactly.
type scancelFilters struct {
	account, name, nodelist, partition, qos, reservation, wckey *string
	state                                                       job.State
	user                                                        *string // as given; uid is what it names
	uid                                                         uint32
}

// Scancel runs scancel with args and returns its exit status. As in
// Slurm, plain job ids are sent as given and a job that does not exist or
// has ended is silent (-v reports it); any filter, -b, -i, -s or a step
// makes scancel look the jobs up first and act on each match.
func Scancel(ctx context.Context, env *Env, args []string) int {
	w := newOutput(env, "scancel")
	if clustersFromEnv(env, w) { // SLURM_CLUSTERS, as -M (clusters.go)
		return w.exit(1)
	}
	p, code, done := parseScancel(env, w, args)
	if done {
		return w.exit(code)
	}
	c, err := env.Dial(ctx)
	if err != nil {
		w.errf("%s", errText(err))
		return w.exit(1)
	}
	r := &scancelRun{p: p, w: w, c: c, in: bufio.NewReader(env.Stdin)}
	if p.byString() {
		return w.exit(r.byString(ctx))
	}
	return w.exit(r.byRecord(ctx))
}

func parseScancel(env *Env, w *output, args []string) (*scancelParams, int, bool) {
	opts, operands, err := getopt(env.prog("scancel"), args, scancelOpts)
	if err != nil {
		w.lines(err.(*usageError).lines)
		return nil, 1, true
	}
	p := &scancelParams{}
	if p.applyEnv(env, w) {
		return nil, 1, true
	}
	for _, o := range opts {
		code, done := p.apply(env, w, o)
		if done {
			return nil, code, true
		}
	}
	if len(operands) > 0 {
		p.ids, p.texts, err = parseScancelIDs(operands)
		if err != nil {
			w.errf("%s", err.Error())
			return nil, 1, true
		}
	}
	if p.filters.user != nil {
		uid, ok := env.Users.UID(*p.filters.user)
		if !ok {
			w.errf("Invalid user name: %s", *p.filters.user)
			return nil, 1, true
		}
		p.filters.uid = uid
	}
	if len(p.ids) == 0 && !p.filters.any() {
		w.errf("No job identification provided")
		return nil, 1, true
	}
	return p, 0, false
}

// apply takes one option; done says scancel ends here with code.
func (p *scancelParams) apply(env *Env, w *output, o option) (code int, done bool) {
	f := &p.filters
	v := o.val
	switch o.id {
	case "A":
		v = strings.ToLower(v)
		f.account = &v
	case "b":
		p.batch = true
	case "f":
		p.full = true
	case "i":
		p.interactive = true
	case "ctld":
		p.ctld = true
	case "n":
		f.name = &v
	case "w":
		f.nodelist = &v
	case "p":
		f.partition = &v
	case "q":
		v = strings.ToLower(v)
		f.qos = &v
	case "Q":
		p.verbose = -1
	case "R":
		f.reservation = &v
	case "wckey":
		f.wckey = &v
	case "s":
		n, ok := scancelSignal(v)
		if !ok {
			w.raw("Unknown job signal: " + v + "\n")
			return 1, true
		}
		p.signal = n
	case "t":
		st, err := job.ParseState(v)
		if err != nil {
			w.raw("Invalid job state specified: " + v + "\nValid job states are PENDING, RUNNING, and SUSPENDED\n")
			return 1, true
		}
		f.state = st
	case "u":
		f.user = &v
	case "me":
		v = strconv.FormatUint(uint64(env.UID), 10)
		f.user = &v
	case "v":
		p.verbose++
	case "V":
		w.printf("%s\n", versionLine)
		return 0, true
	case "M":
		refuseClusters(w, v, false) // clusters.go: what the peer's scancel prints
		return 1, true
	case "sibling":
		p.sibling = v
	case "help":
		w.printf("%s", scancelHelp)
		return 0, true
	case "usage":
		w.printf("%s", scancelUsage)
		return 0, true
	}
	// --hurry changes nothing here: Loam has no burst buffers.
	return 0, false
}

// scancelSignal reads --signal as Slurm's sig_name2num into 16 bits: a
// number or one of its signal names. 0 is unknown; 65534 (Slurm's "no
// value") is no signal at all, so the job is cancelled.
func scancelSignal(s string) (int, bool) {
	sig, err := job.ParseSignal(s)
	if err != nil || sig.Batch || sig.Reservation || strings.ContainsAny(s, "@:") {
		return 0, false
	}
	if sig.Number == 0xfffe {
		return 0, true
	}
	return sig.Number, true
}

// any reports whether a filter option was given.
func (f *scancelFilters) any() bool {
	return f.account != nil || f.name != nil || f.nodelist != nil || f.partition != nil || f.qos != nil ||
		f.reservation != nil || f.wckey != nil || f.state != "" || f.user != nil
}

// byString reports whether scancel sends the job arguments as they are:
// Slurm does so unless a filter, -b, -i, -s or a step is given.
func (p *scancelParams) byString() bool {
	if p.filters.any() || p.batch || p.interactive || p.signal != 0 {
		return false
	}
	for _, id := range p.ids {
		if id.step != batchStep {
			return false
		}
	}
	return true
}
