package slurmconf

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// Unlimited is the value of a count limit written as UNLIMITED or INFINITE
// (or left unset where unset means no limit). It compares greater than any
// real count.
const Unlimited int64 = math.MaxInt64

// dec decodes the typed values of one line, reporting each bad value with
// its file, line, record and key, and carrying on.
type dec struct {
	d   *diag
	rec string // "PartitionName=batch"; empty for cluster keys
	pos Pos    // the line being decoded
	v   values
}

func (x *dec) get(name string) (field, bool) {
	f, ok := x.v[name]
	return f, ok
}

func (x *dec) bad(f field, format string, args ...any) {
	rec := x.rec
	if f.rec != "" {
		rec = f.rec
	}
	x.d.errorf(f.Pos, rec, f.Key, ErrBadValue, format, args...)
}

func (x *dec) str(name string, dst *string) {
	if f, ok := x.get(name); ok {
		*dst = f.Value
	}
}

// count decodes a non-negative integer no larger than max.
func (x *dec) count(name string, dst *int64, max int64) {
	f, ok := x.get(name)
	if !ok {
		return
	}
	n, err := parseCount(f.Value, max)
	if err != nil {
		x.bad(f, "%v", err)
		return
	}
	*dst = n
}

// limit is count that also accepts UNLIMITED and INFINITE.
func (x *dec) limit(name string, dst *int64, max int64) {
	f, ok := x.get(name)
	if !ok {
		return
	}
	if isUnlimited(f.Value) {
		*dst = Unlimited
		return
	}
	x.count(name, dst, max)
}

func (x *dec) number(name string, dst *float64) {
	f, ok := x.get(name)
	if !ok {
		return
	}
	n, err := strconv.ParseFloat(f.Value, 64)
	if err != nil || n < 0 || math.IsInf(n, 0) || math.IsNaN(n) {
		x.bad(f, "%q is not a non-negative number", f.Value)
		return
	}
	*dst = n
}

func (x *dec) boolean(name string, dst *bool) {
	f, ok := x.get(name)
	if !ok {
		return
	}
	b, err := parseBool(f.Value)
	if err != nil {
		x.bad(f, "%v", err)
		return
	}
	*dst = b
}

// timeLimit decodes Slurm's time limit syntax (minutes by default).
func (x *dec) timeLimit(name string, dst *time.Duration) {
	f, ok := x.get(name)
	if !ok {
		return
	}
	d, err := slurmtime.ParseDuration(f.Value)
	if err != nil {
		x.bad(f, "%q is not a time limit: %v", f.Value, err)
		return
	}
	*dst = d
}

// maxTime decodes a partition time limit as Slurm does: rounded up to whole
// minutes, 0 meaning UNLIMITED.
func (x *dec) maxTime(name string, dst *time.Duration) {
	f, ok := x.get(name)
	if !ok {
		return
	}
	d, err := slurmtime.ParseTimeLimit(f.Value)
	if err != nil {
		x.bad(f, "%q is not a time limit: %v", f.Value, err)
		return
	}
	*dst = d
}

// seconds decodes a plain number of seconds.
func (x *dec) seconds(name string, dst *time.Duration) {
	var n int64 = -1
	x.count(name, &n, math.MaxUint32)
	if n >= 0 {
		*dst = time.Duration(n) * time.Second
	}
}

// memory decodes a size in megabytes; K, M, G and T suffixes are accepted.
func (x *dec) memory(name string, dst *int64) {
	f, ok := x.get(name)
	if !ok {
		return
	}
	if isUnlimited(f.Value) {
		*dst = Unlimited
		return
	}
	mb, err := resource.ParseMemory(f.Value)
	if err != nil {
		x.bad(f, "%q is not a memory size: %v", f.Value, err)
		return
	}
	*dst = mb
}

// list decodes a comma-separated list, dropping empty items.
func (x *dec) list(name string, dst *[]string) {
	if f, ok := x.get(name); ok {
		*dst = splitList(f.Value)
	}
}

// enum decodes one of allowed, case-insensitively, into its canonical
// spelling.
func (x *dec) enum(name string, dst *string, allowed ...string) {
	f, ok := x.get(name)
	if !ok {
		return
	}
	for _, a := range allowed {
		if strings.EqualFold(f.Value, a) {
			*dst = a
			return
		}
	}
	x.bad(f, "%q is not one of %s", f.Value, strings.Join(allowed, ", "))
}

func isUnlimited(s string) bool {
	return strings.EqualFold(s, "UNLIMITED") || strings.EqualFold(s, "INFINITE")
}

func parseCount(s string, max int64) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%q is not a valid number", s)
	}
	if n > max {
		return 0, fmt.Errorf("%q is larger than %d", s, max)
	}
	return n, nil
}

// parseBool accepts Slurm's boolean spellings.
func parseBool(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "yes", "up", "true", "1":
		return true, nil
	case "no", "down", "false", "0":
		return false, nil
	}
	return false, fmt.Errorf("%q is not a boolean (YES or NO)", s)
}

func splitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

func lowerAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strings.ToLower(s)
	}
	return out
}
