package command

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

var sshareOpts = []optSpec{
	{long: "accounts", short: 'A', arg: requiredArg},
	{long: "all", short: 'a'},
	{long: "helpformat", short: 'e'},
	{long: "long", short: 'l'},
	{long: "partition", short: 'm'},
	{long: "cluster", short: 'M', arg: requiredArg},
	{long: "clusters", short: 'M', arg: requiredArg},
	{long: "noheader", short: 'n'},
	{long: "format", short: 'o', arg: requiredArg},
	{long: "parsable", short: 'p'},
	{long: "parsable2", short: 'P'},
	{long: "users", short: 'u', arg: requiredArg},
	{long: "Users", short: 'U'},
	{long: "verbose", short: 'v'},
	{long: "version", short: 'V'},
	{long: "help"},
	{long: "usage"},
	// Slurm's optstring has letters its switch lacks: -q and -t VALUE
	// stop sshare with "getopt error, returned q"; -h is -n.
	{short: 't', arg: requiredArg},
	{short: 'q'},
	{short: 'h', id: "n"},
}

// shareField is one sshare column: its name, Slurm's default width and
// its value in a row.
type shareField struct {
	name  string
	width int
	left  bool
	val   func(r *shareLine) string
}

// shareLine is one printed row: the root, a tenant or a user.
type shareLine struct {
	api.ShareRow
	depth int
	root  bool
}

func f6(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }

var shareFields = []shareField{
	{"Account", 20, true, func(r *shareLine) string { return strings.Repeat(" ", r.depth) + r.Account }},
	{"User", 10, false, func(r *shareLine) string { return r.User }},
	{"RawShares", 10, false, func(r *shareLine) string {
		if r.root {
			return ""
		}
		return strconv.FormatFloat(r.RawShares, 'f', -1, 64)
	}},
	{"NormShares", 11, false, func(r *shareLine) string {
		if r.root {
			return f6(0) // Slurm's root has no share of a parent
		}
		return f6(r.NormShares)
	}},
	{"RawUsage", 11, false, func(r *shareLine) string { return strconv.FormatInt(r.RawUsage, 10) }},
	{"NormUsage", 11, false, func(r *shareLine) string {
		if r.root {
			return ""
		}
		return f6(r.NormUsage)
	}},
	{"EffectvUsage", 13, false, func(r *shareLine) string { return f6(r.EffectvUsage) }},
	// Slurm's fair tree gives only users a factor: the root and
	// account lines leave it blank.
	{"FairShare", 10, false, func(r *shareLine) string {
		if r.User == "" {
			return ""
		}
		return f6(r.FairShare)
	}},
	{"LevelFS", 10, false, func(r *shareLine) string {
		if r.root {
			return ""
		}
		if r.EffectvUsage == 0 {
			return "inf"
		}
		return f6(r.NormShares / r.EffectvUsage)
	}},
	{"GrpTRESMins", 30, false, func(*shareLine) string { return "" }},
	{"TRESRunMins", 30, false, func(*shareLine) string { return "" }},
	// Loam's quota columns, in GPUs (R6, R7).
	{"GrpTRES", 30, false, func(r *shareLine) string { return r.GrpTRES }},
	{"Guarantee", 10, false, func(r *shareLine) string { return loamCount(r, r.Guarantee, true) }},
	{"InUse", 8, false, func(r *shareLine) string { return loamCount(r, r.InUse, false) }},
	{"Borrowed", 8, false, func(r *shareLine) string { return loamCount(r, r.Borrowed, true) }},
	{"Lent", 8, false, func(r *shareLine) string { return loamCount(r, r.Lent, true) }},
}

// loamCount prints a GPU count; tenant-only counts are blank on user rows.
func loamCount(r *shareLine, n int64, tenantOnly bool) string {
	if r.root || (tenantOnly && r.User != "") {
		return ""
	}
	return strconv.FormatInt(n, 10)
}

const (
	// Slurm's column sets, so scripts that count or cut fields read
	// Loam's output as Slurm's; Loam's quota columns are asked for with
	// -o.
	sshareDefault = "Account,User,RawShares,NormShares,RawUsage,EffectvUsage,FairShare"
	sshareLong    = "Account,User,RawShares,NormShares,RawUsage,NormUsage,EffectvUsage,FairShare,LevelFS,GrpTRESMins,TRESRunMins"
)

type sshareParams struct {
	noHeader, usersOnly bool
	delim               string // "|" with -p/-P
	trailing            bool   // -p
	format              string
	q                   api.SharesQuery
}

// Sshare runs sshare: tenants (Slurm accounts) and their users with their
// shares, decayed usage and fair-share factor, as Slurm's sshare prints
// them, followed by Loam's GPU quota columns (Guarantee, InUse, Borrowed,
// Lent).
func Sshare(ctx context.Context, env *Env, args []string) int {
	w := newOutput(env, "sshare")
	p, code, done := parseSshare(env, w, args)
	if done {
		return w.exit(code)
	}
	lc, ok := dialLive(ctx, env, w)
	if !ok {
		return w.exit(1)
	}
	resp, err := lc.Shares(ctx, &p.q)
	if err != nil {
		w.errf("%s", errDetail(err))
		return w.exit(1)
	}
	fields, bad := shareColumns(p.format)
	if bad != "" {
		w.errf("Invalid field requested: \"%s\"", bad)
		return w.exit(1)
	}
	p.usersOnly = p.usersOnly || resp.Private // PrivateData=usage: the peer prints the user rows flat
	printShares(w, p, fields, shareLines(p, resp.Rows))
	return w.exit(0)
}

