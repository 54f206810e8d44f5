package sched

// --prefer (Slurm 22.05): features tried in place of -C first; when no
// node set with them can start the job now, -C alone. slurmctld queues a
// job with a preference twice, the preferred record first and tested for
// a start now only (backfill makes it TEST_NOW_ONLY), so a job never
// waits, reserves or preempts for its preference: reservations,
// preemption and estimates keep to the -C demand. Here a demand carries
// the preferred requests beside it (demand.pref), resolved once per
// cycle like the demand, and tryStart places them before the demand
// itself. A job without --prefer has none and pays nothing.

// preferDemands fills d.pref with pj's preferred shape on p, one demand
// for each option of a matching OR in --prefer. An option p can never
// run is left out: the job then runs with -C alone.
func (c *cycle) preferDemands(d *demand, pj *PendingJob, p *partInfo, feas *feasCache) {
	ps := pj.Shape.Preferred
	alts := 1
	if ps.Constraint != nil {
		alts = ps.Constraint.Alternatives()
	}
	for alt := range alts {
		pd, r := c.checkShape(pj, ps, p, feas, alt) // static.go
		if r != "" {
			continue
		}
		pd.grown = nil // a -w job's growth keeps to -C (growth.go)
		d.pref = append(d.pref, pd)
	}
}

// placePreferred places the first of d's preferred requests that the
// job's limits allow and that starts now, with the GPUs of it owned; nil
// when none does.
func (c *cycle) placePreferred(j *jobInfo, part int32, d *demand, end tick, own int32) ([]pick, int64) {
	for i := range d.pref {
		pd := &d.pref[i]
		if picks, owned := c.placeWide(j, part, pd, end, own); picks != nil { // pass.go
			return picks, owned
		}
		if picks, owned := c.placeAdmitted(j, part, pd, end, own); picks != nil {
			return picks, owned
		}
	}
	return nil, 0
}
