package command

import (
	"bufio"
	"context"
	"errors"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/hostlist"
)

var scontrolOpts = []optSpec{
	{long: "all", short: 'a'},
	{long: "details", short: 'd'},
	{long: "federation"},
	{long: "future", short: 'F'},
	{long: "help", short: 'h'},
	{long: "hide"},
	{long: "local"},
	{long: "cluster", short: 'M', arg: requiredArg},
	{long: "clusters", short: 'M', arg: requiredArg},
	{long: "oneliner", short: 'o'},
	{long: "quiet", short: 'Q'},
	{long: "sibling"},
	{long: "uid", short: 'u', arg: requiredArg},
	{long: "usage"},
	{long: "verbose", short: 'v'},
	{long: "version", short: 'V'},
	// No --json or --yaml: Slurm 22.05's scontrol has neither.
}

// scontrol is one scontrol session: its flags and exit status.
type scontrol struct {
	env    *Env
	w      *output
	ctx    context.Context
	c      Controller
	detail bool
	all    bool // -a: hidden partitions and their jobs too
	one    bool
	quiet  bool
	// verbose: -v or the verbose command (scontrol_verbose.go).
	verbose bool
	exit    int
}

// Scontrol runs scontrol with args and returns its exit status. Without
// a command it reads commands from standard input, one per line.
func Scontrol(ctx context.Context, env *Env, args []string) int {
	w := newOutput(env, "scontrol")
	// As getopt permutes, options may follow the command:
	// "scontrol show job -d 12" shows details.
	args, flagArgs := splitSetDebugFlags(args) // scontrol_admin.go
	opts, operands, err := getopt(env.prog("scontrol"), args, scontrolOpts)
	if err != nil {
		w.lines(err.(*usageError).lines)
		return w.exit(1)
	}
	operands = append(operands, flagArgs...)
	s := &scontrol{env: env, w: w, ctx: ctx}
	_, s.all = env.Getenv("SCONTROL_ALL")
	for _, o := range opts {
		switch o.id {
		case "a":
			s.all = true
		case "d":
			s.detail = true
		case "o":
			s.one = true
		case "Q":
			s.quiet = true
		case "v":
			s.verbose = true
		case "h", "usage":
			w.printf("%s", scontrolHelp)
			return w.exit(0)
		case "V":
			w.printf("%s\n", versionLine)
			return w.exit(0)
		}
	}
	if len(operands) == 0 {
		return w.exit(s.interactive())
	}
	s.run(operands)
	return w.exit(s.exit)
}

// interactive reads commands from standard input until EOF, "exit" or
// "quit". Like Slurm's scontrol (readline), it prompts "scontrol: " on
// standard output and, when standard input is not a terminal, echoes each
// line after the prompt; at end of input the last prompt ends the line.
func (s *scontrol) interactive() int {
	echo := !isTerminal(s.env.Stdin)
	sc := bufio.NewScanner(s.env.Stdin)
	for {
		s.w.printf("scontrol: ")
		s.w.flush()
		if !sc.Scan() {
			s.w.printf("\n")
			break
		}
		line := sc.Text()
		if echo {
			s.w.printf("%s\n", line)
			s.w.flush() // before the command's errors, as readline's echo
		}
		words := strings.Fields(line)
		if len(words) == 0 {
			s.exit = 1 // Slurm's "no input", said only with -v
			continue
		}
		if abbrev(words[0], "exit", 2) || abbrev(words[0], "quit", 4) {
			break
		}
		s.run(words)
		s.w.flush()
	}
	return s.exit
}

// abbrev reports whether tag abbreviates word to at least min letters,
// as scontrol's xstrncasecmp(tag, word, MAX(len(tag), min)) decides.
func abbrev(tag, word string, min int) bool {
	return len(tag) >= min && len(tag) <= len(word) && strings.EqualFold(tag, word[:len(tag)])
}

func (s *scontrol) fail(format string, args ...any) {
	s.exit = 1
	if !s.quiet {
		s.w.raw(sprintf(format, args...))
	}
}

// controller dials once per session.
func (s *scontrol) controller() (Controller, bool) {
	if s.c != nil {
		return s.c, true
	}
	c, err := s.env.Dial(s.ctx)
	if err != nil {
		s.fail("scontrol: error: %s\n", errText(err))
		return nil, false
	}
	s.c = c
	return c, true
}

