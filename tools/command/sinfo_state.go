package command

import (
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// Slurm's node state numbers: the base state and flag bits. sinfo sorts
// its lines by this number (-t: descending), so drained and draining
// nodes come before mixed, allocated, idle and down ones.
const (
	stUnknown   = 0
	stDown      = 1
	stIdle      = 2
	stAllocated = 3
	stMixed     = 5
	stFuture    = 6
	flagRes     = 0x20
	flagDrain   = 0x200
	flagComp    = 0x400
	flagNoResp  = 0x800
	flagFail    = 0x2000  // scontrol update State=FAIL
	flagMaint   = 0x8000  // in a maintenance reservation's window
	flagPlanned = 1 << 21 // idle and kept for a pending job's reservation
)

// nodeStateNum is a node's state as Slurm's number, as sinfo sees it:
// sinfo makes a partly allocated node MIXED only when it is not draining
// (its _query_server), so a draining one stays ALLOCATED ("-t mix" leaves
// it out, StateComplete "allocated+drain") where scontrol shows MIXED+DRAIN.
func nodeStateNum(n *api.Node) int {
	s := map[string]int{api.NodeDown: stDown, api.NodeIdle: stIdle, api.NodeAllocated: stAllocated,
		api.NodeMixed: stMixed, api.NodeFuture: stFuture}[n.State]
	for _, f := range n.StateFlags {
		switch f {
		case api.FlagDrain:
			s |= flagDrain
		case api.FlagFail:
			s |= flagFail
		case api.FlagCompleting:
			s |= flagComp
		case api.FlagNotResponding:
			s |= flagNoResp
		case api.FlagReserved:
			s |= flagRes
		case api.FlagMaintenance:
			s |= flagMaint
		case api.FlagPlanned:
			s |= flagPlanned
		}
	}
	if s&0xf == stMixed && s&flagDrain != 0 {
		s = s&^0xf | stAllocated
	}
	return s
}

// stateCompact is Slurm's node_state_string_compact for the states Loam
// uses ("DRNG", "DOWN*", "MIX$").
func stateCompact(s int) string {
	return stateName(s, &compactNames)
}

// stateLong is Slurm's node_state_string ("DRAINING", "DOWN*").
func stateLong(s int) string {
	return stateName(s, &longNames)
}

// stateNames are the words of one of Slurm's two state spellings.
type stateNames struct {
	maint, draining, drained, failing, fail, down, alloc, comp, idle, resv, mixed, future, unknown, planned string
}

var compactNames = stateNames{"MAINT", "DRNG", "DRAIN", "FAILG", "FAIL", "DOWN", "ALLOC", "COMP", "IDLE",
	"RESV", "MIX", "FUTR", "UNK", "PLND"}

var longNames = stateNames{"MAINT", "DRAINING", "DRAINED", "FAILING", "FAIL", "DOWN", "ALLOCATED",
	"COMPLETING", "IDLE", "RESERVED", "MIXED", "FUTURE", "UNKNOWN", "PLANNED"}

// stateName spells state s as Slurm 22.05 does. A node in a maintenance
// window shows MAINT unless it is drained, down or running jobs; then
// its state takes a "$", which wins over the "*" of a node that does not
// respond. FAIL states never take the "$", an allocated node whose
// other jobs are completing shows "+", and an idle node the scheduler
// has planned for a pending job shows PLANNED (over RESERVED).
func stateName(s int, n *stateNames) string {
	star := ""
	if s&flagNoResp != 0 {
		star = "*"
	}
	suffix := star
	if s&flagMaint != 0 {
		suffix = "$"
	}
	base := s & 0xf
	comp := s&flagComp != 0
	switch {
	case maintShown(s):
		return n.maint + star
	case s&flagDrain != 0 && (comp || base == stAllocated || base == stMixed):
		return n.draining + suffix
	case s&flagDrain != 0:
		return n.drained + suffix
	case s&flagFail != 0 && (comp || base == stAllocated || base == stMixed):
		return n.failing + star
	case s&flagFail != 0:
		return n.fail + star
	case base == stDown:
		return n.down + suffix
	case base == stAllocated && suffix == "" && comp:
		return n.alloc + "+"
	case base == stAllocated:
		return n.alloc + suffix
	case comp:
		return n.comp + suffix
	case base == stIdle && suffix == "" && s&flagPlanned != 0:
		return n.planned
	case base == stIdle && suffix == "" && s&flagRes != 0:
		return n.resv
	case base == stIdle:
		return n.idle + suffix
	case base == stMixed:
		return n.mixed + suffix
	case base == stFuture:
		return n.future + suffix
	}
	return n.unknown + star
}

// maintShown reports whether a node in a maintenance window shows as
// MAINT: Slurm shows its other state when it is drained, down or running
// jobs.
func maintShown(s int) bool {
	base := s & 0xf
	return s&flagMaint != 0 && s&flagDrain == 0 && base != stAllocated && base != stMixed && base != stDown
}

// sinfoStates are the names sinfo -t accepts and what each selects.
var sinfoStates = map[string]func(n *api.Node, s int) bool{
	"ALLOC":      func(n *api.Node, s int) bool { return n.AllocCPUs > 0 || s&0xf == stAllocated },
	"ALLOCATED":  func(n *api.Node, s int) bool { return n.AllocCPUs > 0 || s&0xf == stAllocated },
	"COMP":       func(_ *api.Node, s int) bool { return s&flagComp != 0 },
	"COMPLETING": func(_ *api.Node, s int) bool { return s&flagComp != 0 },
	"DOWN":       func(_ *api.Node, s int) bool { return s&0xf == stDown },
	"DRAIN":      func(_ *api.Node, s int) bool { return s&flagDrain != 0 },
	"DRAINED":    func(_ *api.Node, s int) bool { return strings.HasPrefix(stateLong(s), "DRAINED") },
	"DRAINING":   func(_ *api.Node, s int) bool { return strings.HasPrefix(stateLong(s), "DRAINING") },
	"DRNG":       func(_ *api.Node, s int) bool { return strings.HasPrefix(stateLong(s), "DRAINING") },
	"FAIL":       func(_ *api.Node, s int) bool { return s&flagFail != 0 },
	"FUTURE":     func(_ *api.Node, s int) bool { return s&0xf == stFuture },
	"FUTR":       func(_ *api.Node, s int) bool { return s&0xf == stFuture },
	"IDLE":       func(_ *api.Node, s int) bool { return s&0xf == stIdle },
	"MIX":        func(_ *api.Node, s int) bool { return s&0xf == stMixed },
	"MIXED":      func(_ *api.Node, s int) bool { return s&0xf == stMixed },
	"NO_RESPOND": func(_ *api.Node, s int) bool { return s&flagNoResp != 0 },
	"MAINT":      func(_ *api.Node, s int) bool { return s&flagMaint != 0 },
	"PLANNED":    func(_ *api.Node, s int) bool { return s&flagPlanned != 0 },
	"RESV":       func(_ *api.Node, s int) bool { return s&flagRes != 0 },
	"RESERVED":   func(_ *api.Node, s int) bool { return s&flagRes != 0 },
	"UNK":        func(_ *api.Node, s int) bool { return s&0xf == stUnknown },
	"UNKNOWN":    func(_ *api.Node, s int) bool { return s&0xf == stUnknown },
	// States Loam's nodes are never in (powered down,
	// rebooting, cloud, ...): sinfo accepts them and they select nothing.
	"NONE": func(*api.Node, int) bool { return false },
}

// sinfoStateNames are the names -t takes, in the order Slurm's
// _node_state_id tries them, each with its sinfoStates key. A name
// matches every one it begins (any case): "-t d" is DOWN, "-t dr"
// DRAIN, "-t m" MIXED and "-t ma" MAINT, as in Slurm.
var sinfoStateNames = []struct {
	names []string
	key   string
}{
	{[]string{"UNK", "UNKNOWN"}, "UNKNOWN"}, {[]string{"DOWN"}, "DOWN"}, {[]string{"IDLE"}, "IDLE"},
	{[]string{"ALLOC", "ALLOCATED"}, "ALLOC"}, {[]string{"?"}, "NONE"}, {[]string{"MIX", "MIXED"}, "MIX"},
	{[]string{"FUTR", "FUTURE"}, "FUTURE"}, {[]string{"PLANNED", "PLND"}, "PLANNED"}, {[]string{"DRAIN"}, "DRAIN"},
	{[]string{"DRAINED"}, "DRAINED"}, {[]string{"RESV", "RESERVED"}, "RESV"}, {[]string{"PERFCTRS", "NPC"}, "NONE"},
	{[]string{"DRAINING", "DRNG"}, "DRAINING"}, {[]string{"COMP", "COMPLETING"}, "COMP"},
	{[]string{"NO_RESPOND"}, "NO_RESPOND"},
	{[]string{"POW_DN", "POWERING_DOWN", "POWERED_DOWN", "POWER_DOWN", "POW_UP", "POWERING_UP"}, "NONE"},
	{[]string{"FAIL"}, "FAIL"}, {[]string{"MAINT"}, "MAINT"}, {[]string{"BOOT^", "REBOOT^", "REBOOT", "BOOT~", "REBOOT~"}, "NONE"},
	{[]string{"CLOUD"}, "NONE"},
}

// sinfoStateKey finds the sinfoStates key of a -t name.
func sinfoStateKey(s string) (string, bool) {
	u := strings.ToUpper(s)
	for _, st := range sinfoStateNames {
		for _, n := range st.names {
			if strings.HasPrefix(n, u) {
				return st.key, true
			}
		}
	}
	return "", false
}

// sinfoValidStates is Slurm 22.05's list after "valid states:", printed
// as it is (its order, the "?" and the repeated "unknown" included) rather
// than built from sinfoStates, which also accepts the short names.
const sinfoValidStates = "unknown,down,idle,allocated,?,mixed,future,drain,drained,draining,no_respond," +
	"reserved,perfctrs,cloud,completing,powering_down,powered_down,power_down,powering_up,fail,maint," +
	"reboot,reboot^,unknown"
