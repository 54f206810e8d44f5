package slurmconf

import (
	"fmt"
	"io/fs"
	"math"
	"strconv"
	"strings"
)

// maxDevicesPerLine bounds File= expansions.
const maxDevicesPerLine = 4096

var gresSchema = newSchema("gres.conf", func() []keySpec {
	return join(
		keys(honoured, "NodeName", "Name", "Type", "File", "Count", "Cores",
			"Links", "Flags", "AutoDetect"),
		[]keySpec{{name: "CPUs", alias: "Cores"}},
		keys(ignored, "MultipleFiles"),
	)
})

// GRESConf is a parsed gres.conf.
type GRESConf struct {
	// AutoDetect is the global AutoDetect ("off" when unset).
	AutoDetect string
	// NodeAutoDetect are NodeName=... AutoDetect=... settings, in order.
	NodeAutoDetect []NodeAutoDetect
	Records        []GRESRecord
	Files          []string
	Warnings       []Warning
}

// NodeAutoDetect is an AutoDetect value for some nodes.
type NodeAutoDetect struct {
	Nodes []string
	Value string
	Pos   Pos
}

// GRESRecord is one Name= line of gres.conf.
type GRESRecord struct {
	// Nodes are the expanded NodeName=; nil means every node.
	Nodes []string
	Name  string
	Type  string
	Count int64
	Files []string // expanded File=
	Cores string
	Links string
	Flags []string
	Pos   Pos
}

// ParseGRES reads the gres.conf called name from fsys.
func ParseGRES(fsys fs.FS, name string) (*GRESConf, error) {
	d := &diag{}
	g := parseGRES(fsys, name, d)
	err := d.sortedErr()
	g.Warnings = d.warnings
	return g, err
}

func parseGRES(fsys fs.FS, name string, d *diag) *GRESConf {
	g := &GRESConf{AutoDetect: "off"}
	r := newReader(fsys, d)
	r.read(name, Pos{File: name})
	g.Files = r.files
	for _, rec := range r.records {
		recName := recordName(rec)
		x := &dec{d: d, rec: recName, pos: rec.Pos, v: gresSchema.check(rec.Fields, recName, d)}
		var nodes []string
		if f, ok := x.get("NodeName"); ok {
			var err error
			if nodes, err = expandBounded(d, f.Value, MaxNodes); err != nil {
				x.bad(f, "%v", err)
				continue
			}
		}
		if _, ok := x.get("AutoDetect"); ok {
			var ad string
			x.autoDetect(&ad)
			if nodes == nil {
				g.AutoDetect = ad
			} else if ad != "" {
				g.NodeAutoDetect = append(g.NodeAutoDetect, NodeAutoDetect{Nodes: nodes, Value: ad, Pos: rec.Pos})
			}
		}
		if _, ok := x.get("Name"); ok {
			g.Records = append(g.Records, x.gresRecord(nodes))
		} else if _, ok := x.get("AutoDetect"); !ok {
			d.errorf(rec.Pos, recName, "Name", ErrSyntax, "a gres.conf line needs Name= or AutoDetect=")
		}
	}
	return g
}

func recordName(rec record) string {
	f := rec.Fields[0]
	return f.Key + "=" + f.Value
}

func (x *dec) gresRecord(nodes []string) GRESRecord {
	g := GRESRecord{Nodes: nodes, Pos: x.pos, Count: -1}
	x.str("Name", &g.Name)
	x.str("Type", &g.Type)
	x.str("Cores", &g.Cores)
	x.str("Links", &g.Links)
	x.list("Flags", &g.Flags)
	if f, ok := x.get("File"); ok {
		files, err := expandBounded(x.d, f.Value, maxDevicesPerLine)
		if err != nil {
			x.bad(f, "%v", err)
		}
		g.Files = files
	}
	if f, ok := x.get("Count"); ok {
		n, err := parseGRESCount(f.Value)
		if err != nil {
			x.bad(f, "%v", err)
		} else {
			g.Count = n
		}
		if g.Files != nil && n != int64(len(g.Files)) && err == nil {
			x.bad(f, "Count=%d but File= names %d devices", n, len(g.Files))
		}
	}
	if g.Count < 0 {
		g.Count = max(int64(len(g.Files)), 1)
	}
	if f, ok := x.get("Name"); ok && (g.Name == "" || strings.ContainsAny(g.Name, ":,/")) {
		x.bad(f, "%q is not a GRES name", f.Value)
	}
	if f, ok := x.get("Cores"); ok && !validIDList(g.Cores) {
		x.bad(f, "%q is not a list of core numbers", f.Value)
	}
	if f, ok := x.get("Links"); ok && !validLinks(g.Links) {
		x.bad(f, "%q is not a comma-separated list of link counts", f.Value)
	}
	return g
}

// autoDetect decodes AutoDetect; Loam detects GPUs with NVML only.
func (x *dec) autoDetect(dst *string) {
	f, _ := x.get("AutoDetect")
	switch v := strings.ToLower(f.Value); v {
	case "off", "nvml":
		*dst = v
	case "nvidia":
		x.d.warnf(f.Pos, x.rec, f.Key, "Loam detects NVIDIA GPUs through NVML: nvidia is read as nvml")
		*dst = "nvml"
	case "rsmi", "oneapi", "nrt":
		x.d.warnf(f.Pos, x.rec, f.Key, "Loam detects NVIDIA GPUs only: %s is read as off", v)
		*dst = "off"
	default:
		x.bad(f, "%q is not off or nvml", f.Value)
	}
}

// parseGRESCount parses a gres.conf Count: a number with an optional K, M
// or G suffix (powers of 1024), as Slurm allows.
func parseGRESCount(s string) (int64, error) {
	mult := int64(1)
	if n := len(s); n > 1 {
		switch s[n-1] {
		case 'k', 'K':
			mult, s = 1<<10, s[:n-1]
		case 'm', 'M':
			mult, s = 1<<20, s[:n-1]
		case 'g', 'G':
			mult, s = 1<<30, s[:n-1]
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64/mult {
		return 0, fmt.Errorf("%q is not a count", s)
	}
	return n * mult, nil
}

// validIDList accepts "0-31", "[0-15,32-47]", "0,2,4".
func validIDList(s string) bool {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	if s == "" {
		return false
	}
	for _, item := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(item, "-")
		a, err1 := strconv.ParseUint(lo, 10, 32)
		if err1 != nil {
			return false
		}
		if isRange {
			b, err2 := strconv.ParseUint(hi, 10, 32)
			if err2 != nil || b < a {
				return false
			}
		}
	}
	return true
}

func validLinks(s string) bool {
	for _, item := range strings.Split(s, ",") {
		if _, err := strconv.Atoi(item); err != nil {
			return false
		}
	}
	return true
}
