package command

import (
	"fmt"
	"strings"

	"github.com/loamhpc/loam/pkg/jobopt"
)

// argKind says whether an option takes a value, as getopt_long's has_arg.
type argKind int

const (
	noArg       argKind = iota // -h, --noheader
	requiredArg                // -o FMT, -oFMT, --format=FMT, --format FMT
	optionalArg                // -jIDS (glued only), --jobs=IDS (with = only)
)

// optSpec is one option of a command. Options with the same id and kind
// are one option to getopt (--user and --users), so a prefix of both is
// not ambiguous, as glibc decides by flag and val.
type optSpec struct {
	long     string
	short    byte
	arg      argKind
	id       string // defaults to the short letter, else the long name
	loamOnly bool   // Slurm's command lacks it; see jobopt.LongName
}

func (o *optSpec) key() string {
	switch {
	case o.id != "":
		return o.id
	case o.short != 0:
		return string(o.short)
	}
	return o.long
}

// option is one occurrence found on the command line.
type option struct {
	id   string
	name string // as written: "-o" or "--format"
	val  string
	has  bool
}

// usageError is a command line getopt refuses; lines are glibc's message
// and the command's hint.
type usageError struct{ lines []string }

func (e *usageError) Error() string { return strings.Join(e.lines, "\n") }

// progName names a command in getopt's messages: glibc starts its line
// with argv[0] as the command was called, while the hint after it, which
// the command prints itself, names the command.
type progName struct {
	argv0 string // "" for name
	name  string
}

// prog is the name getopt's messages use for the command called name.
func (e *Env) prog(name string) progName { return progName{argv0: e.Argv0, name: name} }

// noGetoptHint are the commands that exit after getopt's own message
// without pointing at --help.
var noGetoptHint = map[string]bool{"sacct": true, "sstat": true}

// getopt parses args as glibc's getopt_long does by default: options and
// operands may mix (operands are returned in order), "--" ends the
// options, long names may be abbreviated to any unambiguous prefix, and
// short options cluster (-hl) and glue their values (-ofmt).
func getopt(prog progName, args []string, specs []optSpec) ([]option, []string, error) {
	p := &optParser{prog: prog, specs: specs}
	var opts []option
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return opts, append(operands, args[i+1:]...), nil
		case len(a) < 2 || a[0] != '-':
			operands = append(operands, a)
			continue
		}
		var found []option
		var err error
		if strings.HasPrefix(a, "--") {
			found, i, err = p.long(a[2:], args, i)
		} else {
			found, i, err = p.shorts(a[1:], args, i)
		}
		if err != nil {
			return nil, nil, err
		}
		opts = append(opts, found...)
	}
	return opts, operands, nil
}

type optParser struct {
	prog  progName
	specs []optSpec
}

func (p *optParser) errorf(format string, args ...any) error {
	argv0 := p.prog.argv0
	if argv0 == "" {
		argv0 = p.prog.name
	}
	lines := []string{argv0 + ": " + fmt.Sprintf(format, args...)}
	if !noGetoptHint[p.prog.name] {
		lines = append(lines, fmt.Sprintf("Try \"%s --help\" for more information", p.prog.name))
	}
	return &usageError{lines: lines}
}

// shorts reads a cluster of short options at args[i].
func (p *optParser) shorts(cluster string, args []string, i int) ([]option, int, error) {
	var out []option
	for len(cluster) > 0 {
		c := cluster[0]
		cluster = cluster[1:]
		s := p.short(c)
		if s == nil {
			return nil, i, p.errorf("invalid option -- '%c'", c)
		}
		o := option{id: s.key(), name: "-" + string(c)}
		switch {
		case s.arg == noArg:
		case cluster != "":
			o.val, o.has, cluster = cluster, true, ""
		case s.arg == optionalArg:
		case i+1 < len(args):
			i++
			o.val, o.has = args[i], true
		default:
			return nil, i, p.errorf("option requires an argument -- '%c'", c)
		}
		out = append(out, o)
	}
	return out, i, nil
}

func (p *optParser) short(c byte) *optSpec {
	for k := range p.specs {
		if p.specs[k].short == c && c != 0 {
			return &p.specs[k]
		}
	}
	return nil
}

// long reads "--name", "--name=value" or "--name value" at args[i].
func (p *optParser) long(body string, args []string, i int) ([]option, int, error) {
	name, val, hasEq := strings.Cut(body, "=")
	s, err := p.match(name, body)
	if err != nil {
		return nil, i, err
	}
	o := option{id: s.key(), name: "--" + s.long}
	switch {
	case hasEq && s.arg == noArg:
		return nil, i, p.errorf("option '--%s' doesn't allow an argument", s.long)
	case hasEq:
		o.val, o.has = val, true
	case s.arg == requiredArg:
		if i+1 >= len(args) {
			return nil, i, p.errorf("option '--%s' requires an argument", s.long)
		}
		i++
		o.val, o.has = args[i], true
	}
	return []option{o}, i, nil
}

// match finds the long option called name, or the one it abbreviates.
func (p *optParser) match(name, body string) (*optSpec, error) {
	names := make([]jobopt.LongName, len(p.specs))
	for k, s := range p.specs {
		names[k] = jobopt.LongName{Long: s.long, Same: jobopt.SameOption(s.key(), int(s.arg)), LoamOnly: s.loamOnly}
	}
	found, ambiguous := jobopt.MatchLong(names, name)
	switch {
	case ambiguous != nil:
		var b strings.Builder
		for _, k := range ambiguous {
			fmt.Fprintf(&b, " '--%s'", p.specs[k].long)
		}
		return nil, p.errorf("option '--%s' is ambiguous; possibilities:%s", body, b.String())
	case found < 0:
		return nil, p.errorf("unrecognized option '--%s'", body)
	}
	return &p.specs[found], nil
}
