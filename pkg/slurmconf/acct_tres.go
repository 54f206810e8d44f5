package slurmconf

import (
	"slices"
	"strings"

	"github.com/loamhpc/loam/pkg/resource"
)

// defaultTRES are the TRES Slurm always tracks, whatever
// AccountingStorageTRES says, in its order.
var defaultTRES = strings.Split(defaultAcctTRES, ",")

// acctTRES decodes AccountingStorageTRES: the TRES tracked beyond the
// defaults, lower case, each once, in Slurm's order (built-in TRES by id,
// then by type and name: bb/, fs/, gres/, ic/, license/). A name of an
// unknown type is refused, as slurmctld refuses to start with one.
func (x *dec) acctTRES(name string, dst *[]string) {
	f, ok := x.get(name)
	if !ok {
		return
	}
	var order resource.TRES
	for _, t := range splitList(strings.ToLower(f.Value)) {
		if err := checkAcctTRES(t); err != "" {
			x.bad(f, "%s", err)
			continue
		}
		if !slices.Contains(defaultTRES, t) {
			order.Set(t, 0)
		}
	}
	*dst = (*dst)[:0]
	for _, t := range order {
		*dst = append(*dst, t.Name)
	}
}

// checkAcctTRES says what is wrong with one AccountingStorageTRES name, or
// "" when nothing is.
func checkAcctTRES(t string) string {
	if slices.Contains(defaultTRES, t) {
		return ""
	}
	for _, prefix := range []string{"bb/", "fs/", "gres/", "ic/", "license/"} {
		if rest, ok := strings.CutPrefix(t, prefix); ok {
			if rest == "" || strings.ContainsAny(rest, "/= ") {
				return "TRES " + t + " needs a name after " + prefix
			}
			return ""
		}
	}
	return "unknown TRES type " + t + ", acceptable types are Billing,CPU,Energy,FS/,Gres/,IC/,License/,Mem,Node,Pages,VMem"
}

// TracksTRES reports whether the cluster tracks TRES name ("gres/gpu",
// "gres/gpu:h100"): Slurm's defaults always, others only when
// AccountingStorageTRES names them. Slurm prints a job's GRES in its TRES
// strings (scontrol TRES=, sacct AllocTRES) only when tracked.
func (c *Config) TracksTRES(name string) bool {
	name = strings.ToLower(name)
	return slices.Contains(defaultTRES, name) || slices.Contains(c.AccountingStorageTRES, name)
}

// TrackedGRESTypes returns the types of GRES name tracked on their own
// ("h100" for gres/gpu:h100), in Slurm's order.
func (c *Config) TrackedGRESTypes(name string) []string {
	var out []string
	prefix := "gres/" + strings.ToLower(name) + ":"
	for _, t := range c.AccountingStorageTRES {
		if typ, ok := strings.CutPrefix(t, prefix); ok {
			out = append(out, typ)
		}
	}
	return out
}
