package command

import (
	"bufio"
	"context"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

var sacctmgrOpts = []optSpec{
	{long: "help", short: 'h'},
	{long: "immediate", short: 'i'},
	{long: "noheader", short: 'n'},
	{long: "oneliner", short: 'o'},
	{long: "parsable", short: 'p'},
	{long: "parsable2", short: 'P'},
	{long: "quiet", short: 'Q'},
	{long: "readonly", short: 'r'},
	{long: "associations", short: 's'},
	{long: "verbose", short: 'v'},
	{long: "version", short: 'V'},
	{long: "usage"},
}

// AssocReader is the part of the controller's API behind sacctmgr: the
// association tree of tenants.conf.
type AssocReader interface {
	Assocs(ctx context.Context, q *api.AssocQuery) (*api.AssocResponse, error)
}

// mgrParams are sacctmgr's options.
type mgrParams struct {
	noHeader  bool
	delim     string // "|" with -p/-P
	trailing  bool   // -p
	withAssoc bool   // -s
}

// mgrWriteCommands are sacctmgr's commands that change the database.
var mgrWriteCommands = []string{"add", "create", "modify", "update", "delete", "remove",
	"archive", "load", "dump", "clear", "reconfigure", "shutdown"}

// mgrEntityList is Slurm's text for a list command without an entity.
const mgrEntityList = `No valid entity in list command
Input line must include "Account", "Association", "Cluster", "Configuration",
"Event", "Federation", "Problem", "QOS", "Resource", "Reservation",
"RunAwayJobs", "Stats", "Transaction", "TRES", "User", or "WCKey"
`

// Sacctmgr runs sacctmgr's read commands (list/show) over the
// controller's tenants.conf, in Slurm 22.05's formats. Writes are refused:
// tenants.conf is the association tree, changed by editing it and
// running scontrol reconfigure.
func Sacctmgr(ctx context.Context, env *Env, args []string) int {
	w := newOutput(env, "sacctmgr")
	opts, operands, err := getopt(env.prog("sacctmgr"), args, sacctmgrOpts)
	if err != nil {
		w.lines(err.(*usageError).lines)
		return w.exit(1)
	}
	p := &mgrParams{}
	for _, o := range opts {
		switch o.id {
		case "h", "usage":
			w.printf("%s", sacctmgrHelp)
			return w.exit(0)
		case "V":
			w.printf("%s\n", versionLine)
			return w.exit(0)
		case "n":
			p.noHeader = true
		case "p":
			p.delim, p.trailing = "|", true
		case "P":
			p.delim, p.trailing = "|", false
		case "s":
			p.withAssoc = true
		}
	}
	if len(operands) == 0 {
		return w.exit(mgrInteractive(ctx, env, w, p))
	}
	return w.exit(runMgrCommand(ctx, env, w, p, operands))
}

// mgrInteractive runs the commands read from standard input, one a line,
// each echoed after Slurm's prompt as Slurm's readline does when input is
// not a terminal; it fails when a command failed.
func mgrInteractive(ctx context.Context, env *Env, w *output, p *mgrParams) int {
	code := 0
	sc := bufio.NewScanner(env.Stdin)
	for sc.Scan() {
		w.printf("sacctmgr: %s\n", sc.Text())
		words := strings.Fields(sc.Text())
		if len(words) == 0 {
			continue
		}
		if cmd := strings.ToLower(words[0]); cmd == "exit" || cmd == "quit" {
			return code
		}
		w.flush() // keep the echo before the command's errors
		if runMgrCommand(ctx, env, w, p, words) != 0 {
			code = 1
		}
	}
	w.printf("sacctmgr: \n")
	return code
}

func runMgrCommand(ctx context.Context, env *Env, w *output, p *mgrParams, words []string) int {
	cmd := strings.ToLower(words[0])
	switch {
	case mgrIs(cmd, "list", 3), mgrIs(cmd, "show", 3):
		return mgrList(ctx, env, w, p, words[1:])
	case mgrIs(cmd, "help", 2):
		w.printf("%s", sacctmgrHelp)
		return 0
	case mgrIs(cmd, "version", 4):
		w.printf("%s\n", versionLine)
		return 0
	case cmd == "exit" || cmd == "quit":
		return 0
	}
	for _, c := range mgrWriteCommands {
		if mgrIs(cmd, c, 3) {
			w.raw("sacctmgr: error: Loam keeps accounts, users and their limits in tenants.conf, not in a database: " +
				"edit tenants.conf and run 'scontrol reconfigure' to " + c + " them\n")
			return 1
		}
	}
	w.raw("invalid keyword: " + words[0] + "\n")
	return 1
}

// mgrIs reports whether word abbreviates name to at least min letters,
// as Slurm's strncasecmp matching does.
func mgrIs(word, name string, min int) bool {
	return len(word) >= min && len(word) <= len(name) && strings.EqualFold(word, name[:len(word)])
}

// mgrEntities are list's entities in Slurm's matching order, with the
// fewest letters that name each.
var mgrEntities = []struct {
	name string
	min  int
}{
	{"accounts", 2}, {"associations", 2}, {"clusters", 2}, {"configuration", 2},
	{"events", 1}, {"federations", 1}, {"problems", 1}, {"qos", 1},
	{"runawayjobs", 2}, {"resource", 4}, {"reservations", 4}, {"stats", 1},
	{"tres", 3}, {"transactions", 1}, {"users", 1}, {"wckeys", 1},
}

// mgrList is list/show ENTITY [conditions]: the entity's rows, filtered,
// in its columns.
func mgrList(ctx context.Context, env *Env, w *output, p *mgrParams, args []string) int {
	if len(args) == 0 {
		w.raw(mgrEntityList)
		return 1
	}
	entity := ""
	for _, e := range mgrEntities {
		if mgrIs(args[0], e.name, e.min) {
			entity = e.name
			break
		}
	}
	ent, ok := mgrEntityTable[entity]
	if !ok {
		if entity == "" {
			w.raw(mgrEntityList)
		} else {
			w.raw("sacctmgr: error: Loam keeps no " + entity + ": it has no accounting database (see sacct and sreport)\n")
		}
		return 1
	}
	cond, code := parseMgrConds(w, ent, args[1:])
	if code != 0 {
		return code
	}
	cond.withAssoc = cond.withAssoc || p.withAssoc
	fields, bad := mgrColumns(ent, cond)
	if bad {
		return 1
	}
	tree, code := mgrFetch(ctx, env, w, ent)
	if code != 0 {
		return code
	}
	rows := ent.rows(tree, cond)
	printMgr(w, p, fields, rows)
	return 0
}

// mgrFetch asks the controller for the tree; qos and tres need none.
func mgrFetch(ctx context.Context, env *Env, w *output, ent *mgrEntity) (*api.AssocResponse, int) {
	if !ent.remote {
		return &api.AssocResponse{}, 0
	}
	c, err := env.Dial(ctx)
	if err != nil {
		w.errf("%s", errText(err))
		return nil, 1
	}
	ar, ok := c.(AssocReader)
	if !ok {
		w.errf("%s", api.CodeNotSupported.Text())
		return nil, 1
	}
	tree, err := ar.Assocs(ctx, &api.AssocQuery{})
	if err != nil {
		w.errf("%s", errDetail(err))
		return nil, 1
	}
	return tree, 0
}
