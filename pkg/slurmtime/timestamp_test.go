package slurmtime

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// cet is a fixed zone so that the tests show ParseTime works in now's
// location without depending on the host's time zone data.
var cet = time.FixedZone("CET", 3600)

func TestParseTime(t *testing.T) {
	now := time.Date(2026, 11, 29, 10, 20, 30, 0, cet)
	tests := map[string]struct {
		in   string
		want string // FormatTime in cet
	}{
		"now":                                  {in: "now", want: "2026-11-29T10:20:30"},
		"now plus seconds by default":          {in: "now+30", want: "2026-11-29T10:21:00"},
		"now plus hours":                       {in: "now+1hour", want: "2026-11-29T11:20:30"},
		"now minus days":                       {in: "now-2days", want: "2026-11-27T10:20:30"},
		"blanks around the count":              {in: "now + 1 week", want: "2026-12-06T10:20:30"},
		"ISO date and time":                    {in: "2026-12-01T10:00", want: "2026-12-01T10:00:00"},
		"ISO date alone is midnight":           {in: "2026-12-01", want: "2026-12-01T00:00:00"},
		"day past the month's end rolls over":  {in: "2027-02-31", want: "2027-03-03T00:00:00"},
		"clock still ahead today":              {in: "16:00", want: "2026-11-29T16:00:00"},
		"clock already passed means tomorrow":  {in: "09:00", want: "2026-11-30T09:00:00"},
		"this very minute means tomorrow":      {in: "10:20:59", want: "2026-11-30T10:20:59"},
		"next minute is today":                 {in: "10:21", want: "2026-11-29T10:21:00"},
		"midnight is tomorrow's":               {in: "midnight", want: "2026-11-30T00:00:00"},
		"noon":                                 {in: "noon", want: "2026-11-29T12:00:00"},
		"fika":                                 {in: "fika", want: "2026-11-29T15:00:00"},
		"teatime":                              {in: "teatime", want: "2026-11-29T16:00:00"},
		"today is today's midnight":            {in: "today", want: "2026-11-29T00:00:00"},
		"tomorrow":                             {in: "tomorrow", want: "2026-11-30T00:00:00"},
		"words combine with a clock":           {in: "tomorrow 16:00", want: "2026-11-30T16:00:00"},
		"MM/DD ahead is this year":             {in: "12/01", want: "2026-12-01T00:00:00"},
		"MM/DD of today is next year":          {in: "11/29", want: "2027-11-29T00:00:00"},
		"MMDDYY":                               {in: "120127", want: "2027-12-01T00:00:00"},
		"year 00 counts as no year":            {in: "1/5/00", want: "2027-01-05T00:00:00"},
		"dotted date with a clock":             {in: "12.01.26-16:30", want: "2026-12-01T16:30:00"},
		"PM":                                   {in: "4:00pm", want: "2026-11-29T16:00:00"},
		"12 AM is midnight":                    {in: "12:00 AM", want: "2026-11-30T00:00:00"},
		"12 PM is noon":                        {in: "12:00PM", want: "2026-11-29T12:00:00"},
		"uts is seconds since the epoch":       {in: "uts1800000000", want: "2027-01-15T09:00:00"},
		"text after a newline is ignored":      {in: "16:00\nrest", want: "2026-11-29T16:00:00"},
		"later words override earlier ones":    {in: "now+1hourtomorrow", want: "2026-11-30T11:20:30"},
		"keywords ignore case":                 {in: "NOON", want: "2026-11-29T12:00:00"},
		"a leading T before the date is fine":  {in: "T2026-12-01", want: "2026-12-01T00:00:00"},
		"a clock before a date applies to it":  {in: "16:00 12/01", want: "2026-12-01T16:00:00"},
		"seconds in a clock without a date":    {in: "23:59:59", want: "2026-11-29T23:59:59"},
		"ISO date with single-digit day works": {in: "2026-12-1", want: "2026-12-01T00:00:00"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ParseTime(tc.in, now)
			if err != nil {
				t.Fatalf("ParseTime(%q): %v", tc.in, err)
			}
			if got.Location() != cet {
				t.Errorf("ParseTime(%q) is in %v, want now's location", tc.in, got.Location())
			}
			if s := FormatTime(got); s != tc.want {
				t.Errorf("ParseTime(%q) = %s, want %s", tc.in, s, tc.want)
			}
		})
	}
}

func TestParseTimeRejects(t *testing.T) {
	now := time.Date(2026, 11, 29, 10, 20, 30, 0, time.UTC)
	tests := map[string]struct {
		in        string
		wantInErr string
	}{
		"empty":                           {in: "", wantInErr: "no date or time"},
		"only separators":                 {in: "T - T", wantInErr: "no date or time"},
		"unknown word":                    {in: "xyz", wantInErr: `(at offset 0): unexpected 'x'`},
		"capitalized word loses its T":    {in: "Today", wantInErr: "(at offset 1)"},
		"unit abbreviation":               {in: "now+1h", wantInErr: `unexpected 'h'`},
		"no count":                        {in: "now+", wantInErr: "no count"},
		"clock after now":                 {in: "now 16:00", wantInErr: "after now"},
		"hour 24":                         {in: "24:00", wantInErr: "hour 24 is out of range"},
		"minute 60":                       {in: "23:60", wantInErr: "minute 60 is out of range"},
		"one-digit minutes":               {in: "1:5", wantInErr: "want 2 digits for the minute"},
		"hour without minutes":            {in: "4pm", wantInErr: "missing day"},
		"13 PM":                           {in: "13:00pm", wantInErr: "hour 13 with PM"},
		"13 AM":                           {in: "13:00am", wantInErr: "hour 13 with AM"},
		"month 13":                        {in: "2026-13-01", wantInErr: "month 13 is out of range"},
		"four-digit year after MM/DD":     {in: "12/01/2026", wantInErr: "month 26 is out of range"},
		"day zero":                        {in: "12/00", wantInErr: "day 0 is out of range"},
		"elevenses is not in Slurm 22.05": {in: "elevenses", wantInErr: "unexpected 'e'"},
		"uts too small":                   {in: "uts999999", wantInErr: "uts followed by seconds"},
		"uts with trailing text":          {in: "uts1800000000x", wantInErr: "uts followed by seconds"},
		"count overflow":                  {in: "now+99999999999999999999", wantInErr: "too large"},
		"error names the input":           {in: "noon?", wantInErr: `invalid time specification "noon?"`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ParseTime(tc.in, now)
			if err == nil {
				t.Fatalf("ParseTime(%q) = %s, want an error", tc.in, FormatTime(got))
			}
			if !errors.Is(err, ErrInvalidTime) || !strings.Contains(err.Error(), tc.wantInErr) {
				t.Errorf("ParseTime(%q) error %q, want ErrInvalidTime containing %q", tc.in, err, tc.wantInErr)
			}
		})
	}
}
