package slurmconf

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/resource"
)

// MaxNodes bounds the nodes one configuration may define, so that a typo
// such as gpu[1-99999999] is an error rather than an out-of-memory.
const MaxNodes = 1 << 16

var nodeSchema = newSchema("NodeName", func() []keySpec {
	return join(
		keys(honoured, "NodeName", "NodeHostname", "NodeAddr", "Port", "CPUs",
			"Boards", "SocketsPerBoard", "Sockets", "CoresPerSocket",
			"ThreadsPerCore", "RealMemory", "TmpDisk", "Gres", "Feature", "Weight",
			"State", "Reason", "CoreSpecCount", "CPUSpecList", "MemSpecLimit", "CpuBind"),
		[]keySpec{
			{name: "Features", alias: "Feature"},
			{name: "Procs", alias: "CPUs"},
		},
		keys(ignored, "BcastAddr", "TRESWeights", "Parameters", "RestrictedCoresPerGPU",
			"Topology", "Extra", "Comment", "InstanceId", "InstanceType"),
	)
})

// lineDefaults accumulates the values of Xxx=DEFAULT lines: a later DEFAULT
// line overrides the keys it sets and keeps the others, as in Slurm.
type lineDefaults struct {
	v values
}

func (ld *lineDefaults) add(v values, recName string) {
	if ld.v == nil {
		ld.v = values{}
	}
	for k, f := range v {
		f.rec = recName
		ld.v[k] = f
	}
}

// apply returns v over the defaults.
func (ld *lineDefaults) apply(v values) values {
	out := make(values, len(ld.v)+len(v))
	for k, f := range ld.v {
		out[k] = f
	}
	for k, f := range v {
		out[k] = f
	}
	return out
}

// nodeLine handles one NodeName line: a DEFAULT line updates the defaults,
// any other line adds its nodes to c.
func nodeLine(rec record, c *Config, defs *lineDefaults, d *diag) {
	spec := rec.Fields[0].Value
	recName := "NodeName=" + spec
	v := nodeSchema.check(rec.Fields, recName, d)
	delete(v, "NodeName")
	switch {
	case strings.EqualFold(spec, "DEFAULT"):
		for _, k := range []string{"NodeHostname", "NodeAddr"} {
			if f, ok := v[k]; ok {
				d.errorf(f.Pos, recName, f.Key, ErrBadValue, "not allowed with NodeName=DEFAULT")
				delete(v, k)
			}
		}
		defs.add(v, "NodeName=DEFAULT")
	case strings.EqualFold(spec, "ALL"):
		d.errorf(rec.Pos, recName, "NodeName", ErrBadValue, "ALL is a reserved word")
	default:
		x := &dec{d: d, rec: recName, pos: rec.Pos, v: defs.apply(v)}
		c.Nodes = append(c.Nodes, buildNodes(x, rec, spec, len(c.Nodes))...)
	}
}

// buildNodes expands one NodeName line into its nodes.
func buildNodes(x *dec, rec record, spec string, have int) []Node {
	names, err := expandBounded(x.d, spec, MaxNodes-have)
	if err != nil {
		x.d.errorf(rec.Pos, x.rec, "NodeName", ErrBadValue, "%v", err)
		return nil
	}
	tmpl := defaultNode()
	tmpl.Pos = rec.Pos
	x.hardware(&tmpl)
	x.nodeMemory("RealMemory", &tmpl.RealMemory)
	x.nodeMemory("TmpDisk", &tmpl.TmpDisk)
	x.decodeCoreSpec(&tmpl) // corespec.go
	x.count("Weight", &tmpl.Weight, math.MaxUint32)
	x.list("Feature", &tmpl.Features)
	x.str("Reason", &tmpl.Reason)
	x.cpuBind(&tmpl.CPUBind) // cpubind.go
	x.nodeState(&tmpl.State)
	x.gres(&tmpl.GRES)

	hosts := x.perNode("NodeHostname", names, names)
	addrs := x.perNode("NodeAddr", names, hosts)
	ports := x.ports(names)
	nodes := make([]Node, len(names))
	for i, n := range names {
		nodes[i] = tmpl
		nodes[i].Name = n
		nodes[i].Hostname = hosts[i]
		nodes[i].Addr = addrs[i]
		nodes[i].Port = ports[i]
		nodes[i].Features = append([]string(nil), tmpl.Features...)
		nodes[i].GRES = append([]GRES(nil), tmpl.GRES...)
		nodes[i].SpecCPUs = slices.Clone(tmpl.SpecCPUs)
	}
	return nodes
}

