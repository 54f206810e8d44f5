package command

import (
	"context"
	"os"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

var striggerOpts = []optSpec{
	{long: "primary_slurmctld_failure", short: 'a'},
	{long: "primary_slurmctld_resumed_operation", short: 'A'},
	{long: "primary_slurmctld_resumed_control", short: 'b'},
	{long: "backup_slurmctld_failure", short: 'B'},
	{long: "backup_slurmctld_resumed_operation", short: 'c'},
	{long: "backup_slurmctld_assumed_control", short: 'C'},
	{long: "down", short: 'd'},
	{long: "drained", short: 'D'},
	{long: "primary_slurmctld_acct_buffer_full", short: 'e'},
	{long: "fini", short: 'f'},
	{long: "fail", short: 'F'},
	{long: "primary_slurmdbd_failure", short: 'g'},
	{long: "primary_slurmdbd_resumed_operation", short: 'G'},
	{long: "primary_database_failure", short: 'h'},
	{long: "primary_database_resumed_operation", short: 'H'},
	{long: "id", short: 'i', arg: requiredArg},
	{long: "idle", short: 'I'},
	{long: "jobid", short: 'j', arg: requiredArg},
	{long: "cluster", short: 'M', arg: requiredArg},
	{long: "clusters", short: 'M', arg: requiredArg},
	{long: "node", short: 'n', arg: optionalArg},
	{long: "noheader", short: 'N'},
	{long: "offset", short: 'o', arg: requiredArg},
	{long: "program", short: 'p', arg: requiredArg},
	{long: "quiet", short: 'Q'},
	{long: "reconfig", short: 'r'},
	{long: "time", short: 't'},
	{long: "up", short: 'u'},
	{long: "verbose", short: 'v'},
	{long: "version", short: 'V'},
	{long: "burst_buffer"},
	{long: "clear"},
	{long: "flags", arg: requiredArg},
	{long: "front_end"},
	{long: "get"},
	{long: "help"},
	{long: "set"},
	{long: "usage"},
	{long: "user", arg: requiredArg},
}

// striggerEvents maps the event options to their trigger bits.
var striggerEvents = map[string]uint32{
	"a": api.TrigPriCtldFail, "A": api.TrigPriCtldResOp, "b": api.TrigPriCtldResCtrl,
	"B": api.TrigBuCtldFail, "c": api.TrigBuCtldResOp, "C": api.TrigBuCtldAsCtrl,
	"d": api.TrigDown, "D": api.TrigDrained, "e": api.TrigPriCtldAcctFull, "f": api.TrigFini,
	"F": api.TrigFail, "g": api.TrigPriDbdFail, "G": api.TrigPriDbdResOp, "h": api.TrigPriDBFail,
	"H": api.TrigPriDBResOp, "I": api.TrigIdle, "r": api.TrigReconfig, "t": api.TrigTime,
	"u": api.TrigUp, "burst_buffer": api.TrigBurstBuffer,
}

// striggerParams is strigger's command line.
type striggerParams struct {
	set, get, clear bool
	events          uint32 // TrigXxx bits asked for
	frontEnd        bool
	id              uint32
	jobID           uint32
	node            string // "" unset, "*" every node
	noHeader        bool
	offset          int
	program         string
	quiet           bool
	verbose         int
	perm            bool
	uid             *uint32
}

// TriggerController is the part of the controller's API behind strigger.
// The real client implements it.
type TriggerController interface {
	SetTrigger(ctx context.Context, t api.Trigger) (*api.TriggerSetResponse, error)
	Triggers(ctx context.Context) (*api.TriggersResponse, error)
	ClearTriggers(ctx context.Context, r *api.TriggerClearRequest) (*api.TriggerClearResponse, error)
}

// Strigger runs strigger: --set, --get or --clear an event trigger.
func Strigger(ctx context.Context, env *Env, args []string) int {
	w := newOutput(env, "strigger")
	p, code, done := parseStrigger(env, w, args)
	if done {
		return w.exit(code)
	}
	if msg := p.validate(); msg != "" {
		w.errf("%s", msg)
		return w.exit(1)
	}
	c, err := env.Dial(ctx)
	var tc TriggerController
	if err == nil {
		var ok bool
		if tc, ok = c.(TriggerController); !ok {
			err = api.NewError(api.CodeNotSupported)
		}
	}
	switch {
	case p.set:
		return w.exit(striggerSet(ctx, w, tc, err, p))
	case p.get:
		return w.exit(striggerGet(ctx, env, w, tc, err, p))
	}
	return w.exit(striggerClear(ctx, w, tc, err, p))
}

// parseStrigger reads the options in order, as Slurm's: --help,
// --usage and -V answer at once, and a bad value stops there.
func parseStrigger(env *Env, w *output, args []string) (p striggerParams, code int, done bool) {
	opts, _, err := getopt(env.prog("strigger"), args, striggerOpts)
	if err != nil {
		w.lines(err.(*usageError).lines)
		return p, 1, true
	}
	for _, o := range opts {
		if bit, ok := striggerEvents[o.id]; ok {
			p.events |= bit
			continue
		}
		if msg, code, stop := p.option(env, w, o); stop {
			if msg != "" {
				w.errf("%s", msg)
			}
			return p, code, true
		}
	}
	return p, 0, false
}

// option applies one option that is not an event; stop ends the command
// with code (after msg, an error, when there is one).
func (p *striggerParams) option(env *Env, w *output, o option) (msg string, code int, stop bool) {
	switch o.id {
	case "set":
		p.set = true
	case "get":
		p.get = true
	case "clear":
		p.clear = true
	case "front_end":
		p.frontEnd = true
	case "i":
		p.id = uint32(cAtoi(o.val))
	case "j":
		n := cAtoi(o.val)
		if n <= 0 {
			return "Invalid jobid " + o.val, 1, true
		}
		p.jobID = uint32(n)
	case "n":
		p.node = "*"
		if o.has && o.val != "" {
			p.node = o.val
		}
	case "N":
		p.noHeader = true
	case "o":
		p.offset = cAtoi(o.val)
	case "p":
		p.program = o.val
	case "Q":
		p.quiet = true
	case "v":
		p.verbose++
	case "flags":
		if !strings.HasPrefix(strings.ToLower(o.val), "perm") {
			return "Invalid flags " + o.val, 1, true
		}
		p.perm = true
	case "user":
		uid, ok := env.Users.UID(o.val)
		if !ok {
			return "Invalid user " + o.val, 1, true
		}
		p.uid = &uid
	case "V":
		w.printf("%s\n", versionLine)
		return "", 0, true
	case "help":
		w.printf("%s", striggerHelp)
		return "", 0, true
	case "usage":
		w.printf("%s", striggerUsage)
		return "", 0, true
	}
	return "", 0, false
}

// validate checks the command line as Slurm's strigger, in its order,
// and returns the first error.
func (p *striggerParams) validate() string {
	modes := 0
	for _, m := range []bool{p.set, p.get, p.clear} {
		if m {
			modes++
		}
	}
	switch {
	case modes != 1:
		return "You must use exactly one of the following options: --set, --get or --clear"
	case p.clear && p.uid == nil && p.id == 0 && p.jobID == 0:
		return "You must specify a --id, --jobid, or --user to clear"
	case p.set && p.events == 0:
		return striggerNoEvent
	case p.set && p.program == "":
		return "You must specify a --program value"
	case p.events&(api.TrigFini|api.TrigTime) != 0 && p.jobID == 0:
		return "You must specify a --jobid value"
	case p.program != "" && p.program[0] != '/':
		return `The --program value must start with "/"`
	}
	if p.program != "" {
		path, _, _ := strings.Cut(p.program, " ")
		fi, err := os.Stat(path)
		if err != nil {
			return "Invalid --program value, file not found"
		}
		if !fi.Mode().IsRegular() {
			return "Invalid --program value, not regular file"
		}
	}
	if p.offset < -32000 || p.offset > 32000 {
		return "The --offset parameter must be between +/-32000"
	}
	return ""
}

// striggerNoEvent is Slurm 22.05's message for --set without an event.
const striggerNoEvent = `You must specify a trigger (--down, --up, --reconfig, --time, --fini, --burst_buffer,
--primary_slurmctld_failure,
--primary_slurmctld_resumed_operation,
--primary_slurmctld_resumed_control,
--primary_slurmctld_acct_buffer_full,
--backup_slurmctld_failure,
--backup_slurmctld_resumed_operation,
--backup_slurmctld_as_ctrl,
--primary_slurmdbd_failure,
--primary_slurmdbd_resumed_operation,
--primary_database_failure, or 
--primary_database_resumed_operation)
`
