package command

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
	"github.com/loamhpc/loam/pkg/syserr"
)

// adminClient is what scontrol's write batch_script, setdebug,
// setdebugflags and shutdown need of the controller; *client.Client
// has it.
type adminClient interface {
	JobScript(ctx context.Context, req *api.JobScriptRequest) (*api.JobScriptResponse, error)
	SetDebug(ctx context.Context, req *api.SetDebugRequest) (*api.SetDebugResponse, error)
	Shutdown(ctx context.Context, req *api.ShutdownRequest) (*api.ShutdownResponse, error)
}

func (s *scontrol) adminController() (adminClient, bool) {
	c, ok := s.controller()
	if !ok {
		return nil, false
	}
	a, ok := c.(adminClient)
	if !ok {
		s.fail("scontrol: error: this controller offers no administrative requests\n")
	}
	return a, ok
}

// argCount checks a command's argument count as scontrol does: want
// within [lo, hi] words after the keyword.
func (s *scontrol) argCount(argv []string, lo, hi int) bool {
	switch n := len(argv) - 1; {
	case n < lo:
		s.fail("too few arguments for keyword:%s\n", argv[0])
		return false
	case n > hi:
		s.fail("too many arguments for keyword:%s\n", argv[0])
		return false
	}
	return true
}

// write handles "write batch_script JOBID [FILE|-]" and "write config".
// As in scontrol, a failure to get or write the script is reported but
// leaves the exit status 0.
func (s *scontrol) write(argv []string) {
	switch {
	case len(argv) < 2:
		s.fail("too few arguments for keyword:%s\n", argv[0])
	case abbrev(argv[1], "batch_script", 5):
		if len(argv) > 4 {
			s.fail("too many arguments for keyword:%s\n", argv[0])
			return
		}
		if len(argv) < 3 {
			return // scontrol says nothing without a job id
		}
		file := ""
		if len(argv) == 4 {
			file = argv[3]
		}
		s.writeScript(argv[2], file)
	case argv[1] == "config":
		s.fail("scontrol: error: write config is not supported: Loam's configuration is the files it was given (loam-ctld --check-config prints what it read)\n")
	default:
		s.fail("invalid write argument:%s\n", argv[1])
	}
}

// writeScript writes job ref's script to file: slurm-JOBID.sh when
// empty, standard output for "-".
func (s *scontrol) writeScript(ref, file string) {
	id := atoiJobID(ref)
	c, ok := s.adminController()
	if !ok {
		return
	}
	resp, err := c.JobScript(s.ctx, &api.JobScriptRequest{JobID: id})
	if err != nil {
		s.w.raw("job script retrieval failed: " + errText(err) + "\n")
		return
	}
	if file == "-" {
		s.w.printf("%s", resp.Script)
		return
	}
	if file == "" {
		file = "slurm-" + strconv.FormatUint(uint64(id), 10) + ".sh"
	}
	path := file
	if !filepath.IsAbs(path) {
		path = filepath.Join(s.env.Cwd, path)
	}
	if err := os.WriteFile(path, []byte(resp.Script), 0o666); err != nil {
		s.w.raw("failed to open file `" + file + "`: " + syserr.Strerror(err) + "\n")
		return
	}
	s.w.printf("batch script for job %d written to %s\n", id, file)
}

// setdebug handles "setdebug LEVEL": Slurm's level names or 0-9.
func (s *scontrol) setdebug(argv []string) {
	if !s.argCount(argv, 1, 1) {
		return
	}
	if _, ok := slurmconf.ParseLogLevel(argv[1]); !ok {
		s.fail("invalid debug level: %s\n", argv[1])
		return
	}
	c, ok := s.adminController()
	if !ok {
		return
	}
	if _, err := c.SetDebug(s.ctx, &api.SetDebugRequest{Level: argv[1]}); err != nil {
		s.fail("slurm_set_debug_level error: %s\n", debugErrText(err))
	}
}

