package jobopt

import (
	"strings"

	"github.com/loamhpc/loam/pkg/batchscript"
)

// Submission runs sbatch's second pass and returns the request. script is
// the script the caller read from cl.Script, or from standard input when
// cl.Script is empty; it is ignored with --wrap. The sources apply in
// sbatch's order, each overriding the one before: #SBATCH directives, then
// the #BSUB or #PBS ones, then SBATCH_* variables, then the command line.
func (p *Parser) Submission(cl *CommandLine, script []byte) (*Result, error) {
	b := newBuilder(p)
	body, err := b.scriptBody(cl, script)
	if err != nil {
		return nil, err
	}
	// 1. Defaults sbatch sets before reading any option.
	b.req.WorkDir = p.Cwd
	b.verbose, b.quiet = cl.Verbose, cl.Quiet
	// 2. #SBATCH directives.
	if err := b.applyScript(cl.ScriptName(), body); err != nil {
		return nil, err
	}
	// 2a. #BSUB or #PBS directives, translated (xlate.go).
	if err := b.applyForeign(cl, cl.ScriptName(), body); err != nil {
		return nil, err
	}
	// 3. SBATCH_* variables.
	if err := b.applyEnv(); err != nil {
		return nil, err
	}
	// 4. The command line, already checked by the first pass.
	for _, occ := range cl.occurrences {
		if occ.opt.Early {
			continue
		}
		if err := b.apply(occ.opt, value{str: occ.val, has: occ.has, src: fromArgv, name: occ.name}); err != nil {
			return nil, err
		}
	}
	// 5. sbatch's checks and derived values, then the request itself.
	if err := b.verify(cl); err != nil {
		return nil, err
	}
	if err := b.readBBF(); err != nil { // recorded.go
		return nil, err
	}
	b.finish(cl, body)
	if err := b.validate(); err != nil {
		return nil, b.afterDefined(cl, err)
	}
	if err := batchscript.CheckSize(b.req.Script); err != nil {
		return nil, b.scriptError(err)
	}
	if err := b.refuseClusters(); err != nil { // clusters.go
		return nil, err
	}
	return &Result{
		Request: b.req, Parsable: b.parsable, TestOnly: b.testOnly, Wait: b.wait,
		Quiet: b.quiet, Verbose: b.verbose, Warnings: b.warnings, Defined: b.defined(b.p.table(), cl.Wrap),
	}, nil
}

// scriptBody returns the script to submit: --wrap's, or the caller's after
// sbatch's checks.
func (b *builder) scriptBody(cl *CommandLine, script []byte) (string, error) {
	if cl.Wrap != nil {
		return batchscript.Wrap(*cl.Wrap), nil
	}
	if err := batchscript.Check(script); err != nil {
		return "", b.scriptError(err)
	}
	return string(script), nil
}

// scriptError turns a batchscript error into sbatch's lines.
func (b *builder) scriptError(err error) error {
	be, ok := err.(*batchscript.Error)
	if !ok {
		return b.exitError(err.Error())
	}
	if be.Fatal {
		e := &Error{Code: ExitError}
		for _, l := range be.Lines {
			e.Lines = append(e.Lines, b.p.prog()+": fatal: "+l)
		}
		return e
	}
	return b.exitError(be.Lines...)
}

// applyScript parses the #SBATCH arguments with the option table, skipping
// the early options as sbatch does in scripts.
func (b *builder) applyScript(name, body string) error {
	d, err := batchscript.Extract(name, []byte(body))
	if err != nil {
		return b.scriptError(err)
	}
	for _, w := range d.Warnings {
		b.warnings = append(b.warnings, b.p.prog()+": error: "+w)
	}
	if d.HetJob {
		return b.exitError("Loam does not support heterogeneous jobs (#SBATCH hetjob)")
	}
	// sbatch reads its directives as argv with argv[0] "sbatch".
	g := &getopt{prog: b.p.prog(), args: d.Args, t: b.p.table()}
	for {
		occ, ok, err := g.next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if occ.opt.Early {
			continue
		}
		if err := b.apply(occ.opt, value{str: occ.val, has: occ.has, src: fromScript, name: occ.name}); err != nil {
			return err
		}
	}
	if g.optind < len(d.Args) {
		return b.clientError("Invalid directive found in batch script: %s", d.Args[g.optind])
	}
	return nil
}

// applyEnv applies the SBATCH_* variables in sbatch's order. A flag
// variable is on when empty, "yes" or a non-zero number, and off otherwise.
func (b *builder) applyEnv() error {
	t := b.p.table()
	for _, name := range envOrder {
		s, ok := b.p.getenv(name)
		if !ok {
			continue
		}
		o := t.envOption(name)
		if o == nil {
			continue
		}
		v := value{str: s, has: true, src: fromEnv, name: name}
		switch o.Arg {
		case NoArg:
			n, used := cStrtol(s)
			v.reset = !(s == "" || strings.EqualFold(s, "yes") || (n != 0 && used == len(s)))
		case OptionalArg:
			v.has = s != ""
		}
		if err := b.apply(o, v); err != nil {
			return err
		}
	}
	return nil
}

// envOption returns the option an environment variable sets.
func (t *Table) envOption(name string) *Option {
	for _, o := range t.opts {
		for _, e := range o.Env {
			if e == name {
				return o
			}
		}
	}
	return nil
}
