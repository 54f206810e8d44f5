package slurmtime

import (
	"testing"
	"time"
)

// FuzzParseDuration checks that no input panics, that results stay within
// MaxDuration, and that FormatDuration prints what ParseDuration reads
// back.
func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"0", "5:30", "1:2:3", "1-", "1-2", "1-2:3", "30-00:00:00", "UNLIMITED",
		"-1", "-5", "", "1:61", "99999999999999999999", "35791394", "1::2", "a-b:c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDuration(s)
		if err != nil || d == Unlimited {
			return
		}
		if d < 0 || d > MaxDuration {
			t.Fatalf("ParseDuration(%q) = %v, out of [0, MaxDuration]", s, d)
		}
		back, err := ParseDuration(FormatDuration(d))
		if err != nil || back != d {
			t.Fatalf("ParseDuration(FormatDuration(%v) = %q) = %v, %v", d, FormatDuration(d), back, err)
		}
		if l, err := ParseTimeLimit(s); err != nil || d == 0 && l != Unlimited || d > 0 && (l < d || l%time.Minute != 0) {
			t.Fatalf("ParseTimeLimit(%q) = %v, %v; want whole minutes at least as long, or Unlimited for 0", s, l, err)
		}
		_ = FormatElapsed(d)
	})
}

// FuzzParseTime checks that no input panics or loops and that results are
// in now's location.
func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"now", "now+1hour", "now - 3 weeks", "2026-12-01T10:00:00", "16:00", "12:00am",
		"midnight", "today", "tomorrow 16:00", "12/01/26", "120126", "uts1800000000", "T", "2026-", "1:", "12/",
		"now+99999999999999999999", "9999-12-31T23:59:59"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 29, 10, 20, 30, 0, time.FixedZone("X", -5*3600))
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseTime(s, now)
		if err != nil {
			return
		}
		if got.Location() != now.Location() {
			t.Fatalf("ParseTime(%q) in %v, want now's location", s, got.Location())
		}
		_ = FormatTime(got)
	})
}
