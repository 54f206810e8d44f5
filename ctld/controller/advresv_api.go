package controller

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/store"
)

// advResvRoutes are the admin reservations' endpoints.
func (c *Controller) advResvRoutes() map[string]route {
	return map[string]route{
		api.PathAdvResvCreate: {http.MethodPost, false, c.handleAdvResvCreate},
		api.PathAdvResvUpdate: {http.MethodPost, false, c.handleAdvResvUpdate},
		api.PathAdvResvDelete: {http.MethodPost, false, c.handleAdvResvDelete},
		api.PathAdvResvList:   {http.MethodPost, false, c.handleAdvResvList},
	}
}

// advEngine is the engine hook for admin reservations; engines without it
// (test fakes) schedule as if there were none.
type advEngine interface {
	SetAdminReservations([]sched.AdminReservation)
}

// restoreAdvResvs loads the stored reservations. The ones that ended
// while the controller was down go at the first housekeeping, once the
// jobs are back: their running jobs still end by ResvOverRun
// (advresv_end.go).
func (c *Controller) restoreAdvResvs() error {
	rows, err := c.store.LoadAdvResvs()
	if err != nil {
		return err
	}
	next, err := c.store.NextResvSuffix()
	if err != nil {
		return err
	}
	c.adv.mu.Lock()
	defer c.adv.mu.Unlock()
	c.adv.byName, c.adv.next = make(map[string]*advResv, len(rows)), next
	for _, row := range rows {
		var r advResv
		if err := json.Unmarshal(row.Record, &r); err != nil {
			return fmt.Errorf("reservation %s: %w", row.Name, err)
		}
		c.adv.byName[r.Name] = &r
	}
	return nil
}

// advBeforeCycle ends what the reservations' end times call for
// (advresv_end.go) and hands the reservations to the engine. The caller
// holds c.mu.
func (c *Controller) advBeforeCycle(b *batch) {
	c.checkAdvEnds(b, c.now())
	e, ok := c.eng.(advEngine)
	if !ok {
		return
	}
	list := c.adv.sorted()
	out := make([]sched.AdminReservation, 0, len(list))
	for _, r := range list {
		out = append(out, sched.AdminReservation{Name: r.Name, Start: time.Unix(r.Start, 0).UTC(), End: time.Unix(r.End, 0).UTC(),
			Nodes: r.Nodes, Maint: r.has(api.ResvFlagMaint)})
	}
	e.SetAdminReservations(out)
}

// admitReservation checks --reservation at submit with Slurm's errors:
// the reservation must exist and admit the job's user and account.
func (c *Controller) admitReservation(a *admitted) *api.Error {
	name := a.req.Reservation
	if name == "" {
		return nil
	}
	r, ok := c.adv.lookup(name)
	if !ok {
		return api.NewError(api.CodeReservationInvalid) // Slurm's words alone, as sbatch prints them
	}
	if !r.allows(a.req.UserName, a.account, c.advGroupsOf(&r, a.req.GroupID, a.groups)) {
		return api.NewError(api.CodeReservationAccess)
	}
	return nil
}

func (c *Controller) handleAdvResvCreate(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	if err := c.requireAdmin(id); err != nil {
		return nil, err
	}
	var s api.AdvResvSpec
	if err := decode(body, &s); err != nil {
		return nil, err
	}
	flags, aerr := createFlags(s.Flags)
	if aerr != nil {
		return nil, aerr
	}
	if aerr := c.refuseAdvExtras(s.Licenses, s.CoreCount, s.MaxStartDelay); aerr != nil {
		return nil, aerr
	}
	r := &advResv{Name: s.Name, Start: s.Start, End: s.End, Partition: s.Partition, Users: s.Users,
		Groups: s.Groups, Accounts: s.Accounts, Features: s.Features, Flags: flags}
	if r.has(api.ResvFlagPurgeComp) {
		r.PurgeComp = s.PurgeComp
	}
	return c.commitAdvResv(r, s.Nodes, s.NodeCount, "")
}

func (c *Controller) handleAdvResvUpdate(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	if err := c.requireAdmin(id); err != nil {
		return nil, err
	}
	var u api.AdvResvUpdate
	if err := decode(body, &u); err != nil {
		return nil, err
	}
	old, ok := c.adv.lookup(u.Name)
	if !ok {
		return nil, api.NewError(api.CodeReservationInvalid)
	}
	if aerr := c.refuseAdvExtras(deref(u.Licenses), deref(u.CoreCount), deref(u.MaxStartDelay)); aerr != nil {
		return nil, aerr
	}
	r, nodes, aerr := applyAdvUpdate(old, &u)
	if aerr != nil {
		return nil, aerr
	}
	return c.commitAdvResv(&r, nodes, 0, old.Name)
}

