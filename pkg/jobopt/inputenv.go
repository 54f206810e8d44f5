package jobopt

// ExitStatusVar reads an exit status variable (SLURM_EXIT_ERROR,
// SLURM_EXIT_IMMEDIATE) from env as Slurm's clients do: C's atoi of the
// value, so " 5x" is 5; when it is set but reads as 0, the client keeps
// def and says "<name> has zero value" (zero is true). The status is
// what exit(3) leaves of it: its low 8 bits (-1 is 255, 300 is 44).
func ExitStatusVar(env []string, name string, def int) (code int, zero bool) {
	p := Parser{Env: env}
	v, ok := p.getenv(name)
	if !ok {
		return def, false
	}
	n, _ := cStrtol(v)
	if n == 0 {
		return def, true
	}
	return int(uint8(n)), false
}
