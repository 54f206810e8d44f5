package command

// Environment variables the commands read instead of options, as Slurm's
// commands do. Options on the command line win over these.

// squeueEnvFlags applies SQUEUE_* flag variables, read before the
// options (any value, even empty, sets them).
func squeueEnvFlags(env *Env, p *squeueParams) {
	set := func(name string) bool { _, ok := env.Getenv(name); return ok }
	if set("SQUEUE_ARRAY") {
		p.array = true
	}
	if set("SQUEUE_ARRAY_UNIQUE") {
		p.arrayUnique = true
	}
	if set("SQUEUE_PRIORITY") {
		p.priority = true
	}
	if v, ok := env.Getenv("SQUEUE_SORT"); ok {
		p.sort = v
	}
}

// squeueEnvLists applies SQUEUE_* filter variables for filters the
// command line left unset. Like Slurm 22.05, SQUEUE_LICENSES applies only
// when no partition was given.
func squeueEnvLists(env *Env, w *output, p *squeueParams) error {
	if v, ok := env.Getenv("SQUEUE_ACCOUNT"); ok && p.accounts == nil {
		p.accounts = strtok(v, ",")
	}
	if v, ok := env.Getenv("SQUEUE_NAMES"); ok && p.names == nil {
		p.names = strtok(v, ",")
	}
	if v, ok := env.Getenv("SQUEUE_LICENSES"); ok && p.partitions == nil {
		p.licenses = strtok(v, ",")
	}
	if v, ok := env.Getenv("SQUEUE_PARTITION"); ok && p.partitions == nil {
		p.partitions = strtok(v, ",")
	}
	if v, ok := env.Getenv("SQUEUE_QOS"); ok && p.qos == nil {
		p.qos = strtok(v, ",")
	}
	if v, ok := env.Getenv("SQUEUE_STATES"); ok && !p.statesGiven {
		if err := p.setStates(v); err != nil {
			return err
		}
	}
	if v, ok := env.Getenv("SQUEUE_USERS"); ok && !p.usersGiven {
		p.setUsers(env, w, v)
	}
	return nil
}
