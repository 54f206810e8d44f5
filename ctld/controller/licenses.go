package controller

import (
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// Licenses (slurm.conf Licenses=, -L/--licenses): a job's request is
// checked against the configured licenses at submit and on scontrol
// update, as Slurm 22.05's license_validate does: every name must be
// configured and no count may exceed its total; '|' ("any of", newer
// Slurm) and '@' (remote licenses) are refused. The scheduler counts them
// (pkg/sched/licenses.go).

// validLicenses reports whether spec may be asked of conf's licenses.
func validLicenses(conf *slurmconf.Config, spec string) bool {
	if spec == "" {
		return true
	}
	lics, ok := slurmconf.ParseLicenses(spec)
	if !ok {
		return false
	}
	for _, l := range lics {
		total, found := licenseTotal(conf, l.Name)
		if !found || l.Count > total {
			return false
		}
	}
	return true
}

func licenseTotal(conf *slurmconf.Config, name string) (int64, bool) {
	for _, l := range conf.Licenses {
		if l.Name == name {
			return l.Count, true
		}
	}
	return 0, false
}

// checkLicenses refuses at submit a job whose -L names an unknown license
// or more than exist, with the peer's "Invalid license specification";
// like the peer it uses up no job id.
func checkLicenses(cs *confState, a *admitted) *api.Error {
	if validLicenses(cs.conf, a.req.Licenses) {
		return nil
	}
	return &api.Error{Code: api.CodeInvalidLicenses, Message: api.NewError(api.CodeInvalidLicenses).Message, NoID: true}
}

// updateJobLicenses applies Licenses= to q, a pending job's next request
// ("" clears it). Slurm also lets an operator change a running job's
// licenses; Loam refuses that as it refuses other changes to what a
// running job holds.
func (c *Controller) updateJobLicenses(r *jobRecord, q *job.Request, u *api.JobUpdate) *api.Error {
	if u.Licenses == nil {
		return nil
	}
	if !r.pending() {
		return api.NewError(api.CodeJobNotPending)
	}
	if !validLicenses(c.confNow().conf, *u.Licenses) {
		return api.NewError(api.CodeInvalidLicenses)
	}
	q.Licenses = *u.Licenses
	return nil
}
