package slurmtime

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseDuration(t *testing.T) {
	tests := map[string]struct {
		in   string
		want time.Duration
	}{
		"bare number is minutes":           {in: "90", want: 90 * time.Minute},
		"minutes and seconds keep seconds": {in: "0:30", want: 30 * time.Second},
		"hours past a day":                 {in: "100:00:00", want: 100 * time.Hour},
		"fields are not range-checked":     {in: "1:61", want: 121 * time.Second},
		"days and hours":                   {in: "2-12", want: 60 * time.Hour},
		"days, hours and minutes":          {in: "1-2:3", want: 26*time.Hour + 3*time.Minute},
		"days with a full clock":           {in: "30-00:00:01", want: 30*24*time.Hour + time.Second},
		"days with nothing after the dash": {in: "2-", want: 48 * time.Hour},
		"zero stays zero":                  {in: "0", want: 0},
		"UNLIMITED":                        {in: "UNLIMITED", want: Unlimited},
		"infinite in any case":             {in: "Infinite", want: Unlimited},
		"minus one is unlimited":           {in: "-1", want: Unlimited},
		"the longest accepted":             {in: "35791393", want: MaxDuration},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ParseDuration(tc.in)
			if err != nil {
				t.Fatalf("ParseDuration(%q): %v", tc.in, err)
			}
			if got != tc.want {
				t.Errorf("ParseDuration(%q) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}

func TestParseDurationRejects(t *testing.T) {
	tests := map[string]struct {
		in        string
		wantInErr string
	}{
		"empty":                                {in: "", wantInErr: "empty"},
		"negative days (Slurm wraps them)":     {in: "-5", wantInErr: "negative"},
		"one minute past the longest accepted": {in: "35791394", wantInErr: "longer than"},
		"overflowing digits":                   {in: "99999999999999999999", wantInErr: "too large"},
		"four clock fields":                    {in: "1:2:3:4", wantInErr: "too many"},
		"four clock fields after days":         {in: "1-2:3:4:5", wantInErr: "too many"},
		"unit letters":                         {in: "5m", wantInErr: `"5m" is not a number`},
		"fraction":                             {in: "1.5", wantInErr: "not a number"},
		"empty field":                          {in: "1::2", wantInErr: "empty field"},
		"two dashes":                           {in: "1-2-3", wantInErr: "not a number"},
		"leading blank":                        {in: " 5", wantInErr: "not a number"},
		"plus sign":                            {in: "+5", wantInErr: "not a number"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ParseDuration(tc.in)
			if err == nil {
				t.Fatalf("ParseDuration(%q) = %v, want an error", tc.in, got)
			}
			if !errors.Is(err, ErrInvalidDuration) || !strings.Contains(err.Error(), tc.wantInErr) {
				t.Errorf("ParseDuration(%q) error %q, want ErrInvalidDuration containing %q", tc.in, err, tc.wantInErr)
			}
		})
	}
}

func TestParseTimeLimit(t *testing.T) {
	tests := map[string]struct {
		in   string
		want time.Duration
	}{
		"zero means no limit":              {in: "0", want: Unlimited},
		"zero clock means no limit":        {in: "00:00:00", want: Unlimited},
		"a second rounds up to a minute":   {in: "0:00:01", want: time.Minute},
		"seconds round up":                 {in: "5:30", want: 6 * time.Minute},
		"whole minutes stay":               {in: "1-0:1:0", want: 24*time.Hour + time.Minute},
		"unlimited stays unlimited":        {in: "UNLIMITED", want: Unlimited},
		"longest limit rounds within caps": {in: "35791393", want: MaxDuration},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ParseTimeLimit(tc.in)
			if err != nil {
				t.Fatalf("ParseTimeLimit(%q): %v", tc.in, err)
			}
			if got != tc.want {
				t.Errorf("ParseTimeLimit(%q) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}

func TestFormatDuration(t *testing.T) {
	tests := map[string]struct {
		in           time.Duration
		wantScontrol string
		wantSqueue   string
	}{
		"zero":                  {in: 0, wantScontrol: "00:00:00", wantSqueue: "0:00"},
		"seconds":               {in: 59 * time.Second, wantScontrol: "00:00:59", wantSqueue: "0:59"},
		"five minutes":          {in: 5 * time.Minute, wantScontrol: "00:05:00", wantSqueue: "5:00"},
		"hours":                 {in: time.Hour + 2*time.Minute + 3*time.Second, wantScontrol: "01:02:03", wantSqueue: "1:02:03"},
		"a day":                 {in: 24 * time.Hour, wantScontrol: "1-00:00:00", wantSqueue: "1-00:00:00"},
		"fractions are dropped": {in: 1500 * time.Millisecond, wantScontrol: "00:00:01", wantSqueue: "0:01"},
		"365 days squeue shows": {in: 365 * 24 * time.Hour, wantScontrol: "365-00:00:00", wantSqueue: "365-00:00:00"},
		"past 365 days squeue gives up": {
			in: 365*24*time.Hour + time.Second, wantScontrol: "365-00:00:01", wantSqueue: "INVALID",
		},
		"negative":  {in: -time.Second, wantScontrol: "INVALID", wantSqueue: "INVALID"},
		"unlimited": {in: Unlimited, wantScontrol: "UNLIMITED", wantSqueue: "UNLIMITED"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := FormatDuration(tc.in); got != tc.wantScontrol {
				t.Errorf("FormatDuration(%v) = %q, want %q", tc.in, got, tc.wantScontrol)
			}
			if got := FormatElapsed(tc.in); got != tc.wantSqueue {
				t.Errorf("FormatElapsed(%v) = %q, want %q", tc.in, got, tc.wantSqueue)
			}
		})
	}
}

func TestFormatTime(t *testing.T) {
	cet := time.FixedZone("CET", 3600)
	tests := map[string]struct {
		in           time.Time
		wantScontrol string
		wantSqueue   string
	}{
		"zero time is unset":    {in: time.Time{}, wantScontrol: "Unknown", wantSqueue: "N/A"},
		"the epoch is unset":    {in: time.Unix(0, 0), wantScontrol: "Unknown", wantSqueue: "N/A"},
		"printed in t's zone":   {in: time.Date(2026, 11, 29, 10, 0, 0, 0, cet), wantScontrol: "2026-11-29T10:00:00", wantSqueue: "2026-11-29T10:00:00"},
		"fractions are dropped": {in: time.Date(2026, 1, 2, 3, 4, 5, 999, time.UTC), wantScontrol: "2026-01-02T03:04:05", wantSqueue: "2026-01-02T03:04:05"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := FormatTime(tc.in); got != tc.wantScontrol {
				t.Errorf("FormatTime(%v) = %q, want %q", tc.in, got, tc.wantScontrol)
			}
			if got := FormatTimeOrNA(tc.in); got != tc.wantSqueue {
				t.Errorf("FormatTimeOrNA(%v) = %q, want %q", tc.in, got, tc.wantSqueue)
			}
		})
	}
}