// run executes one command line.
func (s *scontrol) run(argv []string) {
	tag := argv[0]
	switch {
	case abbrev(tag, "show", 3):
		s.show(argv)
	case abbrev(tag, "all", 2):
		s.all = true
	case abbrev(tag, "hide", 2): // the default again
		s.all = false
	case abbrev(tag, "details", 1):
		s.detail = true
	case abbrev(tag, "oneliner", 1):
		s.one = true
	case abbrev(tag, "quiet", 4):
		s.quiet = true
	case abbrev(tag, "ping", 3):
		if len(argv) > 1 {
			s.fail("too many arguments for keyword:%s\n", argv[0])
			return
		}
		s.ping()
	case abbrev(tag, "reconfigure", 3):
		s.reconfigure(argv)
	case strings.EqualFold(tag, "requeuehold"):
		s.requeue(argv, true)
	case abbrev(tag, "requeue", 3):
		s.requeue(argv, false)
	case len(tag) >= 4 && (strings.EqualFold(tag[:4], "hold") || (len(tag) >= 5 && strings.EqualFold(tag[:5], "uhold"))),
		abbrev(tag, "release", 3):
		s.hold(argv)
	case abbrev(tag, "create", 2):
		s.create(argv) // scontrol_advresv.go
	case abbrev(tag, "delete", 3):
		s.delete(argv)
	case abbrev(tag, "update", 1):
		if len(argv) < 2 {
			s.fail("too few arguments for %s keyword\n", tag)
			return
		}
		s.update(argv[1:])
	case abbrev(tag, "top", 3):
		s.top(argv)
	case abbrev(tag, "suspend", 2):
		s.suspend(argv, false) // scontrol_suspend.go
	case abbrev(tag, "resume", 3):
		s.suspend(argv, true)
	case strings.EqualFold(tag, "token"):
		s.token(argv)
	case abbrev(tag, "notify", 1):
		s.notify(argv)
	case abbrev(tag, "version", 4):
		if len(argv) > 1 {
			s.fail("too many arguments for %s keyword\n", tag)
		}
		s.w.printf("%s\n", versionLine)
	case abbrev(tag, "help", 2):
		s.w.printf("%s", scontrolHelp)
	case abbrev(tag, "exit", 2), abbrev(tag, "quit", 4):
	// scontrol_admin.go, scontrol_listpids.go, scontrol_unsupported.go:
	case abbrev(tag, "write", 5):
		s.write(argv)
	case abbrev(tag, "setdebugflags", 9):
		s.setdebugflags(argv)
	case abbrev(tag, "setdebug", 2):
		s.setdebug(argv)
	case abbrev(tag, "shutdown", 8):
		s.shutdown(argv)
	case abbrev(tag, "wait_job", 2):
		s.waitJob(argv)
	case abbrev(tag, "listpids", 1):
		s.listpids(argv)
	case abbrev(tag, "pidinfo", 3):
		s.pidinfo(argv)
	case s.unsupported(argv):
	default:
		s.fail("invalid keyword: %s\n", tag)
	}
}

// show handles "show ENTITY [ID]" and "show ENTITY=ID".
func (s *scontrol) show(argv []string) {
	if len(argv) > 3 {
		s.fail("too many arguments for keyword:%s\n", argv[0])
		return
	}
	if len(argv) < 2 {
		s.fail("too few arguments for keyword:%s\n", argv[0])
		return
	}
	tag, val, hasVal := strings.Cut(argv[1], "=")
	if !hasVal && len(argv) == 3 {
		val, hasVal = argv[2], true
	}
	switch {
	case abbrev(tag, "config", 1):
		s.showConfig()
	case abbrev(tag, "hostnames", 5):
		s.hostnames(val, hasVal)
	case abbrev(tag, "hostlistsorted", 9):
		s.hostlist(val, hasVal, true)
	case abbrev(tag, "hostlist", 5):
		s.hostlist(val, hasVal, false)
	case abbrev(tag, "jobs", 1), abbrev(tag, "jobid", 1):
		s.showJob(val, hasVal)
	case abbrev(tag, "nodes", 1):
		s.showNodes(val, hasVal)
	case abbrev(tag, "partitions", 2), abbrev(tag, "partitionname", 2):
		s.showPartitions(val, hasVal)
	case abbrev(tag, "reservations", 1), abbrev(tag, "reservationname", 1):
		s.showReservations(val, hasVal)
	case abbrev(tag, "joblog", 4):
		s.showJobLog(val, hasVal)
	case abbrev(tag, "steps", 2):
		s.showSteps(val, hasVal)
	case abbrev(tag, "suggestions", 3):
		s.showSuggestions()
	case s.showStatic(argv, tag, val, hasVal): // scontrol_info.go
	default:
		s.fail("invalid entity:%s for keyword:%s \n", tag, argv[0])
	}
}