// maxExpanded bounds the host names one parse may expand in total (node
// lines, addresses, ports, partitions, gres.conf, topology.conf), so that
// many large lists cannot exhaust memory either.
const maxExpanded = 1 << 19

// expandBounded expands a host list that must hold between 1 and limit
// names, counting them against the parse's total.
func expandBounded(d *diag, spec string, limit int) ([]string, error) {
	n, err := hostlist.Count(spec)
	if err != nil {
		return nil, err
	}
	if n > limit {
		return nil, fmt.Errorf("%q holds %d names, more than the %d allowed", abbrev(spec), n, limit)
	}
	if d.expanded += n; d.expanded > maxExpanded {
		return nil, fmt.Errorf("%q: more than %d host names expanded in all", abbrev(spec), maxExpanded)
	}
	names, err := hostlist.Expand(spec)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%q holds no names", spec)
	}
	return names, nil
}

// perNode expands a per-node host list (NodeHostname, NodeAddr): one value
// serves every node, otherwise there must be at least one per node, as in
// Slurm. Unset, the value is def.
func (x *dec) perNode(key string, names, def []string) []string {
	f, ok := x.get(key)
	if !ok {
		return def
	}
	vals, err := expandBounded(x.d, f.Value, MaxNodes)
	if err != nil {
		x.bad(f, "%v", err)
		return def
	}
	switch {
	case len(vals) == 1:
		out := make([]string, len(names))
		for i := range out {
			out[i] = vals[0]
		}
		return out
	case len(vals) < len(names):
		x.bad(f, "%d values for %d nodes: give one, or one per node", len(vals), len(names))
		return def
	}
	return vals[:len(names)]
}

// ports expands Port: one port for every node, or one per node (the
// multiple-slurmd form Port=[16901-16932]). Unset, it is 0 and the cluster's
// SlurmdPort is filled in later.
func (x *dec) ports(names []string) []int {
	out := make([]int, len(names))
	f, ok := x.get("Port")
	if !ok {
		return out
	}
	vals, err := expandBounded(x.d, f.Value, MaxNodes)
	if err != nil {
		x.bad(f, "%v", err)
		return out
	}
	if len(vals) != 1 && len(vals) != len(names) {
		x.bad(f, "%d ports for %d nodes: give one, or one per node", len(vals), len(names))
		return out
	}
	for i := range out {
		v := vals[0]
		if len(vals) > 1 {
			v = vals[i]
		}
		p, err := parseCount(v, math.MaxUint16)
		if err != nil || p == 0 {
			x.bad(f, "%q is not a port number", v)
			return make([]int, len(names))
		}
		out[i] = int(p)
	}
	return out
}

// nodeState decodes State, keeping the states Loam models.
func (x *dec) nodeState(dst *string) {
	f, ok := x.get("State")
	if !ok {
		return
	}
	s := strings.ToUpper(f.Value)
	switch s {
	case "UNKNOWN", "IDLE", "DOWN", "DRAIN", "FUTURE":
		*dst = s
	case "FAIL", "FAILING":
		x.d.warnf(f.Pos, x.rec, f.Key, "%s is read as DRAIN", s)
		*dst = "DRAIN"
	case "CLOUD":
		x.d.warnf(f.Pos, x.rec, f.Key, "Loam has no cloud nodes: CLOUD is read as FUTURE")
		*dst = "FUTURE"
	default:
		x.bad(f, "%q is not a node state (UNKNOWN, IDLE, DOWN, DRAIN, FUTURE)", f.Value)
	}
}

// maxNodeMB is the largest RealMemory or TmpDisk whose size in bytes fits
// an int64 (8 EiB): a larger one, UNLIMITED included, would overflow where
// the daemons count bytes.
const maxNodeMB = math.MaxInt64 >> 20

// nodeMemory decodes a node's memory size, at most maxNodeMB.
func (x *dec) nodeMemory(name string, dst *int64) {
	old := *dst
	x.memory(name, dst)
	if *dst > maxNodeMB {
		f, _ := x.get(name)
		x.bad(f, "%q is more than a node can have (%d MB)", f.Value, int64(maxNodeMB))
		*dst = old
	}
}

// gres decodes a node's Gres= list ("gpu:8", "gpu:h100:4,nic:1").
func (x *dec) gres(dst *[]GRES) {
	f, ok := x.get("Gres")
	if !ok || strings.EqualFold(f.Value, "(null)") {
		return
	}
	list, err := resource.ParseGRES(f.Value)
	if err != nil {
		x.bad(f, "%q: %v", f.Value, err)
		return
	}
	for _, g := range list {
		*dst = append(*dst, GRES{Name: g.Name, Type: g.Type, Count: g.Count})
	}
}
