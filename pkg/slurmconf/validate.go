package slurmconf

import (
	"fmt"
	"slices"
	"strings"

	"github.com/loamhpc/loam/pkg/hostlist"
)

// Validate checks the references and sums that span records and files,
// and returns every problem at once (errors.Join of *Error wrapping
// ErrInvalid), or nil. It never modifies c. Checks:
//
//   - ClusterName and at least one SlurmctldHost are set, with no host
//     given twice;
//   - node, partition, switch, tenant and user names are unique, and no
//     two nodes share an address and port;
//   - at most one partition is Default; every partition node exists;
//     DefaultTime <= MaxTime and MinNodes <= MaxNodes;
//   - GRES names are in GresTypes, and where gres.conf has lines for a
//     node's GRES they declare exactly the count slurm.conf's Gres= gives;
//   - topology switches and nodes exist, and the tree has no cycle and no
//     node under two leaf switches;
//   - tenants: users name existing tenants and a DefaultAccount among their
//     Accounts; tenants name existing partitions; partitions' AllowAccounts
//     and DenyAccounts name existing tenants; a tenant's Guarantee fits in
//     its GrpTRES and LendLimit in its Guarantee; the Guarantees of all
//     tenants fit in the cluster.
func (c *Config) Validate() error {
	d := &diag{order: c.order}
	c.validateCluster(d)
	c.validateNodes(d)
	c.validatePartitions(d)
	c.validateGRES(d)
	c.validateTopology(d)
	c.validateTenants(d)
	return d.sortedErr()
}

func invalid(d *diag, pos Pos, rec, key, format string, args ...any) {
	d.errorf(pos, rec, key, ErrInvalid, format, args...)
}

func (c *Config) validateCluster(d *diag) {
	top := Pos{}
	if len(c.Files) > 0 {
		top = Pos{File: c.Files[0]}
	}
	if c.ClusterName == "" {
		invalid(d, top, "", "ClusterName", "not set")
	}
	if len(c.SlurmctldHosts) == 0 {
		invalid(d, top, "", "SlurmctldHost", "not set: no controller")
	}
	seen := map[string]Pos{}
	for _, h := range c.SlurmctldHosts {
		if p, dup := seen[h.Host]; dup {
			invalid(d, h.Pos, "", "SlurmctldHost", "%s already given at %s", h.Host, p)
		}
		seen[h.Host] = h.Pos
	}
}

func (c *Config) validateNodes(d *diag) {
	names := map[string]Pos{}
	endpoints := map[string]string{}
	for _, n := range c.Nodes {
		rec := "NodeName=" + n.Name
		if p, dup := names[n.Name]; dup {
			invalid(d, n.Pos, rec, "NodeName", "node %s already defined at %s", n.Name, p)
			continue
		}
		names[n.Name] = n.Pos
		ep := fmt.Sprintf("%s:%d", n.Addr, n.Port)
		if other, dup := endpoints[ep]; dup {
			invalid(d, n.Pos, rec, "Port", "node %s has the same NodeAddr and Port (%s) as %s", n.Name, ep, other)
		}
		endpoints[ep] = n.Name
	}
}

func (c *Config) validatePartitions(d *diag) {
	names := map[string]Pos{}
	var defaults []string
	for _, p := range c.Partitions {
		rec := "PartitionName=" + p.Name
		if prev, dup := names[p.Name]; dup {
			invalid(d, p.Pos, rec, "PartitionName", "partition %s already defined at %s", p.Name, prev)
		}
		names[p.Name] = p.Pos
		if p.Default {
			defaults = append(defaults, p.Name)
			if len(defaults) > 1 {
				invalid(d, p.Pos, rec, "Default", "more than one Default=YES partition (%s)", strings.Join(defaults, ", "))
			}
		}
		var unknown []string
		for _, n := range p.Nodes {
			if _, ok := c.Node(n); !ok {
				unknown = append(unknown, n)
			}
		}
		if len(unknown) > 0 {
			invalid(d, p.Pos, rec, "Nodes", "unknown nodes %s", hostlist.Compress(unknown))
		}
		if p.DefaultTime > p.MaxTime {
			invalid(d, p.Pos, rec, "DefaultTime", "longer than MaxTime")
		}
		if p.MinNodes > p.MaxNodes {
			invalid(d, p.Pos, rec, "MinNodes", "greater than MaxNodes")
		}
	}
}