// setdebugflags handles "setdebugflags [+|-]NAME...".
func (s *scontrol) setdebugflags(argv []string) {
	if !s.argCount(argv, 1, 1) {
		return
	}
	w := argv[1]
	if w == "" || (w[0] != '+' && w[0] != '-') {
		s.fail("invalid debug flag: %s\nUsage: setdebugflags [+|-]NAME\n", w)
		return
	}
	for _, f := range strings.Split(w[1:], ",") {
		if _, ok := slurmconf.DebugFlagName(f); !ok {
			s.fail("scontrol: error: Invalid DebugFlag: %s\ninvalid debug flag: %s\n", f, w)
			return
		}
	}
	var words []string
	for _, f := range strings.Split(w[1:], ",") {
		words = append(words, w[:1]+f)
	}
	c, ok := s.adminController()
	if !ok {
		return
	}
	if _, err := c.SetDebug(s.ctx, &api.SetDebugRequest{Flags: words}); err != nil {
		s.fail("slurm_set_debug_flags error: %s\n", debugErrText(err))
	}
}

// debugErrText is Slurm's word for a refused setdebug: slurmctld answers
// a non-operator with EPERM.
func debugErrText(err error) string {
	var ae *api.Error
	if errors.As(err, &ae) && ae.Code == api.CodeAccessDenied {
		return "Permission denied"
	}
	return errText(err)
}

// shutdown handles "shutdown [slurmctld|controller]" (the full keyword
// only, as scontrol requires).
func (s *scontrol) shutdown(argv []string) {
	if len(argv) > 2 {
		s.fail("too many arguments for keyword:%s\n", argv[0])
		return
	}
	only := false
	if len(argv) == 2 {
		if argv[1] != "slurmctld" && argv[1] != "controller" {
			s.fail("invalid shutdown argument:%s\n", argv[1])
			return
		}
		only = true
	}
	c, ok := s.adminController()
	if !ok {
		return
	}
	resp, err := c.Shutdown(s.ctx, &api.ShutdownRequest{ControllerOnly: only})
	if err != nil {
		s.fail("slurm_shutdown error: %s\n", errText(err))
		return
	}
	if len(resp.Unreachable) > 0 && !s.quiet {
		s.w.raw("scontrol: warning: node daemons not reached, still running: " + strings.Join(resp.Unreachable, ",") + "\n")
	}
}

// waitJob handles "wait_job JOBID": a running job's nodes are ready as
// soon as it runs (Loam boots no nodes); any other state is "no longer
// running", as slurm_job_node_ready answers for a job not running.
func (s *scontrol) waitJob(argv []string) {
	if !s.argCount(argv, 1, 1) {
		return
	}
	id, err := strconv.ParseUint(argv[1], 10, 32)
	if err != nil || id == 0 {
		s.exit = 1
		s.w.raw("Invalid job_id " + argv[1]) // scontrol ends it without a newline
		return
	}
	c, ok := s.controller()
	if !ok {
		return
	}
	for {
		resp, err := c.Jobs(s.ctx, &api.JobQuery{JobIDs: []string{argv[1]}})
		if err != nil || len(resp.Jobs) == 0 {
			s.fail("scontrol: Problem running job %d\n", id)
			return
		}
		switch resp.Jobs[0].JobState {
		case job.Running, job.Suspended:
			s.w.raw(sprintf("scontrol: Nodes are ready for job %d\n", id))
			return
		case job.Configuring: // its nodes are being set up: ask again
			if s.env.Sleep(s.ctx, time.Second) != nil {
				s.fail("scontrol: Job %d no longer running\n", id)
				return
			}
		default:
			s.fail("scontrol: Job %d no longer running\n", id)
			return
		}
	}
}

// splitSetDebugFlags cuts args before a setdebugflags command: its
// "-NAME" arguments are not options, as scontrol reads them.
func splitSetDebugFlags(args []string) (opts, rest []string) {
	for i, a := range args {
		if !strings.HasPrefix(a, "-") && abbrev(a, "setdebugflags", 9) {
			return args[:i], args[i:]
		}
	}
	return args, nil
}
