package resource

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// ErrInvalidGRES is wrapped by every GRES parse error; it stands for
// Slurm's "Invalid generic resource (gres) specification".
var ErrInvalidGRES = errors.New("invalid generic resource (gres) specification")

// GRES is one generic resource request or declaration: gpu, gpu:h100:8.
type GRES struct {
	Name  string `json:"name"`           // "gpu"
	Type  string `json:"type,omitempty"` // "h100"; empty when any type will do
	Count int64  `json:"count"`
}

// GPUCount is the GPU count of a list: the counts of its "gpu" entries,
// whatever their type.
func GPUCount(list []GRES) int {
	n := 0
	for _, g := range list {
		if g.Name == "gpu" {
			n += int(g.Count)
		}
	}
	return n
}

// String prints g as Slurm prints it in a node's Gres=: name[:type]:count.
func (g GRES) String() string {
	if g.Type == "" {
		return fmt.Sprintf("%s:%d", g.Name, g.Count)
	}
	return fmt.Sprintf("%s:%s:%d", g.Name, g.Type, g.Count)
}

// ParseGRES parses a comma-separated GRES list as --gres and slurm.conf's
// Gres= take it: name[:type][:count] per item ("gpu", "gpu:8",
// "gpu:h100:8,nic:1"), with an optional "gres:" prefix per item as Slurm
// prints it back. Names start with a letter; names and types hold letters,
// digits, '_', '-' and '.'. A missing count is 1; counts may carry K, M, G, T or P
// (powers of 1024) as Slurm allows. With two fields the second is the
// count when it starts with a digit, else the type. "none" (any case) is
// the empty list. Names and types keep their case.
func ParseGRES(s string) ([]GRES, error) {
	if strings.EqualFold(s, "none") {
		return nil, nil
	}
	if s == "" {
		return nil, fmt.Errorf("%w: empty", ErrInvalidGRES)
	}
	var out []GRES
	for _, item := range strings.Split(s, ",") {
		g, err := parseGRESItem(trimGRESPrefix(item))
		if err != nil {
			return nil, fmt.Errorf("%w %q: %s", ErrInvalidGRES, s, err)
		}
		out = append(out, g)
	}
	return out, nil
}

func parseGRESItem(item string) (GRES, error) {
	f := strings.Split(item, ":")
	if len(f) > 3 {
		return GRES{}, fmt.Errorf("%q has more than name:type:count", item)
	}
	g := GRES{Name: f[0], Count: 1}
	if err := checkWord(g.Name, "name"); err != nil {
		return GRES{}, err
	}
	if !isLetter(g.Name[0]) {
		return GRES{}, fmt.Errorf("name %q does not start with a letter", g.Name)
	}
	if len(f) == 2 && f[1] == "" {
		return GRES{}, fmt.Errorf("%q has an empty count", item)
	}
	if len(f) == 3 || len(f) == 2 && !startsWithDigit(f[1]) {
		g.Type = f[1]
		if err := checkWord(g.Type, "type"); err != nil {
			return GRES{}, err
		}
	}
	if len(f) == 3 || len(f) == 2 && g.Type == "" {
		n, err := parseCount(f[len(f)-1])
		if err != nil {
			return GRES{}, err
		}
		g.Count = n
	}
	return g, nil
}

// ParseGPUs parses the value of --gpus, --gpus-per-node, --gpus-per-task
// and -G: a comma-separated list of [type:]count, each becoming a "gpu"
// GRES ("h100:4" is gpu:h100:4). As in Slurm, a bare word is a type with
// count 1.
func ParseGPUs(s string) ([]GRES, error) {
	if s == "" {
		return nil, fmt.Errorf("%w: empty", ErrInvalidGRES)
	}
	var out []GRES
	for _, item := range strings.Split(s, ",") {
		if strings.Count(item, ":") > 1 {
			return nil, fmt.Errorf("%w %q: %q has more than type:count", ErrInvalidGRES, s, item)
		}
		g, err := parseGRESItem("gpu:" + item)
		if err != nil {
			return nil, fmt.Errorf("%w %q: %s", ErrInvalidGRES, s, err)
		}
		out = append(out, g)
	}
	return out, nil
}

// CheckTypes reports a request that names one GRES both with and without a
// type ("gpu:1,gpu:h100:1"), which Slurm refuses with "Invalid GRES
// specification (with and without type identification)".
func CheckTypes(list []GRES) error {
	typed := map[string]bool{}
	for _, g := range list {
		if t, seen := typed[g.Name]; seen && t != (g.Type != "") {
			return fmt.Errorf("%w: %s requested with and without type identification", ErrInvalidGRES, g.Name)
		}
		typed[g.Name] = g.Type != ""
	}
	return nil
}

// FormatGRES prints a GRES list as a node record's Gres= ("gpu:8",
// "gpu:h100:4,nic:1").
func FormatGRES(list []GRES) string {
	parts := make([]string, len(list))
	for i, g := range list {
		parts[i] = g.String()
	}
	return strings.Join(parts, ",")
}

// FormatTRESPer prints a GRES request as scontrol prints TresPerNode,
// TresPerJob and TresPerTask: each item prefixed with "gres:"
// ("gres:gpu:8"). Slurm 22.05 echoes the request text there as the user
// wrote it ("gres:gpu" for --gres=gpu, "gres:gpu:08"); this prints the
// normalized form, always with the count.
func FormatTRESPer(list []GRES) string {
	parts := make([]string, len(list))
	for i, g := range list {
		parts[i] = "gres:" + g.String()
	}
	return strings.Join(parts, ",")
}

// trimGRESPrefix drops the "gres:" that Slurm puts before each item of
// TresPerNode. A GRES named "gres" can therefore not take a type or count.
func trimGRESPrefix(item string) string {
	return strings.TrimPrefix(item, "gres:")
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func startsWithDigit(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

// checkWord accepts GRES names and types: letters, digits, '_', '-', '.'.
func checkWord(s, what string) error {
	if s == "" {
		return fmt.Errorf("empty %s", what)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return fmt.Errorf("%s %q has %q", what, s, c)
		}
	}
	return nil
}

// countUnits are the multipliers Slurm allows on GRES counts.
var countUnits = map[byte]int64{'k': 1 << 10, 'm': 1 << 20, 'g': 1 << 30, 't': 1 << 40, 'p': 1 << 50}

// parseCount parses a GRES count: digits with an optional K/M/G/T/P.
func parseCount(s string) (int64, error) {
	n, rest, err := leadingNumber(s)
	if err != nil {
		return 0, fmt.Errorf("count %q is not a number", s)
	}
	if rest == "" {
		return n, nil
	}
	mult, ok := countUnits[lower(rest[0])]
	if !ok || len(rest) > 1 {
		return 0, fmt.Errorf("count %q has an unknown suffix", s)
	}
	if n > math.MaxInt64/mult {
		return 0, fmt.Errorf("count %q is too large", s)
	}
	return n * mult, nil
}
