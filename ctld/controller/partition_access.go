package controller

import (
	"slices"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// A partition's AllowGroups decide who may submit to it; Hidden and
// AllowGroups together decide who sees it and its jobs in listings that
// do not ask for all (-a), as Slurm's validate_group and part_is_visible.
// Root and SlurmUser pass both.

// privilegedUID reports whether uid is root or SlurmUser, whom Slurm lets
// into every partition whatever its AllowGroups.
func (c *Controller) privilegedUID(uid uint32) bool {
	return uid == 0 || uid == c.confNow().slurmUID
}

// inAllowedGroups reports whether a user whose primary group is gid and
// whose groups are groups belongs to one of p's AllowGroups.
func (c *Controller) inAllowedGroups(p *slurmconf.Partition, uid, gid uint32, groups []uint32) bool {
	if p.AllowGroups == nil || c.privilegedUID(uid) {
		return true
	}
	for _, g := range append([]uint32{gid}, groups...) {
		if slices.Contains(p.AllowGroups, c.users.groupName(g)) {
			return true
		}
	}
	return false
}

// partitionHiddenFrom reports whether p is left out of id's listings.
func (c *Controller) partitionHiddenFrom(p *slurmconf.Partition, id auth.Identity) bool {
	if c.isOperator(id) {
		return false
	}
	return p.Hidden || !c.inAllowedGroups(p, id.UID, id.GID, id.Groups)
}

// hiddenPartitions names the partitions whose jobs a listing for id
// leaves out, decided once per listing: none with -a, when the listing
// names jobs or partitions, or for root and SlurmUser; else those hidden
// from id (nil when none is).
func (c *Controller) hiddenPartitions(cs *confState, q *api.JobQuery, id auth.Identity) map[string]bool {
	if q.All || len(q.JobIDs) > 0 || len(q.Partitions) > 0 || c.isOperator(id) {
		return nil
	}
	var hidden map[string]bool
	for i := range cs.conf.Partitions {
		if p := &cs.conf.Partitions[i]; c.partitionHiddenFrom(p, id) {
			if hidden == nil {
				hidden = map[string]bool{}
			}
			hidden[p.Name] = true
		}
	}
	return hidden
}

// jobHidden reports whether every partition of r is in hidden: squeue
// and scontrol show job then leave r out.
func jobHidden(r *jobRecord, hidden map[string]bool) bool {
	if hidden == nil {
		return false
	}
	if len(r.St.Partitions) == 0 {
		return hidden[r.St.Partition]
	}
	for _, name := range r.St.Partitions {
		if !hidden[name] {
			return false
		}
	}
	return true
}

// admitGroups drops the candidate partitions whose AllowGroups exclude
// the job's user; none left is Slurm's refusal.
func (c *Controller) admitGroups(cs *confState, a *admitted) *api.Error {
	r := a.req
	return narrow(a, func(p *slurmconf.Partition) *api.Error {
		if c.inAllowedGroups(p, r.UserID, r.GroupID, a.groups) {
			return nil
		}
		return api.NewError(api.CodePartitionGroup)
	}, cs)
}
