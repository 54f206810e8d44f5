package jobopt

import "strings"

// -M/--clusters (and sbatch's --cluster): Slurm's commands look the names
// up in the accounting database, and without one (Loam has none, and
// serves one cluster) every name, the local one included, is refused once
// the options are read, after their own checks: the peer's sbatch -M x
// prints "Problem talking to database" and that 'x' can't be reached,
// exit status 1 (SLURM_EXIT_ERROR), and submits nothing. Loam used to
// ignore -M, so a job meant for another cluster ran here.

// setClusters records the last -M value.
func setClusters(b *builder, v value) error {
	s := v.str
	b.clusters = &s
	return nil
}

// refuseClusters is the refusal of a -M the options gave, or nil.
func (b *builder) refuseClusters() error {
	if b.clusters == nil {
		return nil
	}
	second := "'" + *b.clusters + "' can't be reached now, or it is an invalid entry for --cluster.  " +
		"Use 'sacctmgr list clusters' to see available clusters."
	if strings.EqualFold(*b.clusters, "all") {
		second = "No clusters can be reached now. Contact your admin to resolve the problem."
	}
	return b.exitError("Problem talking to database", second)
}
