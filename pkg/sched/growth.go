package sched

// A job given -w and no -N may take more nodes than it names (sbatch
// makes the named hosts the least node count and sets no most), and
// Slurm's node selection adds nodes to the named ones when they are
// busy: the peer runs -w gpu032 -n8 --gpus-per-task=1 -c8 beside a 1-GPU
// job at once on gpu032 and one more node. Such a job's demand carries
// the same request spread over one, two... more nodes; when the named
// nodes cannot start it now, the first of them that starts now is taken
// (the named nodes are always among the picks). Reservations and
// estimates keep to the named nodes.

// maxGrowth bounds how many nodes beyond those named a start may add: a
// demand is resolved for each every cycle, and a job asking for more
// than that many nodes beyond its list is better served waiting for
// them.
const maxGrowth = 4

// growListed fills d.grown for a -w job whose node range goes beyond the
// nodes it names.
func (c *cycle) growListed(d *demand, pj *PendingJob, p *partInfo, feas *feasCache, alt int) {
	sh := &pj.Shape
	if len(sh.NodeList) == 0 || sh.MaxNodes <= d.n || d.counts != nil {
		return
	}
	most := min(sh.MaxNodes, len(p.nodes), d.n+maxGrowth)
	if p.cfg.MaxNodes > 0 {
		most = min(most, p.cfg.MaxNodes)
	}
	for n := d.n + 1; n <= most; n++ {
		g := *sh
		g.Nodes, g.MaxNodes = n, 0
		if gd, r := c.demandOn(pj, &g, p, feas, alt); r == "" {
			d.grown = append(d.grown, gd)
		}
	}
}

// placeGrown places the first of d's grown requests that the job's limits
// allow and that starts now, with the GPUs of it owned; nil when none
// does.
func (c *cycle) placeGrown(j *jobInfo, part int32, d *demand, end tick, own int32) ([]pick, int64) {
	for i := range d.grown {
		if picks, owned := c.placeAdmitted(j, part, &d.grown[i], end, own); picks != nil { // pass.go
			return picks, owned
		}
	}
	return nil, 0
}
