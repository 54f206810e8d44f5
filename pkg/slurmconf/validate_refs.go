package slurmconf

import (
	"slices"
	"strings"

	"github.com/loamhpc/loam/pkg/hostlist"
)

func (c *Config) validateTopology(d *diag) {
	t := c.Topology
	if t == nil {
		return
	}
	byName := map[string]*Switch{}
	for i := range t.Switches {
		s := &t.Switches[i]
		if prev, dup := byName[s.Name]; dup {
			invalid(d, s.Pos, "SwitchName="+s.Name, "SwitchName", "switch already defined at %s", prev.Pos)
			continue
		}
		byName[s.Name] = s
	}
	parents := map[string]string{}
	leafOf := map[string]string{}
	for _, s := range t.Switches {
		rec := "SwitchName=" + s.Name
		var unknownSw, unknownNodes []string
		for _, child := range s.Switches {
			switch p, seen := parents[child]; {
			case byName[child] == nil:
				unknownSw = append(unknownSw, child)
			case child == s.Name:
				invalid(d, s.Pos, rec, "Switches", "a switch cannot contain itself")
			case seen && p != s.Name:
				invalid(d, s.Pos, rec, "Switches", "switch %s is already under %s", child, p)
			default:
				parents[child] = s.Name
			}
		}
		for _, n := range s.Nodes {
			if _, ok := c.Node(n); !ok {
				unknownNodes = append(unknownNodes, n)
			} else if leaf, seen := leafOf[n]; seen && leaf != s.Name {
				invalid(d, s.Pos, rec, "Nodes", "node %s is already under switch %s", n, leaf)
			} else {
				leafOf[n] = s.Name
			}
		}
		if len(unknownSw) > 0 {
			invalid(d, s.Pos, rec, "Switches", "unknown switches %s", strings.Join(unknownSw, ","))
		}
		if len(unknownNodes) > 0 {
			invalid(d, s.Pos, rec, "Nodes", "unknown nodes %s", hostlist.Compress(unknownNodes))
		}
	}
	validateSwitchCycles(t, parents, d)
}

// validateSwitchCycles reports each cycle of switches once, at the first
// switch (in file order) that leads into it.
func validateSwitchCycles(t *Topology, parents map[string]string, d *diag) {
	reported := map[string]bool{}
	for _, s := range t.Switches {
		seen := map[string]bool{s.Name: true}
		for p := parents[s.Name]; p != ""; p = parents[p] {
			if !seen[p] {
				seen[p] = true
				continue
			}
			if !reported[p] {
				cycle := []string{p}
				reported[p] = true
				for q := parents[p]; q != p; q = parents[q] {
					cycle = append(cycle, q)
					reported[q] = true
				}
				invalid(d, s.Pos, "SwitchName="+s.Name, "Switches", "switches form a cycle: %s", strings.Join(cycle, " < "))
			}
			break
		}
	}
}

func (c *Config) validateTenants(d *diag) {
	tenants := map[string]*Tenant{}
	for i := range c.Tenants {
		t := &c.Tenants[i]
		rec := "TenantName=" + t.Name
		if prev, dup := tenants[t.Name]; dup {
			invalid(d, t.Pos, rec, "TenantName", "tenant already defined at %s", prev.Pos)
			continue
		}
		tenants[t.Name] = t
		for _, p := range t.Partitions {
			if _, ok := c.Partition(p); !ok {
				invalid(d, t.Pos, rec, "Partitions", "unknown partition %s", p)
			}
		}
		checkWithin(d, t, "Guarantee", t.Guarantee, "GrpTRES", t.GrpTRES)
		checkWithin(d, t, "LendLimit", t.LendLimit, "Guarantee", t.Guarantee)
	}
	c.validateUsers(d, tenants)
	if len(c.Tenants) == 0 {
		return
	}
	for _, p := range c.Partitions {
		for _, a := range p.AllowAccounts {
			if tenants[a] == nil {
				invalid(d, p.Pos, "PartitionName="+p.Name, "AllowAccounts", "unknown tenant %s", a)
			}
		}
		for _, a := range p.DenyAccounts {
			if tenants[a] == nil {
				invalid(d, p.Pos, "PartitionName="+p.Name, "DenyAccounts", "unknown tenant %s", a)
			}
		}
	}
	c.validateGuarantees(d)
}

// checkWithin reports every TRES of small that exceeds its limit in big
// (a TRES absent from big is not limited).
func checkWithin(d *diag, t *Tenant, smallKey string, small TRES, bigKey string, big TRES) {
	for _, k := range small.Names() {
		if lim, ok := big[k]; ok && small[k] > lim {
			invalid(d, t.Pos, "TenantName="+t.Name, smallKey, "%s=%s is above %s %s=%s", k, tresValue(k, small[k]), bigKey, k, tresValue(k, lim))
		}
	}
}

func tresValue(k string, v int64) string { return TRES{k: v}.String()[len(k)+1:] }

func (c *Config) validateUsers(d *diag, tenants map[string]*Tenant) {
	users := map[string]Pos{}
	for _, u := range c.Users {
		rec := "UserName=" + u.Name
		if prev, dup := users[u.Name]; dup {
			invalid(d, u.Pos, rec, "UserName", "user already defined at %s", prev)
			continue
		}
		users[u.Name] = u.Pos
		for _, a := range u.Accounts {
			if tenants[a] == nil {
				invalid(d, u.Pos, rec, "Accounts", "unknown tenant %s", a)
			}
		}
		if u.DefaultAccount != "" && !slices.Contains(u.Accounts, u.DefaultAccount) {
			invalid(d, u.Pos, rec, "DefaultAccount", "%s is not one of its Accounts", u.DefaultAccount)
		}
	}
}

// validateGuarantees reports each TRES whose tenant guarantees add up to
// more than the cluster has.
func (c *Config) validateGuarantees(d *diag) {
	capacity := c.Capacity()
	sum := TRES{}
	for _, t := range c.Tenants {
		for k, v := range t.Guarantee {
			if v == Unlimited || sum[k] == Unlimited || sum[k] > Unlimited-v {
				sum[k] = Unlimited
			} else {
				sum[k] += v
			}
		}
	}
	for _, k := range sum.Names() {
		if k == "billing" || strings.HasPrefix(k, "license/") {
			continue
		}
		if sum[k] > capacity[k] {
			pos := c.Tenants[0].Pos
			invalid(d, Pos{File: pos.File}, "", "Guarantee", "tenant guarantees of %s add up to %s, more than the cluster's %s",
				k, tresValue(k, sum[k]), tresValue(k, capacity[k]))
		}
	}
}

// Capacity returns the cluster's total resources, the ceiling of R6: cpu,
// mem (MB), node, and gres/NAME and gres/NAME:TYPE for every GRES, over all
// nodes except those in state FUTURE.
func (c *Config) Capacity() TRES {
	t := TRES{"cpu": 0, "mem": 0, "node": 0}
	for _, n := range c.Nodes {
		if n.State == "FUTURE" {
			continue
		}
		t["cpu"] += int64(n.CPUs)
		t["mem"] += n.RealMemory
		t["node"]++
		for _, g := range n.GRES {
			t["gres/"+g.Name] += g.Count
			if g.Type != "" {
				t["gres/"+g.Name+":"+strings.ToLower(g.Type)] += g.Count
			}
		}
	}
	return t
}
