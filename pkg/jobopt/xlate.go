package jobopt

import (
	"fmt"
	"strings"

	"github.com/loamhpc/loam/pkg/batchscript"
)

// Translating #BSUB and #PBS lines, as sbatch's xlate.c does.
//
// After the #SBATCH directives and before the SBATCH_* variables, sbatch
// reads the script's #BSUB lines, and only when it has none its #PBS lines
// (batchscript.Foreign), parses them with getopt_long and tables of LSF's
// and Torque's options, and applies each one it knows as the sbatch option
// it stands for: "#PBS -N x" is --job-name=x, with --job-name's checks and
// messages. So #PBS beats #SBATCH, and the environment and the command
// line beat #PBS. --ignore-pbs (on the command line before the script, or
// in an #SBATCH line) and SBATCH_IGNORE_PBS (empty, "yes" or a number
// other than 0) turn the translation off.

// wrapper is one batch system whose directives sbatch translates.
type wrapper struct {
	magic string
	table *Table
}

// wrappers are tried in sbatch's order; the first one found is the only
// one applied.
var wrappers = []wrapper{
	{batchscript.MagicBSUB, NewTable(bsubOptions())},
	{batchscript.MagicPBS, NewTable(pbsOptions())},
}

// applyForeign translates the script's #BSUB or #PBS lines. name is the
// script's base name, for messages.
func (b *builder) applyForeign(cl *CommandLine, name, body string) error {
	if b.p.table().byLong("ignore-pbs") == nil || b.ignoresPBS(cl) {
		return nil // not sbatch, or told not to
	}
	for _, w := range wrappers {
		args, found, err := batchscript.Foreign(name, w.magic, []byte(body))
		if err != nil {
			return b.scriptError(err)
		}
		if w.magic == batchscript.MagicBSUB {
			bsubCwd(args)
		}
		if err := b.translate(w.table, args); err != nil {
			return err
		}
		if found {
			return nil
		}
	}
	return nil
}

// ignoresPBS tells whether --ignore-pbs or SBATCH_IGNORE_PBS is on. sbatch
// reads the variable and the command line in its first pass, and the
// #SBATCH lines before it translates; only the command line's options
// before the script count (later ones are the script's arguments).
func (b *builder) ignoresPBS(cl *CommandLine) bool {
	if _, ok := b.passed["ignore-pbs"]; ok { // from an #SBATCH line
		return true
	}
	for _, occ := range cl.occurrences {
		if occ.opt.Long == "ignore-pbs" {
			return true
		}
	}
	s, ok := b.p.getenv("SBATCH_IGNORE_PBS")
	return ok && envFlagOn(s)
}

// envFlagOn is Slurm's reading of a variable that sets a flag: on when
// empty, "yes" (in any case) or a whole number other than 0.
func envFlagOn(s string) bool {
	n, used := cStrtol(s)
	return s == "" || strings.EqualFold(s, "yes") || (n != 0 && used == len(s))
}

// bsubCwd spells LSF's "-cwd" as "-c", which getopt can read. sbatch looks
// only at every other argument (the first, third...), where it expects
// the options of "-o value" pairs; elsewhere "-cwd" stays "-c wd".
func bsubCwd(args []string) {
	for i := 0; i < len(args); i += 2 {
		if args[i] == "-cwd" {
			args[i] = "-c"
		}
	}
}

// translate parses args with a wrapper's table (argv[0] is "sbatch") and
// applies what each option stands for.
func (b *builder) translate(t *Table, args []string) error {
	g := &getopt{prog: b.p.prog(), args: args, t: t}
	for {
		occ, ok, err := g.next()
		if err != nil {
			return b.unrecognized(err)
		}
		if !ok {
			break
		}
		if occ.opt.set == nil {
			continue // an option sbatch reads and ignores
		}
		if err := occ.opt.set(b, value{str: occ.val, has: occ.has, src: fromScript, name: occ.name}); err != nil {
			return err
		}
	}
	if g.optind < len(args) {
		return b.exitError("Invalid argument: " + args[g.optind])
	}
	return nil
}

// unrecognized is sbatch's answer to getopt's complaint: glibc's line, then
// its own about the '?' getopt returned.
func (b *builder) unrecognized(err error) error {
	e, ok := err.(*Error)
	if !ok || len(e.Lines) == 0 {
		return err
	}
	return &Error{Code: b.p.errorExit(), Lines: []string{e.Lines[0],
		b.p.prog() + ": error: Unrecognized command line parameter ?"}}
}

// as applies the sbatch option long with the translated value s (has false
// for a flag), from the script, with that option's checks and messages.
func (b *builder) as(long, s string, has bool) error {
	o := b.p.table().byLong(long)
	if o == nil {
		return nil
	}
	return b.apply(o, value{str: s, has: has, src: fromScript, name: "--" + long})
}

// to is a wrapper option that stands for the sbatch option long.
func to(long string) func(*builder, value) error {
	return func(b *builder, v value) error { return b.as(long, v.str, v.has) }
}

// byLong returns the option with the long name, or nil.
func (t *Table) byLong(name string) *Option {
	for _, o := range t.opts {
		if o.Long == name {
			return o
		}
	}
	return nil
}

// umaskVariable puts #PBS -W umask= in SLURM_UMASK, unless the submitter
// set that variable: sbatch keeps a SLURM_UMASK it finds.
func (b *builder) umaskVariable(own *envList) {
	if b.pbsUmask == nil {
		return
	}
	if _, set := b.p.getenv("SLURM_UMASK"); set && !b.p.UmaskAdded {
		return
	}
	own.set("SLURM_UMASK", fmt.Sprintf("%04o", *b.pbsUmask))
}
