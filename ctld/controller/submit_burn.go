package controller

import "github.com/loamhpc/loam/pkg/api"

// idKeptFor are the refusals Slurm makes before it gives the job an id,
// so the next job takes the id the refused one would have had: checked
// on the peer for a bad --array, -p nosuch, -w nosuch (and -w/-x on the
// same node) and an unknown GRES; the account, QOS and partition access
// checks come before the id in Slurm's job creation too. Every other
// refusal (an invalid feature or reservation on the peer, and Loam's
// admission checks, which Slurm makes when it first tries to schedule)
// uses one up.
var idKeptFor = map[api.Code]bool{
	api.CodeInvalidArray:          true,
	api.CodeInvalidPartitionName:  true,
	api.CodeDefaultPartitionUnset: true,
	api.CodeInvalidNodeName:       true,
	api.CodeInvalidGRES:           true,
	api.CodeInvalidAccount:        true,
	api.CodeInvalidQOS:            true,
	api.CodeInvalidLicenses:       true, // checked on the peer
	api.CodeAccessDenied:          true,
	api.CodePartitionGroup:        true, // AllowGroups, checked on the peer
}

// burnIDFor uses up a job id for a refused submission or allocation,
// as Slurm does, unless Slurm refuses it before giving an id. A request
// no node configuration can hold is refused after Slurm created the job,
// and its refusal names the id (the peer's salloc prints "Job allocation
// N has been revoked."); the others do not.
func (c *Controller) burnIDFor(aerr *api.Error) {
	if keepsID(aerr) {
		return
	}
	id := c.burnID()
	if aerr.Code == api.CodeNodeConfigUnavailable {
		aerr.JobID = id
	}
}

// keepsID tells the refusals made before the id. A --deadline already
// passed is one (checked on the peer): it carries Slurm's words alone,
// where a time limit over MaxTime, refused by Loam's admission check
// with a detail, uses an id up like the other admission refusals.
func keepsID(aerr *api.Error) bool {
	return aerr.NoID || idKeptFor[aerr.Code] || (aerr.Code == api.CodeInvalidTimeLimit && aerr.Detail == "")
}
