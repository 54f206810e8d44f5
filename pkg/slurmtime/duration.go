package slurmtime

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Unlimited is the duration of UNLIMITED / INFINITE time limits.
const Unlimited = time.Duration(math.MaxInt64)

// MaxDuration is the longest finite duration accepted: Slurm keeps seconds
// in a C int and rounds up to minutes, so anything longer wraps around in
// Slurm (about 68 years).
const MaxDuration = (math.MaxInt32 - 59) / 60 * time.Minute

// ErrInvalidDuration is wrapped by every ParseDuration and ParseTimeLimit
// error; sbatch maps it to "Invalid --time specification".
var ErrInvalidDuration = errors.New("invalid time specification")

// ParseDuration parses a Slurm duration: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S,
// D- (whole days), or UNLIMITED, INFINITE or -1 (any case) for Unlimited.
// It keeps seconds: "0:30" is 30s. Errors wrap ErrInvalidDuration.
func ParseDuration(s string) (time.Duration, error) {
	if isUnlimited(s) {
		return Unlimited, nil
	}
	fields, err := splitDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%w %q: %s", ErrInvalidDuration, s, err)
	}
	var total int64
	for _, f := range fields {
		total += f.value * f.unit
		if total > int64(MaxDuration/time.Second) {
			return 0, fmt.Errorf("%w %q: longer than %d minutes", ErrInvalidDuration, s, MaxDuration/time.Minute)
		}
	}
	return time.Duration(total) * time.Second, nil
}

// ParseTimeLimit parses a job time limit as sbatch --time and slurm.conf
// MaxTime do: as ParseDuration, then rounded up to whole minutes, with a
// zero limit meaning Unlimited.
func ParseTimeLimit(s string) (time.Duration, error) {
	d, err := ParseDuration(s)
	if err != nil || d == Unlimited {
		return d, err
	}
	d = (d + time.Minute - 1).Truncate(time.Minute)
	if d == 0 {
		return Unlimited, nil
	}
	return d, nil
}

func isUnlimited(s string) bool {
	return s == "-1" || strings.EqualFold(s, "UNLIMITED") || strings.EqualFold(s, "INFINITE")
}

// field is one number of a duration with its unit in seconds.
type field struct {
	value, unit int64
}

// splitDuration splits s into its numbers, each with its unit, following
// the layouts Slurm accepts.
func splitDuration(s string) ([]field, error) {
	if s == "" {
		return nil, errors.New("empty")
	}
	days, clock, hasDays := strings.Cut(s, "-")
	if !hasDays {
		return clockFields(s, [][]int64{{60}, {60, 1}, {3600, 60, 1}})
	}
	if days == "" {
		return nil, errors.New("negative durations are not allowed")
	}
	d, err := number(days)
	if err != nil {
		return nil, err
	}
	out := []field{{d, 86400}}
	if clock == "" { // "2-" is two days, as in Slurm
		return out, nil
	}
	rest, err := clockFields(clock, [][]int64{{3600}, {3600, 60}, {3600, 60, 1}})
	return append(out, rest...), err
}

// clockFields splits a colon-separated clock into numbers; units[n-1] gives
// the units when there are n of them.
func clockFields(s string, units [][]int64) ([]field, error) {
	parts := strings.Split(s, ":")
	if len(parts) > len(units) {
		return nil, fmt.Errorf("too many ':' fields")
	}
	out := make([]field, len(parts))
	for i, p := range parts {
		v, err := number(p)
		if err != nil {
			return nil, err
		}
		out[i] = field{v, units[len(parts)-1][i]}
	}
	return out, nil
}

// number parses one field: decimal digits only.
func number(s string) (int64, error) {
	if s == "" {
		return 0, errors.New("empty field")
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fmt.Errorf("%q is not a number", s)
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v > int64(MaxDuration/time.Second) {
		return 0, fmt.Errorf("%s is too large", s)
	}
	return v, nil
}
