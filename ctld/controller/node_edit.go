package controller

import (
	"slices"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// scontrol update NodeName=... Weight=, Features= (AvailableFeatures=),
// ActiveFeatures=, CpuBind= and Gres=. Weight, CpuBind and the available
// features are configuration: the change edits a copy of the running
// configuration and swaps it in (swapConfig), so the scheduler ranks and
// matches nodes, and new steps bind, on the new values at once. As in
// Slurm 22.05 started without -R (whose node state file restores neither
// Weight nor CpuBind then), a restart takes them from slurm.conf again; so
// does a reconfigure (Slurm keeps a changed Weight across a reconfigure,
// Loam does not).

// hasConfigEdit tells whether in changes node configuration.
func hasConfigEdit(in *api.NodeUpdateRequest) bool {
	return in.Weight != nil || in.Features != nil || in.ActiveFeatures != nil || in.GRES != nil || in.CPUBind != nil
}

// editNodes applies in's configuration keys to nodes, all or none. c.mu
// must be held.
func (c *Controller) editNodes(nodes []*nodeRec, in *api.NodeUpdateRequest) *api.Error {
	if in.Weight != nil && *in.Weight < 0 {
		return api.Errorf(api.CodeBadRequest, "weight %d is less than zero", *in.Weight)
	}
	if aerr := checkCPUBind(in.CPUBind); aerr != nil { // step_cpubind.go
		return aerr
	}
	conf := c.confNow().conf
	next := *conf
	next.Nodes = slices.Clone(conf.Nodes)
	active := map[string][]string{}
	for _, n := range nodes {
		i := slices.IndexFunc(next.Nodes, func(nc slurmconf.Node) bool { return nc.Name == n.name })
		if i < 0 {
			return api.Errorf(api.CodeInvalidNodeName, "no node %q", n.name)
		}
		nc := &next.Nodes[i]
		if in.GRES != nil && !sameGRES(*in.GRES, gresConf(nc.GRES)) {
			return api.Errorf(api.CodeInvalidGRES, "%s: Loam does not change a node's GRES at run time", n.name)
		}
		if in.Weight != nil {
			nc.Weight = *in.Weight
		}
		if in.Features != nil {
			nc.Features = slices.Clone(*in.Features)
		}
		if in.CPUBind != nil {
			nc.CPUBind = updatedCPUBind(nc.CPUBind, *in.CPUBind)
		}
		// As slurmctld: the active features, new or current, must be
		// among the available ones, new or current, before Features=
		// makes both the same (so Features=a,b on a node whose active
		// features are gpu is refused).
		act := n.active()
		if in.ActiveFeatures != nil {
			act = *in.ActiveFeatures
			active[n.name] = slices.Clone(act)
		}
		for _, f := range act {
			if !slices.Contains(nc.Features, f) {
				return api.Errorf(api.CodeActiveNotSubset, "active feature %q of %s is not available", f, n.name)
			}
		}
	}
	if in.Weight != nil || in.Features != nil || in.CPUBind != nil {
		if err := c.swapConfig(&next); err != nil {
			return err
		}
	}
	for _, n := range nodes {
		if a, ok := active[n.name]; ok {
			n.activeFeatures = a
		} else if in.Features != nil {
			n.activeFeatures = nil // Features= sets both, as in Slurm
		}
	}
	return nil
}

// sameGRES compares a Gres= value with the node's, "(null)" or empty for
// none.
func sameGRES(v, have string) bool {
	norm := func(s string) string {
		if strings.EqualFold(s, "(null)") {
			return ""
		}
		return strings.ToLower(s)
	}
	return norm(v) == norm(have)
}

// active is the node's active features: the configured ones unless
// scontrol narrowed them.
func (n *nodeRec) active() []string {
	if n.activeFeatures != nil {
		return n.activeFeatures
	}
	return n.conf.Features
}

// resumable refuses State=RESUME of a node with nothing to resume from
// (neither down, drained, failed nor silent), as Slurm answers "Invalid
// node state specified" for an idle node.
func resumable(nodes []*nodeRec, state string) *api.Error {
	if state != "RESUME" {
		return nil
	}
	for _, n := range nodes {
		a := n.admin
		if !a.Down && !a.Drain && !a.Fail && !a.Future && !n.notResponding {
			return api.Errorf(api.CodeInvalidNodeState, "node %s is not down, drained or failed: nothing to resume", n.name)
		}
	}
	return nil
}
