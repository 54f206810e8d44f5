package controller

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// Authorization (R19), as Slurm's defaults: everyone may see every job
// (PrivateData unset); only a job's owner, root, SlurmUser and the node
// daemons may act on it; only operators may change nodes, reconfigure,
// raise priorities or lower nice values.

// isOperator reports whether id may do everything: root, SlurmUser or a
// node daemon (which holds the cluster key).
func (c *Controller) isOperator(id auth.Identity) bool {
	switch id.Via {
	case auth.ViaDaemon:
		return true
	case auth.ViaPeerCred, auth.ViaCredential:
		return c.privilegedUID(id.UID) // partition_access.go
	}
	return false
}

// canModify reports whether id may cancel, hold, release, update or
// requeue r.
func (c *Controller) canModify(id auth.Identity, r *jobRecord) bool {
	return c.isOperator(id) || (id.Via != auth.ViaDaemon && r.Req.UserID == id.UID)
}

// canSee reports whether id may see r. Slurm's default PrivateData shows
// every job to everyone; PrivateData=jobs only one's own
// (privatedata.go).
func (c *Controller) canSee(id auth.Identity, r *jobRecord) bool {
	return ownsJob(id, r) || !c.hides(id, slurmconf.PrivateJobs)
}

// requireOperator refuses a non-operator.
func (c *Controller) requireOperator(id auth.Identity, what string) *api.Error {
	if c.isOperator(id) {
		return nil
	}
	return api.Errorf(api.CodeAccessDenied, "%s is reserved to root and SlurmUser", what)
}

// requireAdmin refuses a non-operator one of slurmctld's administrative
// requests (node, partition and reservation changes, reconfigure) as it
// does: ESLURM_USER_ID_MISSING, which scontrol shows as "Invalid user id"
// (the peer's "slurm_update error: Invalid user id" for a user's
// State=RESUME).
func (c *Controller) requireAdmin(id auth.Identity) *api.Error {
	if c.isOperator(id) {
		return nil
	}
	return api.NewError(api.CodeUserIDMissing)
}
