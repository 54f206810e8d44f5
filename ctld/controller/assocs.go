package controller

import (
	"context"
	"slices"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// sacctmgr's view: tenants.conf as Slurm's association tree. Loam keeps
// no association tables; the running configuration is the tree, so the
// answer is always what the controller enforces.

// handleAssocs is sacctmgr show account/association/user/cluster.
func (c *Controller) handleAssocs(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var q api.AssocQuery
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	return c.privateAssocs(id, assocTree(c.confNow().conf)), nil // privatedata.go
}

// assocTree maps tenants.conf onto Slurm's association fields: a tenant's
// per-user job counts are its MaxJobs/MaxSubmit (Slurm's account limits
// that every user inherits), and a user's concurrent TRES cap in a tenant
// is that association's GrpTRES.
func assocTree(conf *slurmconf.Config) *api.AssocResponse {
	out := &api.AssocResponse{ClusterName: conf.ClusterName, ControlPort: conf.SlurmctldPort,
		Accounts: []api.AssocAccount{}, Users: []api.AssocUser{}}
	if len(conf.SlurmctldHosts) > 0 {
		out.ControlHost = conf.SlurmctldHosts[0].Addr
	}
	for i := range conf.Tenants {
		t := &conf.Tenants[i]
		out.Accounts = append(out.Accounts, api.AssocAccount{Name: t.Name, Description: t.Description,
			Share: t.Weight, GrpTRES: assocTRES(t.GrpTRES), GrpJobs: assocCount(t.GrpJobs),
			GrpSubmit: assocCount(t.GrpSubmitJobs), MaxJobs: assocCount(t.MaxJobsPerUser),
			MaxSubmit: assocCount(t.MaxSubmitJobsPerUser)})
	}
	for i := range conf.Users {
		u := &conf.Users[i]
		au := api.AssocUser{Name: u.Name, DefaultAccount: u.DefaultAccount,
			Admin: u.Name == "root" || (conf.SlurmUser != "" && u.Name == conf.SlurmUser)}
		if au.DefaultAccount == "" && len(u.Accounts) > 0 {
			au.DefaultAccount = u.Accounts[0]
		}
		for _, a := range slices.Compact(slices.Clone(u.Accounts)) {
			l := conf.UserLimits(u.Name, a)
			au.Assocs = append(au.Assocs, api.AssocUserLimit{Account: a, Share: u.Share,
				GrpTRES: assocTRES(l.TRES), MaxJobs: assocCount(l.Jobs), MaxSubmit: assocCount(l.SubmitJobs)})
		}
		out.Users = append(out.Users, au)
	}
	return out
}

// assocCount is a count limit in the API's terms: unlimited is NoLimit.
func assocCount(n int64) int64 {
	if n == slurmconf.Unlimited || n < 0 {
		return api.NoLimit
	}
	return n
}

// assocTRES is a TRES limit as Slurm prints it: unlimited entries are no
// limit and do not show.
func assocTRES(t slurmconf.TRES) string {
	lim := slurmconf.TRES{}
	for k, v := range t {
		if v != slurmconf.Unlimited {
			lim[k] = v
		}
	}
	return lim.String()
}
