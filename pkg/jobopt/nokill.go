package jobopt

import "strings"

// setNoKill is -k/--no-kill[=set|off|no] (and SBATCH_NO_KILL, SALLOC_NO_KILL,
// SLURM_NO_KILL): words as Slurm's arg_set_no_kill takes them, any case;
// anything else is refused with its message.
func setNoKill(b *builder, v value) error {
	switch {
	case v.reset:
		b.req.NoKill = false
	case !v.has || strings.EqualFold(v.str, "set"):
		b.req.NoKill = true
	case strings.EqualFold(v.str, "off") || strings.EqualFold(v.str, "no"):
		b.req.NoKill = false
	default:
		return b.clientError("Invalid --no-kill specification")
	}
	return nil
}
