package controller

// requeues reports whether preemption or a node failure puts r back in
// the queue: a batch job whose Requeue flag is set. An interactive job
// (srun, salloc) shows the flag, set from JobRequeue as Slurm sets it,
// but its client would not know of a new run, so it never requeues
// (Slurm also requeues batch jobs only).
func requeues(r *jobRecord) bool {
	return r.St.Requeue && r.Req.Script != ""
}
