package controller

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/slurmtime"
	"github.com/loamhpc/loam/pkg/store"
)

// Administrators' advance reservations (scontrol create reservation), as
// Slurm 22.05 keeps them: a named window of nodes for some users and/or
// accounts. The controller validates and stores them (advresv_api.go),
// gives the scheduler the windows before every cycle, checks
// --reservation at submit, and deletes a reservation at its end time, or
// moves a recurring one to its next window (advresv_recur.go).
// The scheduler's own reservations for blocked jobs (reservation.go,
// named loam_<jobid>) are a different thing, listed next to these.

// advResv is one admin reservation as stored (JSON in the store's
// record). Times are Unix seconds.
type advResv struct {
	Name     string   `json:"name"`
	Start    int64    `json:"start"`
	End      int64    `json:"end"`
	Nodes    []string `json:"nodes"` // expanded, in host-list order
	AllNodes bool     `json:"all_nodes,omitempty"`
	// Counted: the nodes were picked for NodeCnt= rather than named, so
	// Flags= lacks SPEC_NODES, as Slurm shows it.
	Counted   bool     `json:"counted,omitempty"`
	Partition string   `json:"partition,omitempty"`
	Users     []string `json:"users,omitempty"`
	// Groups admit their members (primary or supplementary), checked
	// when a job is submitted or moved into the reservation.
	Groups   []string `json:"groups,omitempty"`
	Accounts []string `json:"accounts,omitempty"`
	// Features is the feature expression the nodes were picked by.
	Features string `json:"features,omitempty"`
	// Flags are the ones Loam implements, in Slurm's order.
	Flags []string `json:"flags,omitempty"`
	// PurgeComp is PURGE_COMP's idle time in seconds.
	PurgeComp int64 `json:"purge_comp,omitempty"`
	// Seq is the number the creation took (Slurm's reservation id):
	// lists are in creation order, as Slurm's.
	Seq uint32 `json:"seq"`
}

// advResvs holds the admin reservations. It has its own lock, taken after
// Controller.mu when both are held, so that submissions check
// --reservation without the controller's lock.
type advResvs struct {
	mu     sync.RWMutex
	byName map[string]*advResv
	next   uint32 // suffix of the next default name
	// idleSince is when each started PURGE_COMP reservation was last seen
	// without a pending or running job (advresv_purge.go). Kept in memory
	// only: a restart starts the idle time again.
	idleSince map[string]int64
}

// flagOrder is Slurm's order of the flags Loam keeps (SPEC_NODES and
// ALL_NODES, which the controller derives, print after WEEKLY).
var flagOrder = []string{api.ResvFlagMaint, api.ResvFlagOverlap, api.ResvFlagIgnoreJobs,
	api.ResvFlagHourly, api.ResvFlagDaily, api.ResvFlagWeekday, api.ResvFlagWeekend, api.ResvFlagWeekly,
	api.ResvFlagStaticAlloc, api.ResvFlagPurgeComp, api.ResvFlagNoHoldJobs}

// unsupportedFlags are Slurm flags Loam refuses rather than ignores:
// FLEX and MAGNETIC change which jobs may use the nodes, REPLACE and
// REPLACE_DOWN need nodes swapped in while the reservation runs.
var unsupportedFlags = []string{"FLEX", "MAGNETIC",
	"PART_NODES", "FIRST_CORES", "TIME_FLOAT", "REPLACE", "REPLACE_DOWN",
	"NO_HOLD_JOBS_AFTER", "ANY_NODES", "LICENSE_ONLY", "NO_MAINT", "NO_FLEX"}

// defaultPurgeComp is Slurm's PURGE_COMP time when none is given.
const defaultPurgeComp = 300

// row is r as the store keeps it.
func (r *advResv) row() (store.AdvResvRow, error) {
	rec, err := json.Marshal(r)
	return store.AdvResvRow{Name: r.Name, End: r.End, Record: rec}, err
}

func (r *advResv) has(flag string) bool { return slices.Contains(r.Flags, flag) }

// allows reports whether a job of user and account may run in r: Slurm
// requires both lists to admit it when both are set; a deny list
// ("-name" entries, advresv_edit.go) admits everyone it does not name.
// groups are the names of the user's primary and supplementary groups.
func (r *advResv) allows(user, account string, groups []string) bool {
	if !listAdmits(r.Users, user) || !listAdmits(r.Accounts, account) {
		return false
	}
	if len(r.Groups) > 0 && !slices.ContainsFunc(groups, func(g string) bool { return slices.Contains(r.Groups, g) }) {
		return false
	}
	return len(r.Users) > 0 || len(r.Accounts) > 0 || len(r.Groups) > 0
}

