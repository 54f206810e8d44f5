package resource

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// ErrInvalidTRES is wrapped by every ParseTRES error; it stands for Slurm's
// "Invalid Trackable RESource (TRES) specification".
var ErrInvalidTRES = errors.New("invalid trackable resource (TRES) specification")

// Names of the TRES Slurm always has, in its order (their ids 1 to 8).
const (
	TRESCPU     = "cpu"
	TRESMem     = "mem"
	TRESEnergy  = "energy"
	TRESNode    = "node"
	TRESBilling = "billing"
	TRESDisk    = "fs/disk"
	TRESVMem    = "vmem"
	TRESPages   = "pages"
	TRESGPU     = "gres/gpu"
)

var builtinOrder = []string{TRESCPU, TRESMem, TRESEnergy, TRESNode, TRESBilling, TRESDisk, TRESVMem, TRESPages}

// TRESCount is one trackable resource and its count; memory counts are
// megabytes.
type TRESCount struct {
	Name  string // "cpu", "mem", "gres/gpu", "gres/gpu:h100", "license/matlab"
	Count int64
}

// TRES is a list of trackable resource counts kept in Slurm's order (see
// the package doc), each name at most once. The zero value is empty.
type TRES []TRESCount

// compareTRES orders TRES names as Slurm does: built-in ones by id, then
// the rest by name.
func compareTRES(a, b string) int {
	ia, ib := slices.Index(builtinOrder, a), slices.Index(builtinOrder, b)
	switch {
	case ia >= 0 && ib >= 0:
		return ia - ib
	case ia >= 0:
		return -1
	case ib >= 0:
		return 1
	}
	return strings.Compare(a, b)
}

// Get returns the count of name, or 0 when t has none.
func (t TRES) Get(name string) int64 {
	i, found := t.find(name)
	if !found {
		return 0
	}
	return t[i].Count
}

func (t TRES) find(name string) (int, bool) {
	return slices.BinarySearchFunc(t, name, func(c TRESCount, n string) int { return compareTRES(c.Name, n) })
}

// Set sets the count of name, keeping the order.
func (t *TRES) Set(name string, count int64) {
	i, found := t.find(name)
	if found {
		(*t)[i].Count = count
		return
	}
	*t = slices.Insert(*t, i, TRESCount{Name: name, Count: count})
}

// String prints t as scontrol and sacct print TRES, ReqTRES and AllocTRES:
// "cpu=2,mem=2G,node=1,billing=2,gres/gpu=8". Memory (mem, and burst
// buffers bb/...) is printed with units as FormatTRESMemory does.
func (t TRES) String() string {
	parts := make([]string, len(t))
	for i, c := range t {
		v := strconv.FormatInt(c.Count, 10)
		if isMemoryTRES(c.Name) {
			v = FormatTRESMemory(c.Count)
		}
		parts[i] = c.Name + "=" + v
	}
	return strings.Join(parts, ",")
}

// FormatTRESMemory prints megabytes as Slurm prints memory inside TRES
// strings: as FormatMemory, but from a C double, so that large values keep
// their precision ("mem=999999999999M").
func FormatTRESMemory(mb int64) string {
	return convertNumUnit(float64(mb), unitMega)
}

func isMemoryTRES(name string) bool { return name == TRESMem || strings.HasPrefix(name, "bb/") }

// ParseTRES parses a TRES list: "cpu=4,mem=16G,gres/gpu=8". Memory counts
// take units as printed by String, including fractions ("mem=1.50G"); other
// counts are non-negative integers. A name may appear only once.
func ParseTRES(s string) (TRES, error) {
	var t TRES
	if s == "" {
		return t, nil
	}
	for _, item := range strings.Split(s, ",") {
		name, value, ok := strings.Cut(item, "=")
		if !ok || name == "" {
			return nil, fmt.Errorf("%w %q: %q is not name=count", ErrInvalidTRES, s, item)
		}
		if err := checkTRESName(name); err != nil {
			return nil, fmt.Errorf("%w %q: %s", ErrInvalidTRES, s, err)
		}
		if _, dup := t.find(name); dup {
			return nil, fmt.Errorf("%w %q: %s given twice", ErrInvalidTRES, s, name)
		}
		n, err := parseTRESCount(name, value)
		if err != nil {
			return nil, fmt.Errorf("%w %q: %s: %s", ErrInvalidTRES, s, name, err)
		}
		t.Set(name, n)
	}
	return t, nil
}

func checkTRESName(name string) error {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_-./:", c) >= 0) {
			return fmt.Errorf("name %q has %q", name, c)
		}
	}
	return nil
}

func parseTRESCount(name, value string) (int64, error) {
	if isMemoryTRES(name) {
		return parseScaledMemory(value)
	}
	n, rest, err := leadingNumber(value)
	if err != nil || rest != "" {
		return 0, fmt.Errorf("count %q is not a non-negative integer", value)
	}
	return n, nil
}

// parseScaledMemory parses a memory count as Slurm prints it: a number,
// possibly with two decimals, and an optional K, M, G, T or P unit.
func parseScaledMemory(s string) (int64, error) {
	num := strings.TrimRight(s, "KMGTPkmgtp")
	unit := s[len(num):]
	if len(unit) > 1 || num == "" || strings.ContainsAny(num, "+-eEnN_xX") {
		return 0, fmt.Errorf("size %q is not a number with an optional K, M, G, T or P", s)
	}
	exp := 0 // megabytes
	if unit != "" {
		exp = strings.IndexByte("kmgtp", lower(unit[0])) - 1
	}
	if !strings.Contains(num, ".") {
		return scaleExact(num, exp)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("size %q is not a number", s)
	}
	mb := math.Round(v * math.Pow(1024, float64(exp)))
	if mb >= math.MaxInt64 {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return int64(mb), nil
}

// scaleExact returns the integer num times 1024^exp megabytes, rounding
// kilobytes up.
func scaleExact(num string, exp int) (int64, error) {
	n, rest, err := leadingNumber(num)
	if err != nil || rest != "" {
		return 0, fmt.Errorf("size %q is not a number", num)
	}
	if exp < 0 {
		return (n + 1023) / 1024, nil
	}
	for range exp {
		if n > math.MaxInt64/1024 {
			return 0, fmt.Errorf("size %q is too large", num)
		}
		n *= 1024
	}
	return n, nil
}
