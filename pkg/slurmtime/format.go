package slurmtime

import (
	"fmt"
	"time"
)

// FormatDuration prints d as scontrol prints TimeLimit and RunTime:
// HH:MM:SS or D-HH:MM:SS ("00:05:00", "1-00:00:00"), UNLIMITED for
// Unlimited and INVALID for negative durations. Fractions of a second are
// dropped.
func FormatDuration(d time.Duration) string {
	if d == Unlimited {
		return "UNLIMITED"
	}
	if d < 0 {
		return "INVALID"
	}
	days, h, m, s := split(d)
	if days > 0 {
		return fmt.Sprintf("%d-%02d:%02d:%02d", days, h, m, s)
	}
	return fmt.Sprintf("%02d:%02d:%02d", h, m, s)
}

// maxElapsed is the longest duration squeue prints; longer ones are INVALID.
const maxElapsed = 365 * 24 * time.Hour

// FormatElapsed prints d as squeue's %M (TIME) and %l (TIME_LIMIT) columns
// do: M:SS, H:MM:SS or D-HH:MM:SS ("0:00", "5:00", "1:02:03",
// "1-00:00:00"), UNLIMITED for Unlimited, and INVALID for negative
// durations and for durations over 365 days.
func FormatElapsed(d time.Duration) string {
	if d == Unlimited {
		return "UNLIMITED"
	}
	if d < 0 || d.Truncate(time.Second) > maxElapsed {
		return "INVALID"
	}
	days, h, m, s := split(d)
	switch {
	case days > 0:
		return fmt.Sprintf("%d-%02d:%02d:%02d", days, h, m, s)
	case h > 0:
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	return fmt.Sprintf("%d:%02d", m, s)
}

func split(d time.Duration) (days, h, m, s int64) {
	secs := int64(d / time.Second)
	return secs / 86400, secs / 3600 % 24, secs / 60 % 60, secs % 60
}

// timeLayout is Slurm's "%FT%T".
const timeLayout = "2006-01-02T15:04:05"

// FormatTime prints t as scontrol prints timestamps (SubmitTime,
// EligibleTime...): 2026-11-29T10:00:00 in t's location, and "Unknown" for
// the zero time or the Unix epoch, which Slurm uses for "not set".
func FormatTime(t time.Time) string {
	if isUnset(t) {
		return "Unknown"
	}
	return t.Format(timeLayout)
}

// FormatTimeOrNA prints t as squeue prints its time columns (%S START_TIME,
// %V SUBMIT_TIME, --start): like FormatTime, but "N/A" for an unset time.
func FormatTimeOrNA(t time.Time) string {
	if isUnset(t) {
		return "N/A"
	}
	return t.Format(timeLayout)
}

func isUnset(t time.Time) bool { return t.IsZero() || t.Unix() == 0 }
