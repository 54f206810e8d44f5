package controller

import (
	"slices"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/store"
)

// commitAdvResv validates r (nodes from the host list, "ALL", or count
// free nodes of its partition), names it, stores it and schedules. It
// replaces the reservation named replacing (an update) or adds a new
// one.
func (c *Controller) commitAdvResv(r *advResv, nodes string, count int, replacing string) (any, *api.Error) {
	now := c.now().Unix()
	c.mu.RLock()
	defer c.mu.RUnlock()
	c.adv.mu.Lock()
	defer c.adv.mu.Unlock()
	if c.adv.byName == nil {
		c.adv.byName = map[string]*advResv{}
	}
	// The peer reports an overlap before a duplicate name.
	if err := c.checkAdvResv(r, nodes, count, replacing, now); err != nil {
		return nil, err
	}
	if replacing == "" && r.Name != "" {
		if _, dup := c.adv.byName[r.Name]; dup {
			return nil, api.NewError(api.CodeReservationNameDup)
		}
	}
	next := c.adv.next
	if replacing == "" {
		// Every creation takes a number, as Slurm's reservation ids.
		next = max(next, 1) + 1
		r.Seq = next - 1
		if r.Name == "" {
			r.Name = defaultName(r.Users, r.Accounts, r.Groups, next-1)
			if _, dup := c.adv.byName[r.Name]; dup {
				return nil, api.NewError(api.CodeReservationNameDup)
			}
		}
	}
	row, err := r.row()
	if err != nil {
		return nil, api.Errorf(api.CodeInternal, "%v", err)
	}
	if err := c.store.Update(func(tx *store.Tx) error {
		if err := tx.PutAdvResv(row); err != nil {
			return err
		}
		return tx.SetNextResvSuffix(next)
	}); err != nil {
		return nil, api.Errorf(api.CodeInternal, "%v", err)
	}
	c.adv.next = next
	c.adv.byName[r.Name] = r
	c.log.WithField("reservation", r.Name).WithField("nodes", hostlist.Compress(r.Nodes)).Info("reservation stored")
	c.schedule()
	return &api.AdvResvCreated{Name: r.Name}, nil
}

