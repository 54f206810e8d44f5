package command

import (
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// sinfoLongOnlyCols are the -O fields that have no % letter in Slurm
// 22.05. Nodes share a line only when their AllocMem, GresUsed and
// StateComplete agree; Port splits lines only under -e, as in Slurm.
var sinfoLongOnlyCols = []sinfoCol{
	{names: []string{"allocmem"}, header: "ALLOCMEM", match: func(m *sinfoMatch) { m.allocMem = true },
		val: firstVal(func(n *api.Node) string { return strconv.FormatInt(n.AllocMemory, 10) })},
	{names: []string{"comment"}, header: "COMMENT", match: func(m *sinfoMatch) { m.comment = true },
		val: firstVal(func(n *api.Node) string { return orDefault(n.Comment, "(null)") })},
	{names: []string{"extra"}, header: "EXTRA", match: func(m *sinfoMatch) { m.extra = true },
		val: firstVal(func(n *api.Node) string { return orDefault(n.Extra, "(null)") })},
	{names: []string{"gresused"}, header: "GRES_USED", match: func(m *sinfoMatch) { m.gresUsed = true },
		val: firstVal(sinfoGRESUsed)},
	{names: []string{"nodehost"}, header: "HOSTNAMES", hdrNoCut: true, nodeWide: true, match: func(m *sinfoMatch) { m.hostnames = true },
		val: func(r *sinfoRec, _ *sinfoPrinter) string {
			return hostField(r, func(n *api.Node) string { return n.Hostname })
		}},
	{names: []string{"port"}, header: "PORT", match: func(m *sinfoMatch) { m.port = true },
		val: firstVal(func(n *api.Node) string { return strconv.Itoa(n.Port) })},
	{names: []string{"statecomplete"}, header: "STATECOMPLETE", match: func(m *sinfoMatch) { m.state = true },
		val: stateComplete},
}

// sinfoGRESUsed is GresUsed as sinfo prints it: the node record's string,
// as scontrol -d prints it ("gpu:8" untyped, "gpu:h100:2(IDX:0-1)" typed);
// a node without GPUs prints "gpu:0".
func sinfoGRESUsed(n *api.Node) string {
	return gresUsed(n)
}

// stateComplete is the node's base state and every flag, lower case and
// joined by "+" ("idle+drain"), as Slurm's node_state_string_complete.
func stateComplete(r *sinfoRec, _ *sinfoPrinter) string {
	if len(r.nodes) == 0 {
		return "n/a"
	}
	n := r.first
	base := n.State
	if base == api.NodeMixed && slices.Contains(n.StateFlags, api.FlagDrain) {
		base = api.NodeAllocated // draining: never MIXED in sinfo (nodeStateNum)
	}
	s := strings.ToLower(base)
	for _, f := range n.StateFlags {
		s += "+" + strings.ToLower(f)
	}
	return s
}
