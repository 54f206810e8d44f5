package command

import "strings"

// refuseClusters prints what Slurm 22.05's squeue and sinfo print when
// -M/--clusters (or SLURM_CLUSTERS) names clusters and no accounting
// database answers for them: Loam serves one cluster and has no
// federation, so every name, its own included, is refused the same way.
// fromEnv says the names came from SLURM_CLUSTERS.
func refuseClusters(w *output, names string, fromEnv bool) {
	w.errf("Problem talking to database")
	if strings.EqualFold(names, "all") {
		w.errf("No clusters can be reached now. Contact your admin to resolve the problem.")
		return
	}
	from := "--cluster"
	if fromEnv {
		from = "SLURM_CLUSTERS"
	}
	w.errf("'%s' can't be reached now, or it is an invalid entry for %s.  "+
		"Use 'sacctmgr list clusters' to see available clusters.", names, from)
}

// clustersFromEnv refuses SLURM_CLUSTERS as Slurm's squeue and sinfo do,
// before they read their options; it reports whether it did.
func clustersFromEnv(env *Env, w *output) bool {
	v, ok := env.Getenv("SLURM_CLUSTERS")
	if ok {
		refuseClusters(w, v, true)
	}
	return ok
}
