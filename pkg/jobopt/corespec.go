package jobopt

import "slices"

// --core-spec (-S) and --thread-spec ask for cores or threads of each node
// to be set aside for the system while the job runs. Slurm honours them
// only with AllowSpecResourcesUsage=YES, which Loam does not implement:
// like Slurm with the default (No), sbatch, salloc and srun say they
// ignore the option, once, and go on (exit status 0). The CPUs a node's
// slurm.conf sets aside (CoreSpecCount, CPUSpecList) are left out of every
// job's allocation whatever the job asks.

// setCoreSpec records that -S is ignored.
func setCoreSpec(b *builder, v value) error { b.specIgnored("-S"); return nil }

// setThreadSpec records that --thread-spec is ignored.
func setThreadSpec(b *builder, v value) error { b.specIgnored("--thread-spec"); return nil }

// specIgnored adds the peer's line for option name, once.
func (b *builder) specIgnored(name string) {
	line := b.p.prog() + ": error: Ignoring " + name + " since it's not allowed by configuration (AllowSpecResourcesUsage = No)"
	if !slices.Contains(b.warnings, line) {
		b.warnings = append(b.warnings, line)
	}
}
