package slurmconf

// Partition keys read here: Alternate names the partition that takes the
// submissions of a partition whose State is DRAIN or INACTIVE (followed
// from one partition to the next while each refuses jobs); LLN=YES asks
// the scheduler to place the partition's jobs on its least loaded nodes,
// those with the most idle CPUs, rather than on the tightest fit.

// PartRoute are a partition's Alternate and LLN.
type PartRoute struct {
	// Alternate is a partition name as written; "" for none. It is not
	// checked against the partitions: Slurm refuses a submission that
	// reaches an unknown alternate, not the configuration.
	Alternate string
	LLN       bool
}

// decodePartRoute reads Alternate and LLN.
func decodePartRoute(x *dec, p *PartRoute) {
	x.str("Alternate", &p.Alternate)
	x.boolean("LLN", &p.LLN)
}
