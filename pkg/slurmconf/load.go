package slurmconf

import (
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// Names of the files Load reads beside slurm.conf.
const (
	GRESFile     = "gres.conf"
	TopologyFile = "topology.conf"
	TenantsFile  = "tenants.conf"
)

// Load reads the slurm.conf called name from fsys (as Parse does) and, from
// the same directory, gres.conf and tenants.conf when they exist and
// topology.conf when it exists or TopologyPlugin is topology/tree. It
// returns one Config with gres.conf's devices attached to the nodes, the
// topology, tenants and users, and the warnings of every file.
//
// Paths are fs.FS paths: to read /etc/slurm/slurm.conf with absolute
// Include lines, pass os.DirFS("/") and "etc/slurm/slurm.conf".
//
// Like Parse, Load returns every error at once and a non-nil Config; it
// does not check references between files: call Validate.
func Load(fsys fs.FS, name string) (*Config, error) {
	d := &diag{}
	c := parseSlurmConf(fsys, name, d)
	dir := path.Dir(name)
	top := Pos{File: name}

	if p := path.Join(dir, GRESFile); exists(fsys, p, top, d) {
		g := parseGRES(fsys, p, d)
		c.Files = append(c.Files, g.Files...)
		c.GRESConf = g
		applyGRES(c, g)
	}
	tree := strings.EqualFold(c.TopologyPlugin, "topology/tree")
	if p := path.Join(dir, TopologyFile); exists(fsys, p, top, d) {
		t, files := parseTopology(fsys, p, d)
		c.Files = append(c.Files, files...)
		c.Topology = t
	} else if tree {
		d.errorf(top, "", "TopologyPlugin", ErrInvalid, "topology/tree needs %s beside it", TopologyFile)
	}
	if p := path.Join(dir, TenantsFile); exists(fsys, p, top, d) {
		t := parseTenants(fsys, p, d)
		c.Files = append(c.Files, t.Files...)
		c.Tenants, c.Users = t.Tenants, t.Users
	}
	err := d.sortedErr()
	c.Warnings = d.warnings
	return c, err
}

// exists reports whether name exists in fsys; an error other than "does
// not exist" is reported.
func exists(fsys fs.FS, name string, from Pos, d *diag) bool {
	_, err := fs.Stat(fsys, name)
	switch {
	case err == nil:
		return true
	case errors.Is(err, fs.ErrNotExist):
		return false
	}
	d.add(from, "", "", err)
	return false
}

// applyGRES attaches gres.conf's devices and AutoDetect to the nodes.
func applyGRES(c *Config, g *GRESConf) {
	idx := indexGRES(g)
	for i := range c.Nodes {
		n := &c.Nodes[i]
		if ad, ok := idx.autoDetect[n.Name]; ok {
			n.AutoDetect = ad
		} else {
			n.AutoDetect = g.AutoDetect
		}
		next := map[string]int{}
		for j, recs := range idx.match(n, g) {
			gr := &n.GRES[j]
			for _, ri := range recs {
				r := g.Records[ri]
				for _, file := range r.Files {
					gr.Devices = append(gr.Devices, Device{Index: next[gr.Name], File: file, Cores: r.Cores, Links: r.Links})
					next[gr.Name]++
				}
				gr.Flags = appendNew(gr.Flags, r.Flags...)
			}
		}
	}
}

// gresIndex finds the gres.conf lines of a node without scanning every
// line's node list for every node.
type gresIndex struct {
	global     []int            // records for every node
	byNode     map[string][]int // records naming the node
	autoDetect map[string]string
}

func indexGRES(g *GRESConf) gresIndex {
	idx := gresIndex{byNode: map[string][]int{}, autoDetect: map[string]string{}}
	for i, r := range g.Records {
		if r.Nodes == nil {
			idx.global = append(idx.global, i)
			continue
		}
		for _, n := range r.Nodes {
			if l := idx.byNode[n]; len(l) == 0 || l[len(l)-1] != i {
				idx.byNode[n] = append(l, i)
			}
		}
	}
	for _, a := range g.NodeAutoDetect {
		for _, n := range a.Nodes {
			idx.autoDetect[n] = a.Value
		}
	}
	return idx
}

// match assigns the gres.conf records that apply to node n, in file order,
// to its GRES entries: a record goes to the first entry of the same name
// whose type agrees (either untyped, or equal ignoring case) and is not yet
// full, else to the first entry that agrees. Records that match no entry
// are left out. The result has one list of record indices per entry.
func (idx gresIndex) match(n *Node, g *GRESConf) [][]int {
	recs := append(append([]int(nil), idx.global...), idx.byNode[n.Name]...)
	slices.Sort(recs)
	out := make([][]int, len(n.GRES))
	filled := make([]int64, len(n.GRES))
	for _, ri := range recs {
		r := g.Records[ri]
		j := pickEntry(n.GRES, filled, r)
		if j < 0 {
			continue
		}
		out[j] = append(out[j], ri)
		filled[j] += r.Count
	}
	return out
}

func pickEntry(entries []GRES, filled []int64, r GRESRecord) int {
	first := -1
	for j, e := range entries {
		if e.Name != r.Name || (e.Type != "" && r.Type != "" && !strings.EqualFold(e.Type, r.Type)) {
			continue
		}
		if filled[j] < e.Count {
			return j
		}
		if first < 0 {
			first = j
		}
	}
	return first
}

func appendNew(list []string, items ...string) []string {
	for _, it := range items {
		found := false
		for _, l := range list {
			found = found || l == it
		}
		if !found {
			list = append(list, it)
		}
	}
	return list
}