// overlaps reports whether r and o share a node at some time.
func (r *advResv) overlaps(o *advResv) bool {
	if r.Start >= o.End || o.Start >= r.End {
		return false
	}
	for _, n := range r.Nodes {
		if slices.Contains(o.Nodes, n) {
			return true
		}
	}
	return false
}

// normalizeFlags checks flag names (any case) and returns the ones Loam
// implements in Slurm's order. The error text is the peer's.
func normalizeFlags(in []string) ([]string, *api.Error) {
	var out []string
	for _, f := range in {
		u := strings.ToUpper(strings.TrimSpace(f))
		switch {
		case slices.Contains(flagOrder, u):
			if !slices.Contains(out, u) {
				out = append(out, u)
			}
		case slices.Contains(unsupportedFlags, u):
			return nil, api.Errorf(api.CodeNotSupported, "Loam does not implement the %s reservation flag", u)
		default:
			return nil, api.Errorf(api.CodeBadRequest, "Error parsing flags %s.", f)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return slices.Index(flagOrder, a) - slices.Index(flagOrder, b) })
	return out, nil
}

// shownFlags are r's flags as scontrol prints them: the derived
// SPEC_NODES (named nodes, Nodes=ALL included) and ALL_NODES between
// WEEKLY and STATIC, STATIC_ALLOC as STATIC, PURGE_COMP with its time.
func (r *advResv) shownFlags() []string {
	var out []string
	derived := false
	for _, f := range r.Flags {
		if !derived && slices.Index(flagOrder, f) > slices.Index(flagOrder, api.ResvFlagWeekly) {
			out, derived = append(out, r.nodeFlags()...), true
		}
		switch f {
		case api.ResvFlagStaticAlloc:
			f = "STATIC"
		case api.ResvFlagPurgeComp:
			f += "=" + slurmtime.FormatDuration(time.Duration(r.purgeTime())*time.Second)
		}
		out = append(out, f)
	}
	if !derived {
		out = append(out, r.nodeFlags()...)
	}
	return out
}

// nodeFlags are the flags derived from how r's nodes were given.
func (r *advResv) nodeFlags() []string {
	switch {
	case r.AllNodes:
		return []string{api.ResvFlagSpecNodes, api.ResvFlagAllNodes}
	case r.Counted:
		return nil
	}
	return []string{api.ResvFlagSpecNodes}
}

// purgeTime is PURGE_COMP's idle time in seconds.
func (r *advResv) purgeTime() int64 {
	if r.PurgeComp > 0 {
		return r.PurgeComp
	}
	return defaultPurgeComp
}

// defaultName is Slurm's name for a reservation created without one: the
// first user (else account, else group) and a sequence number.
func defaultName(users, accounts, groups []string, n uint32) string {
	key := "resv"
	switch {
	case len(users) > 0:
		key = users[0]
	case len(accounts) > 0:
		key = accounts[0]
	case len(groups) > 0:
		key = groups[0]
	}
	return key + "_" + strconv.FormatUint(uint64(n), 10)
}

// sortedNodes expands a host list into unique names in host-list order.
func sortedNodes(names []string) []string {
	out := slices.Clone(names)
	slices.SortFunc(out, hostlist.Compare)
	return slices.Compact(out)
}

// activeAt reports whether the reservation's window holds at now.
func (r *advResv) activeAt(now int64) bool { return r.Start <= now && now < r.End }

// lookup returns the reservation named name (read-locked).
func (a *advResvs) lookup(name string) (advResv, bool) {
	a.mu.RLock()
	defer a.mu.RUnlock()
	r, ok := a.byName[name]
	if !ok {
		return advResv{}, false
	}
	return *r, true
}

// sorted returns copies of the reservations in creation order.
func (a *advResvs) sorted() []advResv {
	a.mu.RLock()
	defer a.mu.RUnlock()
	out := make([]advResv, 0, len(a.byName))
	for _, r := range a.byName {
		out = append(out, *r)
	}
	slices.SortFunc(out, func(x, y advResv) int {
		if x.Seq != y.Seq {
			return int(x.Seq) - int(y.Seq)
		}
		return strings.Compare(x.Name, y.Name)
	})
	return out
}

// nodeFlags adds the node state flags of the windows that hold node name
// at now: MAINTENANCE for a maintenance window, RESERVED for any.
func (a *advResvs) nodeFlags(name string, now int64, flags []string) []string {
	a.mu.RLock()
	defer a.mu.RUnlock()
	res, maint := false, false
	for _, r := range a.byName {
		if r.activeAt(now) && slices.Contains(r.Nodes, name) {
			res, maint = true, maint || r.has(api.ResvFlagMaint)
		}
	}
	if maint {
		flags = append(flags, api.FlagMaintenance)
	}
	if res {
		flags = append(flags, api.FlagReserved)
	}
	return flags
}