// hostnames prints every name of list, one a line. Without an argument it
// reads SLURM_NODELIST (not SLURM_JOB_NODELIST, as Slurm), and says the list
// is empty when that is unset. A bad list does not fail the command.
func (s *scontrol) hostnames(list string, has bool) {
	if !has {
		v, set := s.env.Getenv("SLURM_NODELIST")
		if !set {
			s.w.raw("scontrol: error: host list is empty\n")
			return
		}
		list = v
	}
	l, err := s.parseHostlist(list)
	if err != nil {
		s.w.raw(hostlistError(err, list))
		return
	}
	for n := range l.All() {
		s.w.printf("%s\n", n)
	}
}

func (s *scontrol) hostlist(list string, has, sorted bool) {
	if !has {
		s.exit = 1 // said even with -Q, as Slurm's
		s.w.raw("invalid encode argument\n")
		s.w.printf("%s", scontrolHelp)
		return
	}
	l, err := s.parseHostlist(list)
	if err != nil {
		s.exit = 1
		s.w.raw(hostlistError(err, list))
		return
	}
	if sorted {
		l.SortSlurm()
	}
	s.w.printf("%s\n", l.String())
}

// hostlistError prints a malformed host list as scontrol does: a range
// Slurm names gets its error line, misplaced brackets only the last line.
func hostlistError(err error, list string) string {
	msg := rangeErrorLine(err)
	if errors.Is(err, hostlist.ErrSyntax) {
		msg = ""
	}
	return msg + "Invalid hostlist: " + list + "\n"
}

// rangeErrorLine is scontrol's line for a range Slurm refuses, or for a
// list past Loam's limits, where Slurm would run out of memory.
func rangeErrorLine(err error) string {
	var re *hostlist.RangeError
	switch {
	case errors.As(err, &re) && re.TooMany:
		return "scontrol: error: _parse_single_range: Too many hosts in range `" + re.Range + "'\n"
	case errors.As(err, &re):
		return "scontrol: error: _parse_single_range: Invalid range: `" + re.Range + "'\n"
	}
	return "scontrol: error: " + err.Error() + "\n"
}

// maxRepeats bounds how often one warning prints (Slurm prints it once per
// name of the groups after the bad one, which can be millions).
const maxRepeats = 1 << 16

// parseHostlist parses list as Slurm's hostlist_create, printing the
// errors Slurm reports and goes past (a bad range two groups or more
// before the last drops its entry only).
func (s *scontrol) parseHostlist(list string) (*hostlist.List, error) {
	l, warnings, err := hostlist.ParseSlurmWarn(list)
	for _, w := range warnings {
		line := rangeErrorLine(w.Err)
		for range min(w.Times, maxRepeats) {
			s.w.raw(line)
		}
	}
	return l, err
}

func (s *scontrol) ping() {
	c, ok := s.controller()
	if !ok {
		return
	}
	resp, err := c.Ping(s.ctx)
	if err != nil {
		s.w.printf("Slurmctld(primary) at %s is DOWN\n", "(unknown)")
		s.exit = 1
		return
	}
	s.w.printf("Slurmctld(primary) at %s is UP\n", resp.Host)
}

func (s *scontrol) reconfigure(argv []string) {
	if len(argv) > 2 {
		s.fail("too many arguments for keyword:%s\n", argv[0])
	}
	c, ok := s.controller()
	if !ok {
		return
	}
	resp, err := c.Reconfigure(s.ctx)
	if err != nil {
		s.fail("slurm_reconfigure error: %s\n", errDetail(err))
		return
	}
	for _, w := range resp.Warnings {
		s.w.raw("scontrol: warning: " + w + "\n")
	}
}

// formatter returns the record formatter for this session's flags.
func (s *scontrol) formatter(now time.Time) *jobFormatter {
	return &jobFormatter{now: now.Unix(), tf: newTimeFormat(s.env, now), tasks: newTaskListFormat(s.env), detail: s.detail, oneLine: s.one}
}
