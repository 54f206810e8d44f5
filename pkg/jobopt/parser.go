package jobopt

import (
	"path"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/rlimit"
)

// Parser turns an sbatch invocation into a job.Request. Everything it
// needs from the outside world is handed in; it does no I/O.
type Parser struct {
	Prog  string    // the command name for messages; "sbatch" when empty
	Argv0 string    // the program as called, for getopt's messages; Prog when empty
	Table *Table    // the options; SbatchOptions when nil
	Env   []string  // the submitter's environment, KEY=VALUE
	Cwd   string    // the submitter's working directory (absolute)
	Now   time.Time // the submission time, for --begin and --deadline
	Root  bool      // the submitter is root (--uid is for root only)
	Host  string    // the submit host, exported as SLURM_SUBMIT_HOST
	// RLimits are the submitter's soft limits, exported as SLURM_RLIMIT_*
	// for the node to apply (rlimits.go); nil: none.
	RLimits []rlimit.Limit
	// UserKnown and GroupKnown tell whether --uid and --gid name a user
	// or group (by name or number) of the submit host; nil: not checked.
	UserKnown  func(string) bool
	GroupKnown func(string) bool
	// ReadFile reads a file the options name (--export-file, --bbf),
	// relative to Cwd when not absolute; nil: every such file is
	// unreadable.
	ReadFile func(string) ([]byte, error)
	// UmaskAdded says that the SLURM_UMASK in Env is the caller's own
	// umask, added for the job, not the submitter's variable: a #PBS -W
	// umask= replaces the former and never the latter, as in sbatch.
	UmaskAdded bool
}

// CommandLine is the result of the first pass over the arguments: what
// sbatch needs before it can read the script.
type CommandLine struct {
	Action     Action   // Help, Usage or Version stop here
	Script     string   // the script path as given; "" with --wrap or for stdin
	ScriptArgs []string // arguments after the script path
	Wrap       *string  // --wrap's command
	WorkDir    string   // -D from the command line, else the working directory
	Verbose    int
	Quiet      bool

	occurrences []occurrence
}

// Result is a parsed submission.
type Result struct {
	Request  job.Request
	Parsable bool
	TestOnly bool
	Wait     bool
	Quiet    bool
	Verbose  int
	// Warnings are lines for standard error that do not stop the
	// submission, prefixed as sbatch prints them.
	Warnings []string
	// Defined are the options set, for the block sbatch -v prints.
	Defined []DefinedOption
}

func (p *Parser) prog() string {
	if p.Prog == "" {
		return "sbatch"
	}
	return p.Prog
}

// argv0 is the name glibc's getopt starts its messages with for the
// command line: argv[0] as the program was called ("/usr/bin/sbatch").
func (p *Parser) argv0() string {
	if p.Argv0 == "" {
		return p.prog()
	}
	return p.Argv0
}

// sbatchTable is the default table; tables are never changed once built.
var sbatchTable = NewTable(SbatchOptions())

func (p *Parser) table() *Table {
	if p.Table == nil {
		return sbatchTable
	}
	return p.Table
}

// errorExit is the exit status for errors Slurm exits error_exit for: 1,
// or SLURM_EXIT_ERROR when that is set and not 0.
func (p *Parser) errorExit() int {
	n, _ := ExitStatusVar(p.Env, "SLURM_EXIT_ERROR", ExitError)
	return n
}

func (p *Parser) getenv(name string) (string, bool) {
	for _, kv := range p.Env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v, true
		}
	}
	return "", false
}

func (p *Parser) absolute(dir string) string {
	if path.IsAbs(dir) {
		return dir
	}
	return p.Cwd + "/" + dir
}

// CommandLine runs sbatch's first pass over args (the arguments after the
// program name): it finds the options and the script, checks every
// option's value in order, and stops early for --help, --usage and
// --version. Errors carry sbatch's messages and exit status.
func (p *Parser) CommandLine(args []string) (*CommandLine, error) {
	b := newBuilder(p)
	g := &getopt{argv0: p.argv0(), prog: p.prog(), args: args, t: p.table()}
	cl := &CommandLine{}
	for {
		occ, ok, err := g.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if err := b.apply(occ.opt, value{str: occ.val, has: occ.has, src: fromArgv, name: occ.name}); err != nil {
			return nil, err
		}
		cl.occurrences = append(cl.occurrences, occ)
		if b.action != Submit {
			cl.Action = b.action
			return cl, nil
		}
	}
	cl.Wrap, cl.Verbose, cl.Quiet = b.wrap, b.verbose, b.quiet
	cl.WorkDir = b.req.WorkDir
	if cl.WorkDir == "" {
		cl.WorkDir = p.Cwd
	}
	rest := args[g.optind:]
	if len(rest) > 0 && cl.Wrap != nil {
		return nil, b.exitError("Script arguments not permitted with --wrap option")
	}
	if len(rest) > 0 {
		cl.Script, cl.ScriptArgs = rest[0], rest[1:]
	}
	return cl, nil
}

// ScriptName is the name sbatch gives the script in its messages: the base
// name of its path, or "stdin".
func (cl *CommandLine) ScriptName() string {
	if cl.Script == "" {
		return "stdin"
	}
	return path.Base(cl.Script)
}

// ScriptCandidates lists where sbatch looks for the script, in order: a
// name starting with "/" or "." is used as given (no candidates); any other
// name is tried in the working directory (cl.WorkDir), then in each
// directory of pathEnv (the PATH variable). The caller picks the first
// that exists, sets cl.Script to it and reads it; when none exists it reads
// cl.Script as given, relative to the process's directory.
func (cl *CommandLine) ScriptCandidates(pathEnv string) []string {
	name := cl.Script
	if name == "" || name[0] == '/' || name[0] == '.' {
		return nil
	}
	out := []string{cl.WorkDir + "/" + name}
	for _, dir := range strings.Split(pathEnv, ":") {
		switch {
		case dir == "":
		case dir[0] == '.':
			out = append(out, cl.WorkDir+"/"+dir+"/"+name)
		default:
			out = append(out, dir+"/"+name)
		}
	}
	return out
}
