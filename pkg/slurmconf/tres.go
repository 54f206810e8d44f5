package slurmconf

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/resource"
)

// parseTRES parses a TRES list as Slurm writes limits:
// "cpu=512,mem=4T,node=64,gres/gpu=512,gres/gpu:h100=256". Names are
// case-insensitive and stored lower case; each count is parsed by
// resource.ParseTRES (mem takes a memory size, MB by default); a count may
// also be UNLIMITED or INFINITE, which a limit needs to lift a default.
func parseTRES(s string) (TRES, error) {
	out := TRES{}
	for _, item := range splitList(s) {
		k, v, ok := strings.Cut(item, "=")
		if !ok || v == "" {
			return nil, fmt.Errorf("%q is not NAME=COUNT", item)
		}
		name := canonicalTRESName(k)
		if err := checkTRESName(name); err != nil {
			return nil, err
		}
		if _, dup := out[name]; dup {
			return nil, fmt.Errorf("%s given twice", name)
		}
		if isUnlimited(v) {
			out[name] = Unlimited
			continue
		}
		r, err := resource.ParseTRES(name + "=" + v)
		if err != nil {
			return nil, err
		}
		out[name] = r.Get(name)
	}
	return out, nil
}

func canonicalTRESName(k string) string { return strings.ToLower(strings.TrimSpace(k)) }

func checkTRESName(name string) error {
	switch name {
	case "cpu", "mem", "node", "billing":
		return nil
	}
	for _, prefix := range []string{"gres/", "license/"} {
		if rest, ok := strings.CutPrefix(name, prefix); ok && rest != "" && !strings.ContainsAny(rest, "/=, ") {
			return nil
		}
	}
	return fmt.Errorf("%q is not a TRES name (cpu, mem, node, billing, gres/NAME[:TYPE], license/NAME)", name)
}

// Resource returns t as a resource.TRES, leaving out UNLIMITED entries.
func (t TRES) Resource() resource.TRES {
	var out resource.TRES
	for _, k := range t.Names() {
		if t[k] != Unlimited {
			out.Set(k, t[k])
		}
	}
	return out
}

// tresOrder is the order Slurm prints TRES in: the built-in types first,
// then the rest by name.
var tresOrder = map[string]int{"cpu": 1, "mem": 2, "energy": 3, "node": 4, "billing": 5}

// Names returns the TRES names of t in Slurm's printing order.
func (t TRES) Names() []string {
	names := slices.Collect(maps.Keys(t))
	slices.SortFunc(names, func(a, b string) int {
		ra, rb := tresOrder[a], tresOrder[b]
		if ra == 0 {
			ra = 100
		}
		if rb == 0 {
			rb = 100
		}
		return cmp.Or(cmp.Compare(ra, rb), cmp.Compare(a, b))
	})
	return names
}

// String prints t as a TRES list, mem in MB ("cpu=64,mem=512000M,gres/gpu=8").
func (t TRES) String() string {
	var b strings.Builder
	for i, k := range t.Names() {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(k + "=")
		switch v := t[k]; {
		case v == Unlimited:
			b.WriteString("UNLIMITED")
		case k == "mem":
			b.WriteString(strconv.FormatInt(v, 10) + "M")
		default:
			b.WriteString(strconv.FormatInt(v, 10))
		}
	}
	return b.String()
}

// Clone returns a copy of t (nil stays nil).
func (t TRES) Clone() TRES { return maps.Clone(t) }

// tres decodes a TRES list value.
func (x *dec) tres(name string, dst *TRES) {
	f, ok := x.get(name)
	if !ok {
		return
	}
	t, err := parseTRES(f.Value)
	if err != nil {
		x.bad(f, "%v", err)
		return
	}
	*dst = t
}
