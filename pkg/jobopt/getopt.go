package jobopt

import (
	"fmt"
	"strings"
)

// getopt walks arguments exactly as glibc's getopt_long with the optstring
// "+...": it stops at the first argument that is not an option and after
// "--", accepts unambiguous prefixes of long names, glued short values
// (-N2, -pdebug) and clustered flags (-HW). Its messages are glibc's.
type getopt struct {
	argv0    string // starts glibc's messages; prog when empty
	prog     string // the command, for the hint
	args     []string
	t        *Table
	optind   int    // next argument to read
	nextchar string // rest of a cluster of short options
}

// occurrence is one option getopt found.
type occurrence struct {
	opt  *Option
	val  string
	has  bool
	name string // "--time" or "-t", for messages
}

// next returns the next option, or ok false when the options end; then
// optind is the index of the first non-option argument. An error carries
// glibc's message line.
func (g *getopt) next() (occ occurrence, ok bool, err error) {
	if g.nextchar == "" {
		if g.optind >= len(g.args) {
			return occ, false, nil
		}
		a := g.args[g.optind]
		switch {
		case a == "--":
			g.optind++
			return occ, false, nil
		case len(a) < 2 || a[0] != '-':
			return occ, false, nil
		case strings.HasPrefix(a, "--"):
			g.optind++
			return g.long(a[2:])
		}
		g.nextchar = a[1:]
		g.optind++
	}
	return g.short()
}

func (g *getopt) short() (occurrence, bool, error) {
	c := g.nextchar[0]
	g.nextchar = g.nextchar[1:]
	o := g.t.short(c)
	if o == nil || c == ':' {
		g.nextchar = ""
		return occurrence{}, false, g.errorf("invalid option -- '%c'", c)
	}
	occ := occurrence{opt: o, name: "-" + string(c)}
	switch o.Arg {
	case RequiredArg:
		switch {
		case g.nextchar != "":
			occ.val, occ.has, g.nextchar = g.nextchar, true, ""
		case g.optind < len(g.args):
			occ.val, occ.has = g.args[g.optind], true
			g.optind++
		default:
			return occurrence{}, false, g.errorf("option requires an argument -- '%c'", c)
		}
	case OptionalArg:
		if g.nextchar != "" {
			occ.val, occ.has, g.nextchar = g.nextchar, true, ""
		}
	}
	return occ, true, nil
}

// long handles "--body", body being "name" or "name=value".
func (g *getopt) long(body string) (occurrence, bool, error) {
	name, val, hasEq := strings.Cut(body, "=")
	o, err := g.match(name, body)
	if err != nil {
		return occurrence{}, false, err
	}
	occ := occurrence{opt: o, name: "--" + o.Long}
	switch {
	case hasEq && o.Arg == NoArg:
		return occurrence{}, false, g.errorf("option '--%s' doesn't allow an argument", o.Long)
	case hasEq:
		occ.val, occ.has = val, true
	case o.Arg == RequiredArg:
		if g.optind >= len(g.args) {
			return occurrence{}, false, g.errorf("option '--%s' requires an argument", o.Long)
		}
		occ.val, occ.has = g.args[g.optind], true
		g.optind++
	}
	return occ, true, nil
}

// match finds the long option named name or abbreviated by it. Like glibc,
// an exact name wins; otherwise the prefix must select one option, where
// names with the same key and kind count as one.
func (g *getopt) match(name, body string) (*Option, error) {
	found, ambiguous := MatchLong(g.t.longs, name)
	switch {
	case ambiguous != nil:
		var b strings.Builder
		for _, i := range ambiguous {
			fmt.Fprintf(&b, " '--%s'", g.t.opts[i].Long)
		}
		return nil, g.errorf("option '--%s' is ambiguous; possibilities:%s", body, b.String())
	case found < 0:
		return nil, g.errorf("unrecognized option '--%s'", body)
	}
	return g.t.opts[found], nil
}

// errorf builds glibc's message and sbatch's hint after it; sbatch exits
// with status 255. glibc names argv[0] as called, the hint the command.
func (g *getopt) errorf(format string, args ...any) error {
	argv0 := g.argv0
	if argv0 == "" {
		argv0 = g.prog
	}
	return &Error{Code: ExitClient, Lines: []string{
		argv0 + ": " + fmt.Sprintf(format, args...),
		fmt.Sprintf("Try \"%s --help\" for more information", g.prog),
	}}
}