func parseSshare(env *Env, w *output, args []string) (*sshareParams, int, bool) {
	// Slurm's sshare ignores words that are not options.
	opts, _, err := getopt(env.prog("sshare"), args, sshareOpts)
	if err != nil {
		w.lines(err.(*usageError).lines)
		return nil, 1, true
	}
	p := &sshareParams{format: sshareDefault}
	for _, o := range opts {
		switch o.id {
		case "a":
			p.q.All = true
		case "A":
			p.q.Accounts = append(p.q.Accounts, splitLower(o.val)...)
		case "l":
			p.format = sshareLong
		case "n":
			p.noHeader = true
		case "o":
			p.format = o.val
		case "p":
			p.delim, p.trailing = "|", true
		case "P":
			p.delim, p.trailing = "|", false
		case "u":
			p.q.Users = append(p.q.Users, splitList(o.val)...)
		case "U":
			p.usersOnly = true
		case "e":
			w.printf("%s\n", sshareFieldNames())
			return nil, 0, true
		case "V":
			w.printf("%s\n", versionLine)
			return nil, 0, true
		case "help", "usage":
			w.printf("%s", sshareHelp)
			return nil, 0, true
		case "t", "q":
			w.raw("getopt error, returned " + o.id + "\n")
			return nil, 1, true
		}
	}
	return p, 0, false
}

func splitLower(s string) []string {
	out := splitList(s)
	for i := range out {
		out[i] = strings.ToLower(out[i])
	}
	return out
}

// sshareFieldNames is -e: the field names in sorted order, four to a
// line in 17-character cells, as Slurm lays them out.
func sshareFieldNames() string {
	names := make([]string, len(shareFields))
	for i, f := range shareFields {
		names[i] = f.name
	}
	slices.Sort(names)
	var b []byte
	for i, n := range names {
		switch {
		case i > 0 && i%4 == 0:
			b = append(b, '\n')
		case i > 0:
			b = append(b, ' ')
		}
		b = pad(b, n, 17, false, false)
	}
	return string(b)
}

// shareColumn is a requested field with its width; a negative %width
// left-justifies it.
type shareColumn struct {
	f     *shareField
	width int
	left  bool
}

// stringShareFields are the fields Slurm prints as strings: a value too
// wide for its column is cut with a '+'.
var stringShareFields = map[string]bool{"Account": true, "User": true, "GrpTRESMins": true, "TRESRunMins": true, "GrpTRES": true}

// shareColumns reads a -o list: names (case-insensitive, any unambiguous
// prefix) with an optional %width.
func shareColumns(format string) ([]shareColumn, string) {
	var out []shareColumn
	for _, tok := range strtok(format, ",") {
		name, width, hasWidth := strings.Cut(tok, "%")
		var found *shareField
		for i := range shareFields {
			if strings.HasPrefix(strings.ToLower(shareFields[i].name), strings.ToLower(name)) {
				found = &shareFields[i]
				break
			}
		}
		if found == nil || name == "" {
			return nil, tok
		}
		c := shareColumn{f: found, width: found.width, left: found.left}
		if hasWidth {
			n, _ := strtol(width)
			c.width = int(n)
			if c.width < 0 {
				c.width, c.left = -c.width, true
			}
		}
		out = append(out, c)
	}
	return out, ""
}

// shareLines orders the rows as sshare prints them: the root, then each
// tenant with its users below it, indented by depth.
func shareLines(p *sshareParams, rows []api.ShareRow) []shareLine {
	root := shareLine{root: true, ShareRow: api.ShareRow{Account: "root", EffectvUsage: 1, NormUsage: 1, FairShare: 1}}
	// Without the root line (-A, -U) the tree starts one level up, as
	// Slurm's does.
	top := 1
	if p.usersOnly || len(p.q.Accounts) > 0 {
		top = 0
	}
	var out []shareLine
	for _, r := range rows {
		if r.User == "" {
			root.RawUsage += r.RawUsage
			if !p.usersOnly {
				out = append(out, shareLine{ShareRow: r, depth: top})
			}
			continue
		}
		depth := top + 1
		if p.usersOnly {
			depth = 0
		}
		out = append(out, shareLine{ShareRow: r, depth: depth})
	}
	if top == 0 {
		return out
	}
	return append([]shareLine{root}, out...)
}

// printShares prints the header, the dashes and the rows, or with -p/-P
// '|'-separated values.
func printShares(w *output, p *sshareParams, cols []shareColumn, lines []shareLine) {
	row := func(val func(c shareColumn) string, plus bool) {
		for i, c := range cols {
			v := val(c)
			if plus && p.delim == "" && len(v) > c.width && stringShareFields[c.f.name] {
				v = v[:max(c.width-1, 0)] + "+"
			}
			if p.delim != "" {
				w.buf = append(w.buf, v...)
				if i < len(cols)-1 || p.trailing {
					w.buf = append(w.buf, p.delim...)
				}
				continue
			}
			w.buf = pad(w.buf, v, c.width, !c.left, true)
			w.buf = append(w.buf, ' ')
		}
		w.buf = append(w.buf, '\n')
	}
	if !p.noHeader {
		row(func(c shareColumn) string { return c.f.name }, false)
		if p.delim == "" {
			row(func(c shareColumn) string { return strings.Repeat("-", c.width) }, false)
		}
	}
	for i := range lines {
		l := &lines[i]
		row(func(c shareColumn) string { return c.f.val(l) }, true)
	}
}
