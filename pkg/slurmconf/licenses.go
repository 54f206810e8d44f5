package slurmconf

import (
	"strconv"
	"strings"
)

// Licenses: slurm.conf's local licenses (Licenses=matlab:2,wandb), counted
// by the controller, and the same syntax in a job's -L/--licenses.

// License is one license name and its count: the total configured, or
// what a job asks for.
type License struct {
	Name  string
	Count int64
}

// ParseLicenses reads "name[:count][,name[:count]...]" as Slurm 22.05
// does: ',' or ';' separates entries, ':' or '*' the count (default 1), a
// name given twice adds up, and the order of first mention is kept.
// ok is false for an empty name, a count that is not a non-negative
// integer, or a name with white space, '|' (the "any of" form 22.05 does
// not have) or '@' (remote licenses from the database, which Loam does not
// keep).
func ParseLicenses(s string) (lics []License, ok bool) {
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ';' }) {
		name, num, hasNum := strings.Cut(tok, ":")
		if !hasNum {
			name, num, hasNum = strings.Cut(tok, "*")
		}
		n := int64(1)
		if hasNum {
			v, err := strconv.ParseInt(num, 10, 32)
			if err != nil || v < 0 {
				return nil, false
			}
			n = v
		}
		if name == "" || strings.ContainsAny(name, " \t|@:*") {
			return nil, false
		}
		lics = addLicense(lics, name, n)
	}
	return lics, true
}

func addLicense(lics []License, name string, n int64) []License {
	for i := range lics {
		if lics[i].Name == name {
			lics[i].Count += n
			return lics
		}
	}
	return append(lics, License{Name: name, Count: n})
}

// decodeLicenses reads the cluster's Licenses key.
func decodeLicenses(x *dec, c *Config) {
	f, ok := x.get("Licenses")
	if !ok {
		return
	}
	lics, valid := ParseLicenses(f.Value)
	if !valid {
		x.bad(f, "invalid license specification %q", f.Value)
		return
	}
	c.Licenses = lics
}
