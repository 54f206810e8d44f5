package jobopt

import "strings"

// SallocNoShellName is the name salloc --no-shell gives a job without
// -J, as the peer's salloc did.
const SallocNoShellName = "no-shell"

// optionVariables are the SLURM_* variables salloc sets for its command
// from the options given, as the peer's salloc set them: what sbatch
// adds for the request (SLURM_CPUS_PER_TASK, SLURM_NTASKS_PER_NODE,
// SLURM_GPUS*, SLURM_DISTRIBUTION...) and SLURM_JOB_ACCOUNT for -A. The
// task count is left to the allocation's own variables.
func (b *builder) optionVariables() []string {
	var env envList
	b.requestVariables(&env)
	if b.req.Account != "" {
		env.set("SLURM_JOB_ACCOUNT", b.req.Account)
	}
	var out []string
	for _, kv := range env.list {
		switch name, _, _ := strings.Cut(kv, "="); name {
		case "SLURM_NTASKS", "SLURM_NPROCS":
		default:
			out = append(out, kv)
		}
	}
	return out
}

// setSallocImmediate reads salloc -I's optional seconds as salloc does:
// no value is 1 (at once), 0 is no -I at all (salloc waits as long as it
// takes), and a value that is not a number of seconds is refused.
func (st *srunState) setSallocImmediate(b *builder, v value) error {
	n := 1
	if v.has && !v.reset {
		m, err := b.parseInt("immediate", v.str, false)
		if err != nil {
			return err
		}
		n = m
	}
	if v.reset || n == 0 {
		st.Immediate = nil
		return nil
	}
	st.Immediate = &n
	return nil
}
