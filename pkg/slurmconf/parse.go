package slurmconf

import (
	"cmp"
	"errors"
	"io/fs"
	"slices"
	"strings"
)

// Parse reads the slurm.conf called name from fsys, following its Include
// lines, and returns its cluster keys, nodes and partitions with every
// default applied. It reads no other file; Load adds gres.conf,
// topology.conf and tenants.conf.
//
// Parse reports every problem it finds, joined with errors.Join, each an
// *Error naming file, line and key. The returned Config is never nil: on
// error it holds what could be read, for diagnostics, and must not be used
// to run a cluster. Warnings (keys Loam ignores, values it reads
// differently from Slurm) are in Config.Warnings. Parse does not check
// references between records: that is Validate's job.
func Parse(fsys fs.FS, name string) (*Config, error) {
	d := &diag{}
	c := parseSlurmConf(fsys, name, d)
	err := d.sortedErr()
	c.Warnings = d.warnings
	return c, err
}

func parseSlurmConf(fsys fs.FS, name string, d *diag) *Config {
	c := Default()
	c.order = d.lineOrder()
	r := newReader(fsys, d)
	r.read(name, Pos{File: name})
	c.Files = r.files

	var scalars []field
	var nodeDefs, partDefs lineDefaults
	var pending []pendingPartition
	for _, rec := range r.records {
		first := rec.Fields[0]
		switch strings.ToLower(first.Key) {
		case "nodename":
			nodeLine(rec, c, &nodeDefs, d)
		case "partitionname":
			partitionLine(rec, &pending, &partDefs, d)
		case "slurmctldhost":
			controllerLine(rec, c, d)
		case "downnodes", "frontendname", "nodeset":
			d.warnf(rec.Pos, "", first.Key, "Slurm line type not used by Loam, ignored")
		default:
			// As in Slurm, a cluster key stands alone on its line.
			if len(rec.Fields) > 1 {
				extra := rec.Fields[1]
				d.errorf(extra.Pos, "", extra.Key, ErrSyntax, "only one Key=Value per line is allowed after %s", first.Key)
			}
			scalars = append(scalars, first)
		}
	}
	x := &dec{d: d, v: clusterSchema.check(scalars, "", d)}
	c.Written = clusterSchema.written(scalars)
	decodeCluster(x, c)
	for i := range c.Nodes {
		if c.Nodes[i].Port == 0 {
			c.Nodes[i].Port = c.SlurmdPort
		}
	}
	c.reindex()
	buildPartitions(pending, c)
	return c
}

// controllerLine decodes SlurmctldHost=host or host(addr).
func controllerLine(rec record, c *Config, d *diag) {
	f := rec.Fields[0]
	for _, extra := range rec.Fields[1:] {
		d.errorf(extra.Pos, "", extra.Key, ErrUnknownKey, "SlurmctldHost lines take no other key")
	}
	host, addr := f.Value, f.Value
	if open := strings.IndexByte(f.Value, '('); open >= 0 || strings.Contains(f.Value, ")") {
		closing := strings.IndexByte(f.Value, ')')
		if open <= 0 || closing != len(f.Value)-1 || closing < open+2 || strings.Count(f.Value, "(") != 1 {
			d.errorf(f.Pos, "", f.Key, ErrBadValue, "%q is not host or host(address)", f.Value)
			return
		}
		host, addr = f.Value[:open], f.Value[open+1:closing]
	}
	if host == "" {
		d.errorf(f.Pos, "", f.Key, ErrBadValue, "empty host name")
		return
	}
	c.SlurmctldHosts = append(c.SlurmctldHosts, ControllerHost{Host: host, Addr: addr, Pos: f.Pos})
}

// reindex rebuilds the node name index; the first node of a name wins.
func (c *Config) reindex() {
	c.nodeIndex = make(map[string]int, len(c.Nodes))
	for i, n := range c.Nodes {
		if _, dup := c.nodeIndex[n.Name]; !dup {
			c.nodeIndex[n.Name] = i
		}
	}
}

// Node returns the node called name. It does not modify c, so a loaded
// Config may be shared between goroutines.
func (c *Config) Node(name string) (*Node, bool) {
	if i, ok := c.nodeIndex[name]; ok && i < len(c.Nodes) && c.Nodes[i].Name == name {
		return &c.Nodes[i], true
	}
	for i := range c.Nodes { // a Config built or changed by hand
		if c.Nodes[i].Name == name {
			return &c.Nodes[i], true
		}
	}
	return nil, false
}

// Partition returns the partition called name.
func (c *Config) Partition(name string) (*Partition, bool) {
	for i := range c.Partitions {
		if c.Partitions[i].Name == name {
			return &c.Partitions[i], true
		}
	}
	return nil, false
}

// DefaultPartition returns the partition with Default=YES, if any.
func (c *Config) DefaultPartition() (*Partition, bool) {
	for i := range c.Partitions {
		if c.Partitions[i].Default {
			return &c.Partitions[i], true
		}
	}
	return nil, false
}

// sortedErr sorts the collected errors and warnings into reading order
// (an included file's lines come where its Include line is) and returns
// the errors joined. Positions not read by this parse (a whole file) sort
// first.
func (d *diag) sortedErr() error {
	rank := func(p Pos) int {
		if n, ok := d.order[p]; ok {
			return n
		}
		return -1
	}
	slices.SortStableFunc(d.errs, func(a, b error) int {
		var ea, eb *Error
		ra, rb := -1, -1
		if errors.As(a, &ea) {
			ra = rank(ea.Pos)
		}
		if errors.As(b, &eb) {
			rb = rank(eb.Pos)
		}
		return cmp.Compare(ra, rb)
	})
	slices.SortStableFunc(d.warnings, func(a, b Warning) int {
		return cmp.Compare(rank(a.Pos), rank(b.Pos))
	})
	return d.err()
}