func (c *Config) validateGRES(d *diag) {
	types := map[string]bool{}
	for _, t := range c.GresTypes {
		types[t] = true
	}
	reported := map[string]bool{}
	for _, n := range c.Nodes {
		for _, g := range n.GRES {
			if !types[g.Name] && !reported[g.Name] {
				reported[g.Name] = true
				invalid(d, n.Pos, "NodeName="+n.Name, "Gres", "GRES %q is not in GresTypes", g.Name)
			}
		}
	}
	if c.GRESConf == nil {
		return
	}
	for _, r := range c.GRESConf.Records {
		if !types[r.Name] && !reported[r.Name] {
			reported[r.Name] = true
			invalid(d, r.Pos, "Name="+r.Name, "Name", "GRES %q is not in GresTypes", r.Name)
		}
	}
	c.validateGRESCounts(d)
}

// gresMismatch groups nodes whose GRES count disagrees the same way.
type gresMismatch struct {
	pos      Pos
	what     string
	nodes    []string
	declared int64
	count    int64
}

// validateGRESCounts compares slurm.conf Gres= with what gres.conf declares
// for each node, reporting nodes that disagree the same way together.
func (c *Config) validateGRESCounts(d *diag) {
	g := c.GRESConf
	idx := indexGRES(g)
	var groups []*gresMismatch
	byKey := map[string]*gresMismatch{}
	used := make([]bool, len(g.Records))
	for i := range c.Nodes {
		n := &c.Nodes[i]
		for j, recs := range idx.match(n, g) {
			var declared int64
			for _, ri := range recs {
				declared += g.Records[ri].Count
				used[ri] = true
			}
			e := n.GRES[j]
			// No gres.conf line for it: a count-only resource, or one
			// AutoDetect finds; noded checks it when the node registers.
			if len(recs) == 0 || declared == e.Count {
				continue
			}
			what := e.Name
			if e.Type != "" {
				what += ":" + e.Type
			}
			key := fmt.Sprintf("%s|%s|%d|%d", n.Pos, what, declared, e.Count)
			m := byKey[key]
			if m == nil {
				m = &gresMismatch{pos: n.Pos, what: what, declared: declared, count: e.Count}
				byKey[key] = m
				groups = append(groups, m)
			}
			m.nodes = append(m.nodes, n.Name)
		}
	}
	for _, m := range groups {
		invalid(d, m.pos, "NodeName="+hostlist.Compress(m.nodes), "Gres",
			"slurm.conf gives %s:%d but %s declares %d", m.what, m.count, GRESFile, m.declared)
	}
	c.validateGRESRecords(d, used)
}

// validateGRESRecords reports gres.conf lines for named nodes that do not
// exist or have no such GRES in slurm.conf.
func (c *Config) validateGRESRecords(d *diag, used []bool) {
	for ri, r := range c.GRESConf.Records {
		if r.Nodes == nil {
			continue
		}
		var unknown, without []string
		for _, name := range r.Nodes {
			n, ok := c.Node(name)
			switch {
			case !ok:
				unknown = append(unknown, name)
			case !slices.ContainsFunc(n.GRES, func(g GRES) bool { return g.Name == r.Name }):
				without = append(without, name)
			}
		}
		if len(unknown) > 0 {
			invalid(d, r.Pos, "Name="+r.Name, "NodeName", "unknown nodes %s", hostlist.Compress(unknown))
		}
		if len(without) > 0 {
			invalid(d, r.Pos, "Name="+r.Name, "NodeName", "nodes %s have no %s in their slurm.conf Gres=", hostlist.Compress(without), r.Name)
		} else if !used[ri] && len(unknown) == 0 {
			invalid(d, r.Pos, "Name="+r.Name, "Type", "matches no Gres= entry of its nodes")
		}
	}
}
