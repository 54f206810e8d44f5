package command

import (
	"strconv"

	"github.com/loamhpc/loam/pkg/api"
)

// scontrol commands Loam has no counterpart for. Each checks its
// arguments as scontrol does and then says clearly what Loam lacks,
// failing with status 1, rather than answering "invalid keyword" for a
// command Slurm users know. The flags that only change how scontrol
// prints (all, hide, verbose) are accepted.

// unsupported handles tag if it is one of these commands; false if not.
func (s *scontrol) unsupported(argv []string) bool {
	tag := argv[0]
	switch {
	case abbrev(tag, "abort", 5):
		s.fail("scontrol: error: abort is not supported: Loam's controller does not dump core on request; use shutdown\n")
	case abbrev(tag, "verbose", 4):
		if len(argv) > 1 {
			s.fail("too many arguments for verbose keyword\n")
			break
		}
		s.verbose = true // scontrol_verbose.go
	case abbrev(tag, "cluster", 2):
		if len(argv) > 1 {
			s.fail("scontrol: error: '%s' can't be reached now, or it is an invalid entry for --cluster: Loam serves one cluster\n", argv[1])
		}
	case abbrev(tag, "completing", 2):
		if len(argv) > 1 {
			s.fail("too many arguments for keyword:%s\n", tag)
		}
		s.completing()
	case abbrev(tag, "errnumstr", 2), abbrev(tag, "errnostr", 2):
		s.errnumstr(argv)
	case abbrev(tag, "fsdampeningfactor", 3), abbrev(tag, "fairsharedampeningfactor", 3):
		switch {
		case len(argv) < 2:
			s.fail("too few arguments for keyword:%s\n", tag)
		case len(argv) > 2:
			s.fail("too many arguments for keyword:%s\n", tag)
		default:
			if n, err := strconv.ParseUint(argv[1], 10, 16); err != nil || n == 0 {
				s.fail("invalid dampening factor: %s\n", argv[1])
				return true
			}
			s.fail("scontrol: error: FairShareDampeningFactor is not supported: Loam's fair share comes from tenants.conf\n")
		}
	case abbrev(tag, "reboot_nodes", 3):
		if len(argv) < 2 {
			s.fail("Missing node list. Specify ALL|<NodeList>\n")
			return true
		}
		s.fail("scontrol_reboot_nodes error: RebootProgram isn't supported by Loam\n")
	case abbrev(tag, "cancel_reboot", 3):
		if len(argv) < 2 {
			s.fail("missing argument for keyword:%s\n", tag)
			return true
		}
		s.fail("scontrol: error: no reboot is pending: Loam does not reboot nodes\n")
	case abbrev(tag, "schedloglevel", 3):
		switch {
		case len(argv) < 2:
			s.fail("too few arguments for keyword:%s\n", tag)
		case len(argv) > 2:
			s.fail("too many arguments for keyword:%s\n", tag)
		case argv[1] != "0" && argv[1] != "1" && !abbrev(argv[1], "enable", 6) && !abbrev(argv[1], "disable", 7):
			s.fail("invalid schedlog level: %s\n", argv[1])
		default:
			s.fail("slurm_set_schedlog_level error: Loam has no scheduler log (SlurmSchedLogFile); use setdebug\n")
		}
	case abbrev(tag, "takeover", 8):
		// Slurm checks the arguments against its controller count
		// first; Loam has one controller, so no index is valid.
		switch {
		case len(argv) > 2:
			s.fail("%s: too many arguments\n", tag)
		case len(argv) == 2:
			s.fail("%s: invalid backup controller index (%d)\n", tag, cAtoi(argv[1]))
		default:
			s.fail("slurm_takeover error: no backup controller defined\n")
		}
	default:
		return false
	}
	return true
}

// errnumstr handles "errnumstr N": Loam's errors are named, not
// numbered, so only the argument checks are Slurm's.
func (s *scontrol) errnumstr(argv []string) {
	if len(argv) != 2 {
		s.fail("one arguments required for keyword:%s\n", argv[0])
		return
	}
	if _, err := strconv.Atoi(argv[1]); err != nil {
		s.fail("numeric arguments required for keyword:%s\n", argv[0])
		return
	}
	s.fail("scontrol: error: Loam's errors have names, not Slurm's numbers\n")
}

// completing prints the jobs in the COMPLETING state as scontrol
// completing does: when each ended, how long it has been completing, and
// the nodes it still holds.
func (s *scontrol) completing() {
	c, ok := s.controller()
	if !ok {
		return
	}
	resp, err := c.Jobs(s.ctx, &api.JobQuery{States: []string{"CG"}})
	if err != nil {
		s.fail("slurm_load_jobs error: %s\n", errText(err))
		return
	}
	now := s.env.Now()
	f := s.formatter(now)
	for i := range resp.Jobs {
		j := &resp.Jobs[i]
		secs := max(now.Unix()-j.EndTime, 0)
		var b []byte
		b = appendHMS(b, secs)
		s.w.printf("JobId=%d EndTime=%s CompletingTime=%s Nodes(COMPLETING)=%s\n", j.JobID, f.time(j.EndTime), b, j.Nodes)
	}
}
