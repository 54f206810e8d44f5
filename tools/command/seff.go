package command

import (
	"context"

	"github.com/loamhpc/loam/pkg/api"
)

// seffUsage is what seff prints (on standard output) for -h and for a
// command line without exactly one job.
const seffUsage = `Usage: seff [Options] <Jobid>
       Options:
       -h    Help menu
       -v    Version
       -d    Debug mode: display raw Slurm data
`

// seffVersion is the version of Slurm's seff whose output Loam's matches.
const seffVersion = "2.1"

// seffArgs is a seff command line: its options and its operands.
type seffArgs struct {
	help, version, debug bool
	operands             []string
}

// parseSeffArgs reads args as Perl's Getopt::Std does for "hvdf:":
// clustered letters, options only before the first operand, "--" ends
// them, -f takes a value (which seff ignores); an unknown letter is
// reported and skipped.
func parseSeffArgs(w *output, args []string) seffArgs {
	var a seffArgs
	i := 0
	for ; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			i++
			break
		}
		if len(arg) < 2 || arg[0] != '-' {
			break
		}
		for k := 1; k < len(arg); k++ {
			switch arg[k] {
			case 'h':
				a.help = true
			case 'v':
				a.version = true
			case 'd':
				a.debug = true
			case 'f':
				if k == len(arg)-1 && i+1 < len(args) {
					i++
				}
				k = len(arg)
			default:
				w.raw("Unknown option: " + string(arg[k]) + "\n")
			}
		}
	}
	a.operands = args[i:]
	return a
}

// Seff runs seff: the CPU and memory efficiency of one job, from the
// accounting (what sacct reads), as Slurm's contrib seff prints it.
func Seff(ctx context.Context, env *Env, args []string) int {
	w := newOutput(env, "seff")
	a := parseSeffArgs(w, args)
	switch {
	case a.version:
		w.printf("seff Version %s\n", seffVersion)
		return w.exit(1)
	case a.help || len(a.operands) != 1:
		w.printf("%s", seffUsage)
		return w.exit(1)
	}
	arg := a.operands[0]
	refs, _, msg := parseAcctJobs(arg) // sacct_steps.go
	if msg != "" {
		w.raw("seff: fatal: " + msg + "\n")
		return w.exit(1)
	}
	c, err := env.Dial(ctx)
	if err != nil {
		w.errf("%s", errText(err))
		return w.exit(1)
	}
	resp, err := c.Accounting(ctx, &api.AcctQuery{JobIDs: refs})
	if err != nil {
		w.errf("Problem talking to the database: %s", errText(err))
		return w.exit(1)
	}
	j := seffPick(resp.Jobs, refs)
	if j == nil {
		w.raw("Job not found.\n")
		return w.exit(2)
	}
	if j.ArrayJobID != 0 && j.ArrayTaskID == nil {
		// The record of an array's tasks that never started on their
		// own: Slurm's task id -2 (NO_VAL), which seff refuses.
		w.raw(sprintf("Badly formatted array jobid %d with task_id = -2\n", j.ArrayJobID))
		return w.exit(3)
	}
	cluster := ""
	if cfg, err := c.Config(ctx); err == nil {
		cluster = cfg.ClusterName
	}
	r := newSeffReport(j, cluster, env.Users)
	if a.debug {
		w.buf = r.appendDebug(w.buf)
	}
	w.buf = r.appendReport(w.buf)
	return w.exit(0)
}

// seffPick is the one record seff reports of those the query matched:
// the job whose own id was asked for (an array's "12" is the task that
// kept id 12, as the database returns it first), else the first.
func seffPick(jobs []api.AcctJob, refs []string) *api.AcctJob {
	if len(jobs) == 0 {
		return nil
	}
	if len(refs) > 0 {
		if ref, err := api.ParseJobRef(refs[0]); err == nil && ref.Tasks == nil {
			for i := range jobs {
				if jobs[i].JobID == ref.JobID {
					return &jobs[i]
				}
			}
		}
	}
	return &jobs[0]
}