// applyAdvUpdate returns old with u's fields applied and the node list to
// resolve ("" keeps old's nodes).
func applyAdvUpdate(old advResv, u *api.AdvResvUpdate) (advResv, string, *api.Error) {
	r := old
	r.Flags, r.Users, r.Accounts = slices.Clone(old.Flags), slices.Clone(old.Users), slices.Clone(old.Accounts)
	r.Groups = slices.Clone(old.Groups)
	dur := old.End - old.Start
	if u.Start != nil {
		r.Start, r.End = *u.Start, *u.Start+dur
	}
	if u.End != nil {
		r.End = *u.End
	}
	if u.Duration != nil {
		r.End = r.Start + *u.Duration
	}
	if u.DurationChange != nil {
		r.End += *u.DurationChange // checkAdvTimes refuses an end before the start
	}
	if u.Partition != nil {
		r.Partition = *u.Partition
	}
	if u.Features != nil {
		r.Features = *u.Features // recorded; the nodes stay, as in Slurm
	}
	if err := applyAdvEdits(&r, u); err != nil {
		return r, "", err
	}
	switch {
	case !r.has(api.ResvFlagPurgeComp):
		r.PurgeComp = 0
	case u.PurgeComp != nil:
		r.PurgeComp = *u.PurgeComp
	}
	nodes := ""
	if u.Nodes != nil {
		nodes, r.Counted = *u.Nodes, false // named now: SPEC_NODES
	} else if old.AllNodes {
		nodes = "ALL"
	} else {
		nodes = hostlist.Compress(old.Nodes)
	}
	return r, nodes, nil
}

func (c *Controller) handleAdvResvDelete(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	if err := c.requireAdmin(id); err != nil {
		return nil, err
	}
	var d api.AdvResvDelete
	if err := decode(body, &d); err != nil {
		return nil, err
	}
	c.mu.RLock() // the jobs that use it; before c.adv.mu
	defer c.mu.RUnlock()
	inUse := c.advInUse(d.Name)
	c.adv.mu.Lock()
	if _, ok := c.adv.byName[d.Name]; !ok {
		c.adv.mu.Unlock()
		return nil, api.NewError(api.CodeReservationInvalid)
	}
	if inUse {
		c.adv.mu.Unlock()
		return nil, api.NewError(api.CodeReservationInUse)
	}
	err := c.store.Update(func(tx *store.Tx) error { return tx.DeleteAdvResv(d.Name) })
	if err == nil {
		delete(c.adv.byName, d.Name)
		delete(c.adv.idleSince, d.Name)
	}
	c.adv.mu.Unlock()
	if err != nil {
		return nil, api.Errorf(api.CodeInternal, "%v", err)
	}
	c.log.WithField("reservation", d.Name).Info("reservation deleted")
	c.schedule()
	return &api.AdvResvCreated{Name: d.Name}, nil
}

func (c *Controller) handleAdvResvList(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var q api.ResvQuery
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := &api.AdvResvsResponse{Now: c.now().Unix(), Reservations: []api.AdvResv{}}
	for _, r := range c.adv.sorted() {
		if len(q.Names) > 0 && !slices.Contains(q.Names, r.Name) || !c.seesAdvResv(id, &r) {
			continue
		}
		out.Reservations = append(out.Reservations, c.advView(&r))
	}
	return out, nil
}

// advView is r as scontrol show reservation prints it. The caller holds
// c.mu (node capacities).
func (c *Controller) advView(r *advResv) api.AdvResv {
	v := api.AdvResv{Name: r.Name, Start: r.Start, End: r.End, Nodes: hostlist.Compress(r.Nodes),
		NodeCount: len(r.Nodes), Partition: r.Partition, Flags: r.shownFlags(), Users: r.Users, Groups: r.Groups,
		Accounts: r.Accounts, Features: r.Features}
	for _, name := range r.Nodes {
		if n, ok := c.nodes[name]; ok {
			v.CPUs += n.conf.CPUs
			for _, g := range n.conf.GRES {
				if g.Name == "gpu" {
					v.GPUs += int(g.Count)
				}
			}
		}
	}
	return v
}
