package command

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// An allocation whose job got its nodes but is CONFIGURING (the
// controller's PrologSlurmctld runs) is granted but not ready: salloc
// says "Granted job allocation N" and "Waiting for resource
// configuration" at once and "Nodes X are ready for job" once it runs;
// srun says nothing (with -v "Waiting for nodes to boot ..." and the
// ready line). When the prolog fails the controller cancels the job
// and both say why, in the peer's words and order.

// allocState is what an allocator already told the user.
type allocState struct {
	// queued: "job N queued and waiting for resources" was printed.
	queued bool
	// granted: salloc printed "Granted job allocation N" (configuring).
	granted bool
	// configuring: the job was seen CONFIGURING.
	configuring bool
}

// configuring reports, once, that the job got its nodes and waits for
// their configuration.
func (a *allocator) configuring(al *api.Allocation) {
	if a.st.configuring {
		return
	}
	a.st.configuring = true
	id := u32s(a.id)
	if a.st.queued {
		a.w.raw(a.prog + ": job " + id + " has been allocated resources\n")
	}
	switch {
	case a.prog == "salloc":
		a.st.granted = true
		a.w.raw("salloc: Granted job allocation " + id + "\nsalloc: Waiting for resource configuration\n")
	case a.verbose:
		// Slurm's srun loop for the default SuspendTimeout and ResumeTimeout.
		a.w.raw("srun: Waiting for nodes to boot (delay looping 450 times @ 0.100000 secs x index)\n")
	}
}

// ready reports a job that now runs: "has been allocated resources"
// after a wait in the queue, or salloc's "Nodes X are ready for job"
// after its configuration.
func (a *allocator) ready(al *api.Allocation) {
	switch {
	case a.st.configuring && (a.prog == "salloc" || a.verbose):
		a.w.raw(a.prog + ": Nodes " + al.NodeList + " are ready for job\n")
	case !a.st.configuring && a.st.queued:
		a.w.raw(a.prog + ": job " + u32s(a.id) + " has been allocated resources\n")
	}
}

// configFailed reports a job the controller ended before it ran, for
// al.Cause (a failed PrologSlurmctld), and returns the exit status: 1.
// salloc: the cause, then its allocation revoked; srun: the cause, then
// that the nodes never became ready.
func (a *allocator) configFailed(al *api.Allocation) int {
	a.configuring(al) // the peer's clients saw the grant first
	id := u32s(a.id)
	a.w.raw(a.prog + ": " + al.Cause + "\n")
	if a.prog == "salloc" {
		a.w.raw("salloc: Job allocation " + id + " has been revoked.\n")
		a.w.errf("Job allocation %s has been revoked", id)
		return 1
	}
	a.w.errf("Nodes %s are still not ready", al.NodeList)
	a.w.errf("Something is wrong with the boot of the nodes.")
	return 1
}

// isConfiguring reports a granted job not yet ready.
func isConfiguring(al *api.Allocation) bool {
	return !al.Ended && !al.Ready && al.State == job.Configuring
}
