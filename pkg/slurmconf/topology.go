package slurmconf

import (
	"io/fs"
	"math"
	"strings"
)

// maxSwitches bounds the switches of one topology.conf.
const maxSwitches = 1 << 16

var topologySchema = newSchema("topology.conf", func() []keySpec {
	return join(
		keys(honoured, "SwitchName", "Switches", "Nodes", "LinkSpeed"),
		keys(ignored, "BlockName", "BlockSizes"),
	)
})

// ParseTopology reads the topology.conf called name from fsys: Slurm's tree
// topology, one SwitchName line per switch. The second result holds the
// warnings.
func ParseTopology(fsys fs.FS, name string) (*Topology, []Warning, error) {
	d := &diag{}
	t, _ := parseTopology(fsys, name, d)
	err := d.sortedErr()
	return t, d.warnings, err
}

func parseTopology(fsys fs.FS, name string, d *diag) (*Topology, []string) {
	t := &Topology{}
	r := newReader(fsys, d)
	r.read(name, Pos{File: name})
	for _, rec := range r.records {
		recName := recordName(rec)
		v := topologySchema.check(rec.Fields, recName, d)
		switch first := strings.ToLower(rec.Fields[0].Key); {
		case first == "switchname":
		case first == "blockname" || first == "blocksizes":
			continue // topology/block lines: warned as ignored by check
		default:
			if _, known := topologySchema.keys()[first]; known {
				d.errorf(rec.Pos, recName, rec.Fields[0].Key, ErrSyntax, "a topology.conf line starts with SwitchName=")
			}
			continue
		}
		if len(t.Switches) >= maxSwitches {
			d.errorf(rec.Pos, recName, "SwitchName", ErrBadValue, "more than %d switches", maxSwitches)
			break
		}
		x := &dec{d: d, rec: recName, pos: rec.Pos, v: v}
		t.Switches = append(t.Switches, x.switchLine())
	}
	t.linkParents()
	return t, r.files
}

func (x *dec) switchLine() Switch {
	s := Switch{Pos: x.pos}
	x.str("SwitchName", &s.Name)
	if f, _ := x.get("SwitchName"); s.Name == "" || strings.ContainsAny(s.Name, "[],") {
		x.bad(f, "%q is not a switch name", f.Value)
	}
	s.Nodes = x.hostList("Nodes")
	s.Switches = x.hostList("Switches")
	x.count("LinkSpeed", &s.LinkSpeed, math.MaxUint32)
	return s
}

// hostList expands a host-list value (empty when unset).
func (x *dec) hostList(name string) []string {
	f, ok := x.get(name)
	if !ok || f.Value == "" {
		return nil
	}
	out, err := expandBounded(x.d, f.Value, MaxNodes)
	if err != nil {
		x.bad(f, "%v", err)
		return nil
	}
	return out
}

// linkParents sets each switch's Parent to the first switch that lists it.
func (t *Topology) linkParents() {
	idx := make(map[string]int, len(t.Switches))
	for i, s := range t.Switches {
		if _, dup := idx[s.Name]; !dup {
			idx[s.Name] = i
		}
	}
	for _, s := range t.Switches {
		for _, child := range s.Switches {
			if i, ok := idx[child]; ok && t.Switches[i].Parent == "" && child != s.Name {
				t.Switches[i].Parent = s.Name
			}
		}
	}
}

// Switch returns the switch called name.
func (t *Topology) Switch(name string) (*Switch, bool) {
	for i := range t.Switches {
		if t.Switches[i].Name == name {
			return &t.Switches[i], true
		}
	}
	return nil, false
}

// LeafOf returns the first switch whose Nodes= lists node.
func (t *Topology) LeafOf(node string) (*Switch, bool) {
	for i := range t.Switches {
		for _, n := range t.Switches[i].Nodes {
			if n == node {
				return &t.Switches[i], true
			}
		}
	}
	return nil, false
}
