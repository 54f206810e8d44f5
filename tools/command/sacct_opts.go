package command

import (
	"slices"
	"strconv"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

var sacctOpts = []optSpec{
	// In Slurm 22.05's order, which getopt lists an ambiguous prefix's
	// possibilities in.
	{long: "allusers", short: 'a'},
	{long: "accounts", short: 'A', arg: requiredArg},
	{long: "allocations", short: 'X'},
	{long: "allclusters", short: 'L'},
	{long: "associations", short: 'x', arg: requiredArg},
	{long: "brief", short: 'b'},
	{long: "batch-script", short: 'B'},
	{long: "completion", short: 'c'},
	{long: "constraints", short: 'C', arg: requiredArg},
	{long: "cluster", short: 'M', arg: requiredArg},
	{long: "clusters", short: 'M', arg: requiredArg},
	{long: "delimiter", arg: requiredArg},
	{long: "duplicates", short: 'D'},
	{long: "endtime", short: 'E', arg: requiredArg},
	{long: "env-vars"},
	{long: "federation"},
	{long: "file", short: 'f', arg: requiredArg},
	{long: "flags", short: 'F', arg: requiredArg},
	{long: "fields", short: 'o', arg: requiredArg},
	{long: "format", short: 'o', arg: requiredArg},
	{long: "gid", short: 'g', arg: requiredArg},
	{long: "group", short: 'g', arg: requiredArg},
	{long: "helpformat", short: 'e'},
	{long: "help-fields", short: 'e'},
	{long: "help", short: 'h'},
	{long: "jobs", short: 'j', arg: requiredArg},
	{long: "json"},
	{long: "local"},
	{long: "long", short: 'l'},
	{long: "name", arg: requiredArg},
	{long: "nnodes", short: 'i', arg: requiredArg},
	{long: "ncpus", short: 'I', arg: requiredArg},
	{long: "nodelist", short: 'N', arg: requiredArg},
	{long: "noconvert"},
	{long: "noheader", short: 'n'},
	{long: "parsable", short: 'p'},
	{long: "parsable2", short: 'P'},
	{long: "partition", short: 'r', arg: requiredArg},
	{long: "qos", short: 'q', arg: requiredArg},
	{long: "reason", arg: requiredArg},
	{long: "state", short: 's', arg: requiredArg},
	{long: "starttime", short: 'S', arg: requiredArg},
	{long: "timelimit-min", short: 'k', arg: requiredArg},
	{long: "timelimit-max", short: 'K', arg: requiredArg},
	{long: "truncate", short: 'T'},
	{long: "units", arg: requiredArg},
	{long: "uid", short: 'u', arg: requiredArg},
	{long: "use-local-uid"},
	{long: "usage", short: 'U'},
	{long: "user", short: 'u', arg: requiredArg},
	{long: "verbose", short: 'v'},
	{long: "version", short: 'V'},
	{long: "wckeys", short: 'W', arg: requiredArg},
	{long: "whole-hetjob", arg: optionalArg},
	{long: "yaml"},
	{short: 't'}, // the old spelling of -X
}

// sacctUnsupported are sacct options Loam knows but cannot answer: its
// accounting keeps no job scripts, environments, reasons, WCKeys or
// associations, and no node or CPU counts to filter on.
var sacctUnsupported = map[string]string{
	"x": "--associations", "B": "--batch-script", "c": "--completion",
	"env-vars": "--env-vars", "f": "--file", "F": "--flags", "i": "--nnodes",
	"I": "--ncpus", "reason": "--reason", "W": "--wckeys", "whole-hetjob": "--whole-hetjob",
}

// sacctRequest is what sacct's options ask for beyond the query itself.
type sacctRequest struct {
	formats          []string // -o lists, in order
	brief, long      bool
	header, allUsers bool
	startSet, endSet bool
	qosArg           string    // the last -q, read by sacctQOS
	qosSet           bool      // -q given
	qos              []string  // sacctQOS's list; nil: any QOS
	gids             []uint32  // -g, each once; nil: any group
	constraints      []string  // -C items, every one required (sacct_constraints.go)
	tlMin, tlMax     int64     // -k/-K in minutes; 0 when not given
	sels             []acctSel // -j entries (sacct_steps.go)
	json             bool      // --json (sacct_json.go)
}

// sacctOption applies one option; done reports that sacct ends now with
// code.
func sacctOption(w *output, env *Env, o option, now time.Time, q *api.AcctQuery, pr *acctPrinter, rq *sacctRequest) (code int, done bool) {
	switch o.id {
	case "a":
		rq.allUsers = true
	case "A":
		q.Accounts = addCharList(q.Accounts, o.val)
	case "X", "t":
		q.AllocationsOnly = true
	case "D":
		q.Duplicates = true
	case "b":
		rq.brief = true
	case "l":
		rq.long = true
	case "o":
		rq.formats = append(rq.formats, o.val)
	case "delimiter":
		pr.delim = o.val
	case "e":
		w.printf("%s", acctFieldHelp())
		return 0, true
	case "h", "U":
		w.printf("%s", sacctHelp)
		return 0, true
	case "V":
		w.printf("%s\n", versionLine)
		return 0, true
	case "name":
		q.Names = addCharList(q.Names, o.val)
	case "j":
		refs, sels, msg := parseAcctJobs(o.val)
		if msg != "" {
			w.raw("sacct: fatal: " + msg + "\n")
			return 1, true
		}
		q.JobIDs, rq.sels = append(q.JobIDs, refs...), append(rq.sels, sels...)
	case "N":
		if q.Nodes != nil {
			w.errf("Already asked for nodes '%s'", q.Nodes[0])
			break
		}
		q.Nodes = []string{o.val}
	case "n":
		rq.header = false
	case "p":
		pr.parsable = 1
	case "P":
		pr.parsable = 2
	case "q":
		rq.qosArg, rq.qosSet = o.val, true // read once the options are all in, as Slurm does
	case "C":
		rq.constraints = addCharList(rq.constraints, o.val)
	case "g":
		return sacctGroups(w, env, o.val, rq)
	case "r":
		q.Partitions = addCharList(q.Partitions, o.val)
	case "s":
		states, msg := addAcctStates(q.States, o.val)
		if msg != "" {
			w.raw("sacct: fatal: " + msg + "\n")
			return 1, true
		}
		q.States = states
	case "S", "E":
		return sacctWindow(w, o, now, q, rq)
	case "k", "K":
		return sacctTimeLimit(w, o, rq)
	case "u":
		return sacctUsers(w, env, o.val, q, rq)
	case "units":
		u, ok := parseUnits(o.val)
		if !ok {
			w.raw("sacct: error: Invalid unit type '" + o.val + "'. Possible options are 'KMGTP'\nsacct: fatal: Invalid unit type\n")
			return 1, true
		}
		pr.units = u
	case "noconvert":
		pr.noconvert = true
	case "T":
		pr.window.on = true
	case "json":
		rq.json = true
	case "yaml":
		// slurmdata writes empty strings as null, the peer's sacct as "".
		w.errf("--yaml is not supported; use --json")
		return 1, true
	}
	if name, ok := sacctUnsupported[o.id]; ok {
		w.errf("%s is not supported", name)
		return 1, true
	}
	return 0, false
}

func sacctWindow(w *output, o option, now time.Time, q *api.AcctQuery, rq *sacctRequest) (int, bool) {
	t, err := acctTime(o.val, now)
	if err != nil {
		w.raw(timeSpecError(o.val))
		return 1, true
	}
	if o.id == "S" {
		q.StartTime, rq.startSet = t, true
	} else {
		q.EndTime, rq.endSet = t, true
	}
	return 0, false
}

// sacctTimeLimit reads -k/-K as Slurm's time_str2mins does: seconds
// round up to a minute; a limit under a minute is refused.
func sacctTimeLimit(w *output, o option, rq *sacctRequest) (int, bool) {
	d, err := slurmtime.ParseDuration(o.val)
	mins := int64((d + time.Minute - 1) / time.Minute)
	if d == slurmtime.Unlimited {
		mins = api.UnlimitedSeconds / 60
	}
	if err != nil || mins <= 0 {
		w.raw("sacct: fatal: Invalid time limit specification\n")
		return 1, true
	}
	if o.id == "k" {
		rq.tlMin = mins
	} else {
		rq.tlMax = mins
	}
	return 0, false
}

// sacctUsers reads -u: names or uids; "-1" means every user.
func sacctUsers(w *output, env *Env, val string, q *api.AcctQuery, rq *sacctRequest) (int, bool) {
	if val == "-1" {
		rq.allUsers = true
		return 0, false
	}
	rq.allUsers = false
	return addIDList(w, val, "user", env.Users.UID, func(uid uint32) bool {
		id := strconv.FormatUint(uint64(uid), 10)
		if slices.Contains(q.Users, id) {
			return false
		}
		q.Users = append(q.Users, id)
		return true
	})
}

// sacctGroups reads -g as a group list (addIDList). Unlike -u it leaves
// the user selection alone.
func sacctGroups(w *output, env *Env, val string, rq *sacctRequest) (int, bool) {
	lookup := func(g string) (uint32, bool) { return lookupGID(env, g) }
	return addIDList(w, val, "group", lookup, func(gid uint32) bool {
		if slices.Contains(rq.gids, gid) {
			return false
		}
		rq.gids = append(rq.gids, gid)
		return true
	})
}

// addIDList reads one -u or -g value as slurm_addto_id_char_list does:
// names or numbers split as parseCharList splits them, each looked up
// (an unknown one prints "Invalid KIND id: X" and ends sacct) and given
// to add, which reports whether it was new. A value that adds nothing
// new ends sacct silently, as the peer's (-u with an empty value, or the
// same user twice, exits 1).
func addIDList(w *output, val, kind string, lookup func(string) (uint32, bool), add func(uint32) bool) (int, bool) {
	added := 0
	for _, item := range parseCharList(val) {
		id, ok := lookup(item)
		if !ok {
			w.errf("Invalid %s id: %s", kind, item)
			return 1, true
		}
		if add(id) {
			added++
		}
	}
	if added == 0 {
		return 1, true
	}
	return 0, false
}

// sacctAccountedStates are the states Slurm 22.05's sacct -s accepts
// (options.c's _supported_state): the others are never stored.
var sacctAccountedStates = map[job.State]bool{
	job.Pending: true, job.Running: true, job.Suspended: true, job.Completed: true,
	job.Cancelled: true, job.Failed: true, job.Timeout: true, job.NodeFail: true,
	job.Preempted: true, job.BootFail: true, job.Deadline: true, job.OutOfMemory: true,
	job.Requeued: true, job.Resizing: true, job.Revoked: true,
}

// addAcctStates adds the states of one -s value to list, each once by its
// full name, as sacct's _addto_state_char_list: items split as
// parseCharList does, a name or short code in any case. msg is sacct's
// fatal line for a state it does not know or does not account.
func addAcctStates(list []string, val string) (states []string, msg string) {
	for _, item := range parseCharList(val) {
		st, err := job.ParseState(item)
		switch {
		case err != nil:
			return nil, "unrecognized job state value '" + item + "'"
		case !sacctAccountedStates[st]:
			return nil, "job state " + item + " is not supported / accounted"
		case !slices.Contains(list, string(st)):
			list = append(list, string(st))
		}
	}
	return list, ""
}

// sacctQOS reads the last -q as Slurm's slurmdb_addto_qos_char_list: an
// empty value is the one QOS "" (jobs without one); otherwise the items
// as parseCharList splits them, each once whatever its case. msg is the
// error and fatal lines for a value without any item.
func sacctQOS(val string) (qos []string, msg string) {
	if val == "" {
		return []string{""}, ""
	}
	for _, item := range parseCharList(val) {
		if !containsFold(qos, item) {
			qos = append(qos, item)
		}
	}
	if len(qos) == 0 {
		return nil, "sacct: error: You gave me an empty qos list\nsacct: fatal: problem processing qos list\n"
	}
	return qos, ""
}

// acctDefaults applies sacct's defaults. Users: the caller's own jobs,
// unless -a, -u, -j or -N, or the caller is root. Window (Slurm's rule):
// with -s, from now (Epoch with -j) to the start; with only -j, Epoch to
// now; otherwise midnight today to now. The window excludes its end, so
// an end equal to the start or to now moves one second on.
func acctDefaults(env *Env, q *api.AcctQuery, now time.Time, rq *sacctRequest) {
	all := rq.allUsers || (q.Users == nil && (env.UID == 0 || q.JobIDs != nil || q.Nodes != nil))
	if all {
		q.Users = nil
	} else if q.Users == nil {
		q.Users = []string{strconv.FormatUint(uint64(env.UID), 10)}
	}
	switch {
	case q.States != nil:
		if !rq.startSet && q.JobIDs == nil {
			q.StartTime = now.Unix()
		}
		if q.StartTime != 0 && !rq.endSet {
			q.EndTime = q.StartTime
		}
	case q.JobIDs == nil && !rq.startSet:
		y, m, d := now.Date()
		q.StartTime = time.Date(y, m, d, 0, 0, 0, 0, now.Location()).Unix()
	}
	if q.EndTime == 0 {
		q.EndTime = now.Unix()
	}
	if q.EndTime == q.StartTime || q.EndTime == now.Unix() {
		q.EndTime++
	}
	if q.Nodes != nil {
		if names, err := hostlist.Expand(q.Nodes[0]); err == nil {
			q.Nodes = names
		}
	}
}
