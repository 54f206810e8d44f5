// Package slurmtime parses and prints Slurm's duration and timestamp formats.
package slurmtime

import (
	"errors"
	"math"
	"time"
)

// Unlimited is the duration of UNLIMITED / INFINITE time limits.
const Unlimited = time.Duration(math.MaxInt64)

// ParseDuration parses a Slurm time limit: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S,
// UNLIMITED, INFINITE.
func ParseDuration(s string) (time.Duration, error) {
	return 0, errors.New("slurmtime: not implemented")
}

// FormatDuration prints d as scontrol prints a time limit: [D-]HH:MM:SS or
// UNLIMITED.
func FormatDuration(d time.Duration) string { return "" }

// FormatElapsed prints d as squeue's %M/%l columns do: M:SS, H:MM:SS,
// D-HH:MM:SS.
func FormatElapsed(d time.Duration) string { return "" }

// ParseTime parses a --begin/--deadline timestamp relative to now.
func ParseTime(s string, now time.Time) (time.Time, error) {
	return time.Time{}, errors.New("slurmtime: not implemented")
}

// FormatTime prints t as Slurm prints timestamps (2026-11-29T10:00:00).
func FormatTime(t time.Time) string { return "" }