// checkAdvResv validates a reservation and resolves its nodes, with
// Slurm's errors. The caller holds c.mu (read) and c.adv.mu.
func (c *Controller) checkAdvResv(r *advResv, nodes string, count int, replacing string, now int64) *api.Error {
	steps := []func() *api.Error{
		func() *api.Error { return checkAdvTimes(r, now) },
		func() *api.Error { return checkAdvOwners(r) },
		func() *api.Error { return checkAdvGroups(r) }, // advresv_groups.go
		func() *api.Error { return c.checkAdvPartition(r) },
		func() *api.Error { return c.resolveAdvNodes(r, nodes, count, replacing) },
		func() *api.Error { return c.checkAdvOverlap(r, replacing) },
		func() *api.Error { return c.checkAdvBusy(r) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

func checkAdvTimes(r *advResv, now int64) *api.Error {
	switch {
	case r.Start <= 0 || r.End <= 0:
		return api.Errorf(api.CodeInvalidTimeValue, "a start time and an end time or duration must be given")
	case r.End <= r.Start:
		return api.Errorf(api.CodeInvalidTimeValue, "the reservation ends before it starts")
	case r.End <= now:
		return api.Errorf(api.CodeInvalidTimeValue, "the reservation ends in the past")
	}
	return nil
}

// checkAdvOwners checks that users or accounts are given and that every
// user exists. Accounts are not checked: the peer, without an accounting
// database, accepts any.
func checkAdvOwners(r *advResv) *api.Error {
	if len(r.Users) == 0 && len(r.Accounts) == 0 && len(r.Groups) == 0 {
		return api.Errorf(api.CodeUserIDMissing, "Either Users/Groups and/or Accounts must be specified")
	}
	for _, u := range r.Users {
		if _, ok := lookupUID(strings.TrimPrefix(u, "-")); !ok { // "-name": a deny list
			return api.Errorf(api.CodeUserIDMissing, "no user %q", u)
		}
	}
	if mixedDeny(r.Users) {
		return api.Errorf(api.CodeUserIDMissing, "users both named and denied")
	}
	if mixedDeny(r.Accounts) {
		return api.Errorf(api.CodeInvalidAccount, "accounts both named and denied")
	}
	return nil
}

// mixedDeny reports a list Slurm refuses: some entries denied ("-name"),
// others not.
func mixedDeny(l []string) bool {
	deny := 0
	for _, e := range l {
		if strings.HasPrefix(e, "-") {
			deny++
		}
	}
	return deny > 0 && deny < len(l)
}

func (c *Controller) checkAdvPartition(r *advResv) *api.Error {
	if r.Partition == "" {
		return nil
	}
	if _, ok := c.confNow().parts[r.Partition]; !ok {
		return api.Errorf(api.CodeInvalidPartitionName, "no partition %q", r.Partition)
	}
	return nil
}

// resolveAdvNodes sets r.Nodes from a host list, "ALL" (the partition's
// nodes, or every node), or count nodes of the partition (the default
// one when none is given) that no job and no other reservation uses and
// that pass r's Features= (named nodes only record it, as on the peer).
func (c *Controller) resolveAdvNodes(r *advResv, nodes string, count int, replacing string) *api.Error {
	r.AllNodes = strings.EqualFold(nodes, "ALL")
	switch {
	case r.AllNodes:
		r.Nodes = c.partitionNodes(r.Partition, true)
	case nodes != "":
		names, err := hostlist.Expand(nodes)
		if err != nil {
			return api.Errorf(api.CodeInvalidNodeName, "%v", err)
		}
		for _, n := range names {
			if _, ok := c.nodes[n]; !ok {
				return api.Errorf(api.CodeInvalidNodeName, "no node %q", n)
			}
		}
		r.Nodes = sortedNodes(names)
	case count > 0:
		r.Counted = true
		if r.Partition == "" {
			r.Partition = c.confNow().defPart // Slurm picks from, and shows, the default partition
		}
		return c.pickAdvNodes(r, count, replacing)
	default:
		return api.Errorf(api.CodeInvalidNodeCount, "give Nodes= or NodeCnt=")
	}

	if len(r.Nodes) == 0 {
		return api.Errorf(api.CodeInvalidNodeName, "no nodes")
	}
	return nil
}

// partitionNodes lists a partition's nodes (every node when part is
// empty and all is set; else the default partition's) in host-list order.
func (c *Controller) partitionNodes(part string, all bool) []string {
	cs := c.confNow()
	if part == "" && !all {
		part = cs.defPart
	}
	var out []string
	if p, ok := cs.parts[part]; ok {
		out = slices.Clone(p.Nodes)
	} else {
		for name := range c.nodes {
			out = append(out, name)
		}
	}
	return sortedNodes(out)
}

// pickAdvNodes chooses count nodes that are idle and outside other
// reservations for r's window, in host-list order.
func (c *Controller) pickAdvNodes(r *advResv, count int, replacing string) *api.Error {
	test, err := c.advFeatureTest(r) // advresv_size.go
	if err != nil {
		return err
	}
	var picked []string
	for _, name := range c.partitionNodes(r.Partition, false) {
		if !c.nodeMatches(name, test) {
			continue
		}
		try := *r
		try.Nodes = []string{name}
		if c.checkAdvOverlap(&try, replacing) != nil || c.checkAdvBusy(&try) != nil {
			continue
		}
		if picked = append(picked, name); len(picked) == count {
			r.Nodes = picked
			return nil
		}
	}
	return api.NewError(api.CodeReservationBusy)
}

// checkAdvOverlap refuses a window that shares nodes and time with
// another reservation, unless one of them may overlap (OVERLAP on the new
// one, MAINT on either).
func (c *Controller) checkAdvOverlap(r *advResv, replacing string) *api.Error {
	if r.has(api.ResvFlagOverlap) || r.has(api.ResvFlagMaint) {
		return nil
	}
	for name, o := range c.adv.byName {
		if name == replacing || o.has(api.ResvFlagMaint) {
			continue
		}
		if r.overlaps(o) {
			return api.NewError(api.CodeReservationOverlap)
		}
	}
	return nil
}

// checkAdvBusy refuses nodes where a running job would still run, by its
// time limit, when the window starts; IGNORE_JOBS and MAINT allow it,
// and jobs of the reservation itself (an update) never block it.
func (c *Controller) checkAdvBusy(r *advResv) *api.Error {
	if r.has(api.ResvFlagIgnoreJobs) || r.has(api.ResvFlagMaint) {
		return nil
	}
	for _, name := range r.Nodes {
		n, ok := c.nodes[name]
		if !ok {
			continue
		}
		for id := range n.jobs {
			j := c.jobs[id]
			if j == nil || (r.Name != "" && j.Req.Reservation == r.Name) {
				continue // the reservation's own jobs run in it
			}
			if j.St.TimeLimit < 0 || j.St.Start+j.St.TimeLimit > r.Start {
				return api.NewError(api.CodeReservationBusy)
			}
		}
	}
	return nil
}
