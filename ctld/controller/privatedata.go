package controller

import (
	"slices"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// PrivateData (slurm.conf) as Slurm 22.05 applies it, enforced here at
// the API so that no command can show more: root, SlurmUser and the node
// daemons see everything; anyone else sees only their own jobs, steps,
// accounting and usage, and no nodes or partitions at all. Loam has no
// account coordinators, so no one sees another user's jobs through an
// account. Loam has a single configuration: the kinds Slurm reads from
// slurmdbd.conf (sacct's records, sreport, sacctmgr's users and accounts)
// follow slurm.conf's PrivateData too.

// hides reports whether kind is private from id.
func (c *Controller) hides(id auth.Identity, kind string) bool {
	return c.confNow().conf.PrivateData.Has(kind) && !c.isOperator(id)
}

// ownsJob reports whether id submitted r.
func ownsJob(id auth.Identity, r *jobRecord) bool {
	return id.Via != auth.ViaDaemon && r.Req.UserID == id.UID
}

// seeJobs restricts f to the jobs id may see: a hidden job named by id
// counts as missing, as Slurm answers "Invalid job id specified".
func (c *Controller) seeJobs(f *jobFilter, id auth.Identity) {
	if c.hides(id, slurmconf.PrivateJobs) {
		f.see = func(r *jobRecord) bool { return ownsJob(id, r) }
	}
}

// ownUsersOnly narrows f's users to id's own when jobs are private
// (sacct): asking only for others' jobs selects nothing.
func (c *Controller) ownUsersOnly(f *jobFilter, id auth.Identity) {
	if !c.hides(id, slurmconf.PrivateJobs) {
		return
	}
	if f.users != nil && !f.users[id.UID] {
		f.noUser = true
	}
	f.users = map[uint32]bool{id.UID: true}
}

// jobHiddenFrom reports whether job jid exists and id may not see it.
func (c *Controller) jobHiddenFrom(id auth.Identity, jid uint32) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	r := c.jobs[jid]
	return r != nil && !c.canSee(id, r)
}

// refuseHidden answers Slurm's refusal for a kind id may not load at all
// (nodes, partitions): slurm_load_node error: Access/permission denied.
func (c *Controller) refuseHidden(id auth.Identity, kind string) *api.Error {
	if c.hides(id, kind) {
		return api.NewError(api.CodeAccessDenied)
	}
	return nil
}

// seesAdvResv reports whether id may see reservation r: with
// reservations private only those id may use (by user name or by one of
// id's accounts).
func (c *Controller) seesAdvResv(id auth.Identity, r *advResv) bool {
	if !c.hides(id, slurmconf.PrivateReservations) {
		return true
	}
	groups := c.advGroupsOf(r, id.GID, id.Groups)
	if r.allows(id.User, "", groups) {
		return true
	}
	for _, a := range c.accountsOf(id.User) {
		if r.allows(id.User, a, groups) {
			return true
		}
	}
	return false
}

// seesJobResv reports whether id may see the reservation job r holds:
// with jobs or reservations private only the owner's own.
func (c *Controller) seesJobResv(id auth.Identity, r *jobRecord) bool {
	return ownsJob(id, r) || !(c.hides(id, slurmconf.PrivateJobs) || c.hides(id, slurmconf.PrivateReservations))
}

// accountsOf lists the accounts (tenants) tenants.conf gives user.
func (c *Controller) accountsOf(user string) []string {
	conf := c.confNow().conf
	for i := range conf.Users {
		if conf.Users[i].Name == user {
			return conf.Users[i].Accounts
		}
	}
	return nil
}

// privateShares keeps the rows of sshare id may see: with usage private
// only id's own user rows (no account rows), as the peer answers.
func (c *Controller) privateShares(id auth.Identity, rows []api.ShareRow) []api.ShareRow {
	if !c.hides(id, slurmconf.PrivateUsage) {
		return rows
	}
	return slices.DeleteFunc(rows, func(r api.ShareRow) bool { return r.User != id.User })
}

// privateAssocs trims sacctmgr's view: with users private only id's own
// user (and so its associations); with accounts private no account
// definitions at all: Slurm shows them only to their coordinators, and
// Loam has none.
func (c *Controller) privateAssocs(id auth.Identity, out *api.AssocResponse) *api.AssocResponse {
	if c.hides(id, slurmconf.PrivateUsers) {
		out.Users = slices.DeleteFunc(out.Users, func(u api.AssocUser) bool { return u.Name != id.User })
	}
	if c.hides(id, slurmconf.PrivateAccounts) {
		out.Accounts, out.PrivateAccounts = []api.AssocAccount{}, true
	}
	return out
}

// privateDashboard refuses a dashboard token for a user who is not an
// operator while PrivateData is set: the dashboard (like the metrics) is
// an operator's view of every job and node, never filtered.
func (c *Controller) privateDashboard(uid uint32) *api.Error {
	if len(c.confNow().conf.PrivateData) == 0 || c.privilegedUID(uid) {
		return nil
	}
	return api.Errorf(api.CodeAccessDenied, "the dashboard is reserved to root and SlurmUser while PrivateData is set")
}
