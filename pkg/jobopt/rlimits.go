package jobopt

// setPropagate keeps sbatch's --propagate: the listed soft limits (all
// when none is listed, none for NONE) go to the job as the user's request,
// the others not at all (environment adds SLURM_RLIMIT_*).
func setPropagate(b *builder, v value) error {
	s := v.str
	b.propagate = &s
	return nil
}

// setPropagate is srun's --propagate, for the step's SLURM_RLIMIT_*.
func (st *srunState) setPropagate(b *builder, v value) error {
	s := v.str
	st.Propagate = &s
	return nil
}
