package controller

import (
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// preCheckLive runs the admission checks that read live state, under the
// controller's lock: the submit limits of tenant and user, and the
// storage mounts the candidate partitions require.
func (c *Controller) preCheckLive(a *admitted) *api.Error {
	if err := c.checkSubmitLimits(a); err != nil {
		return err
	}
	return c.checkMounts(a)
}

// checkSubmitLimits refuses a job that would take its user past
// MaxSubmitJobs (or the tenant's MaxSubmitJobsPerUser) or its tenant past
// GrpSubmitJobs, counting pending and running jobs (an array's pending
// tasks each count) as Slurm does. Only finite limits cost a scan.
func (c *Controller) checkSubmitLimits(a *admitted) *api.Error {
	conf := c.confNow().conf
	t, ok := conf.Tenant(a.account)
	if !ok {
		return nil
	}
	userLim := conf.UserLimits(a.req.UserName, t.Name).SubmitJobs
	grpLim := t.GrpSubmitJobs
	finite := func(n int64) bool { return n >= 0 && n != slurmconf.Unlimited }
	if !finite(userLim) && !finite(grpLim) {
		return nil
	}
	adding := int64(1)
	if a.array != nil {
		adding = int64(a.array.Count())
	}
	var user, grp int64
	for _, r := range c.jobs {
		if r.finished() || r.St.Account != t.Name {
			continue
		}
		w := int64(weight(r))
		grp += w
		if r.Req.UserName == a.req.UserName {
			user += w
		}
	}
	if finite(userLim) && user+adding > userLim {
		return api.Errorf(api.CodeAccountingPolicy, "user %s has %d jobs in tenant %s: MaxSubmitJobs=%d", a.req.UserName, user, t.Name, userLim)
	}
	if finite(grpLim) && grp+adding > grpLim {
		return api.Errorf(api.CodeAccountingPolicy, "tenant %s has %d jobs: GrpSubmitJobs=%d", t.Name, grp, grpLim)
	}
	return nil
}

// checkMounts refuses a job when, for every candidate partition, no
// registered node of the partition reports all the mounts it requires
// (RequiredMounts): the job could run nowhere. Until a node has
// registered nothing is known and nothing is refused.
func (c *Controller) checkMounts(a *admitted) *api.Error {
	cs := c.confNow()
	return narrow(a, func(p *slurmconf.Partition) *api.Error {
		if missing := c.missingMount(p); missing != "" {
			return api.Errorf(api.CodeMountMissing, "partition %s requires %s, which none of its nodes reports mounted with the others it requires (%s)",
				p.Name, missing, strings.Join(p.RequiredMounts, ","))
		}
		return nil
	}, cs)
}

// missingMount returns "" when some registered node of p reports every
// mount p requires (or no node has reported yet), else a mount the first
// reporting node lacks.
func (c *Controller) missingMount(p *slurmconf.Partition) string {
	if len(p.RequiredMounts) == 0 {
		return ""
	}
	first := ""
	reported := false
	for _, name := range p.Nodes {
		n := c.nodes[name]
		if n == nil || n.report == nil {
			continue
		}
		reported = true
		have := map[string]bool{"/": true}
		for _, m := range n.report.Mounts {
			have[strings.TrimSuffix(m, "/")] = true
		}
		lacks := ""
		for _, m := range p.RequiredMounts {
			if !have[strings.TrimSuffix(m, "/")] {
				lacks = m
				break
			}
		}
		if lacks == "" {
			return ""
		}
		if first == "" {
			first = lacks
		}
	}
	if !reported {
		return ""
	}
	return first
}
