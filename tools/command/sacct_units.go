package command

import (
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/resource"
)

// Slurm's unit numbers (UNIT_KILO..UNIT_PETA), which --units picks.
const (
	unitKilo = 1 + iota
	unitMega
	unitGiga
	unitTera
	unitPeta
)

const unitNames = " KMGTP"

// parseUnits reads --units as sacct's get_unit_type does: its first
// letter, in either case, names the unit.
func parseUnits(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	i := strings.IndexByte(unitNames[1:], upper(s[0]))
	return i + 1, i >= 0
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// mem prints mb megabytes as sacct prints ReqMem and the mem of a TRES
// string: in the --units unit ("2097152K", "0.00T"), unconverted with
// --noconvert ("2048M"), otherwise in the largest unit that keeps it
// exact ("2G").
func (pr *acctPrinter) mem(mb int64, tres bool) string {
	switch {
	case mb == 0:
		return "0"
	case pr.units > 0:
		return inUnit(float64(mb), unitMega, pr.units)
	case pr.noconvert:
		return strconv.FormatInt(mb, 10) + "M"
	case tres:
		return resource.FormatTRESMemory(mb)
	}
	return resource.FormatMemory(mb)
}

// inUnit prints num, counted in unit from (0 for bytes, unitMega for
// MB), in unit to, as sacct --units asks: a whole number plain, any other
// with two decimals ("2097152K", "20.66M", "0.00T").
func inUnit(num float64, from, to int) string {
	for u := from; u < to; u++ {
		num /= 1024
	}
	for u := from; u > to; u-- {
		num *= 1024
	}
	suffix := unitNames[to : to+1]
	if num == float64(int64(num)) {
		return strconv.FormatInt(int64(num), 10) + suffix
	}
	return strconv.FormatFloat(num, 'f', 2, 64) + suffix
}

// tres prints a TRES string as sacct does: by name, its memory in the
// units asked for.
func (pr *acctPrinter) tres(s string) string {
	s = sortTRES(s)
	if pr.units == 0 && !pr.noconvert {
		return s
	}
	parts := strings.Split(s, ",")
	for i, p := range parts {
		if !strings.HasPrefix(p, "mem=") {
			continue
		}
		if t, err := resource.ParseTRES(p); err == nil {
			parts[i] = "mem=" + pr.mem(t.Get("mem"), true)
		}
	}
	return strings.Join(parts, ",")
}
