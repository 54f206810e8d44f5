package jobopt

import "strings"

// SallocDefaultName is the name salloc gives a job without -J, as the
// peer's salloc did.
const SallocDefaultName = "interactive"

// Salloc parses salloc's command line: SALLOC_* input variables, then the
// options, up to the command (none: the user's shell).
func (p *Parser) Salloc(args []string) (*StepResult, error) {
	q := *p
	if q.Prog == "" {
		q.Prog = "salloc"
	}
	st := &srunState{}
	res, err := q.parseStep(args, NewTable(inSlurmOrder(sallocOptions(st))), sallocEnvOrder, st, false)
	if err != nil || res.Action != Submit {
		return res, err
	}
	switch {
	case st.Name != "":
	case st.NameGiven: // salloc -J "": the job's name stays empty
		res.Request.EmptyName = true
	case st.NoShell:
		res.Request.Name = SallocNoShellName
	default:
		res.Request.Name = SallocDefaultName
	}
	return res, nil
}

// sallocDrop are sbatch's options salloc does not have.
var sallocDrop = map[string]bool{
	"array": true, "batch": true, "error": true, "export": true, "export-file": true, "ignore-pbs": true,
	"input": true, "kill-on-invalid-dep": true, "no-requeue": true, "open-mode": true, "output": true,
	"parsable": true, "requeue": true, "test-only": true, "wait": true, "wrap": true, "data": true,
	"job-name": true, "propagate": true,
}

// sallocOptions is sbatch's table without its script and output options,
// its SBATCH_* variables read as SALLOC_*, and salloc's own options.
func sallocOptions(st *srunState) []Option {
	var out []Option
	for _, o := range SbatchOptions() {
		if sallocDrop[o.Long] {
			continue
		}
		var names []string
		for _, e := range o.Env {
			if n, ok := strings.CutPrefix(e, "SBATCH_"); ok {
				names = append(names, "SALLOC_"+n)
			} else if e == "SLURM_CLUSTERS" { // salloc reads it too
				names = append(names, e)
			}
		}
		o.Env = names
		out = append(out, o)
	}
	return append(out,
		Option{Long: "bell", Arg: NoArg},
		Option{Long: "no-bell", Arg: NoArg},
		Option{Long: "no-shell", Arg: NoArg, set: st.setNoShell},
		Option{Long: "immediate", Short: 'I', Arg: OptionalArg, Env: env("SALLOC_IMMEDIATE"), set: st.setSallocImmediate},
		Option{Long: "job-name", Short: 'J', Arg: RequiredArg, Env: env("SALLOC_JOB_NAME"), set: st.setJobName},
		Option{Long: "kill-command", Short: 'K', Arg: OptionalArg},
	)
}

// sallocEnvOrder is the order salloc reads its input variables in.
var sallocEnvOrder = func() []string {
	var out []string
	for _, name := range envOrder {
		if n, ok := strings.CutPrefix(name, "SBATCH_"); ok {
			out = append(out, "SALLOC_"+n)
		} else if name == "SLURM_CLUSTERS" { // after SALLOC_CLUSTERS, as in salloc
			out = append(out, name)
		}
	}
	return append(out, "SALLOC_IMMEDIATE")
}()

func (st *srunState) setNoShell(_ *builder, v value) error { st.NoShell = !v.reset; return nil }

// setImmediate reads -I's optional seconds as salloc does (atoi: text is
// 0, at once).
func (st *srunState) setImmediate(_ *builder, v value) error {
	if v.reset {
		st.Immediate = nil
		return nil
	}
	n := 1 // --immediate alone: Slurm's DEFAULT_IMMEDIATE
	if v.has {
		m, _ := cStrtol(v.str)
		n = int(max(m, 0))
	}
	if n == 0 {
		st.Immediate = nil // -I0 waits as without -I (the peer's srun)
		return nil
	}
	st.Immediate = &n
	return nil
}
