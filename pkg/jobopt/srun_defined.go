package jobopt

// keepJobName records SLURM_JOB_NAME inside an allocation as srun does:
// the name shows in the -v option block ("job-name : wrap" in a batch
// job), but the step keeps its command's name, so nothing is set.
func (b *builder) keepJobName(name string) {
	if s, ok := b.p.getenv(name); ok {
		b.passed["job-name"] = value{str: s, has: true, src: fromEnv, name: name}
	}
}

// allocNodesLeaders are the options Slurm's table lists before the one
// SLURM_JOB_NODELIST sets.
var allocNodesLeaders = map[string]bool{"accel-bind": true, "account": true, "acctg-freq": true}

// withAllocNodes adds the line srun -v prints for SLURM_JOB_NODELIST. The
// option it sets has no long name, so Slurm prints it as "(null)", after
// --acctg-freq in its table order.
func withAllocNodes(p *Parser, opts []DefinedOption) []DefinedOption {
	nodes, ok := p.getenv("SLURM_JOB_NODELIST")
	if !ok {
		return opts
	}
	i := 0
	for i < len(opts) && allocNodesLeaders[opts[i].Name] {
		i++
	}
	out := append([]DefinedOption(nil), opts[:i]...)
	out = append(out, DefinedOption{Name: "(null)", Value: nodes})
	return append(out, opts[i:]...)
}
