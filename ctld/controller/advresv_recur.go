package controller

import (
	"slices"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

// Recurring reservations (Flags=HOURLY, DAILY, WEEKDAY, WEEKEND, WEEKLY).
// When a window ends and no job runs in it any more, the reservation moves
// to its next window instead of going away, and the jobs waiting for it
// stay pending for that window. Days are calendar days in the
// controller's time zone, so a 09:00 window stays at 09:00 across a
// daylight saving change, as in Slurm. A reservation whose next window
// has passed as well (the controller was down) moves on to the first
// window that has not ended, where Slurm moves one period per check.

// recurring reports whether r comes back after its window.
func (r *advResv) recurring() bool {
	return slices.ContainsFunc(recurFlags, r.has)
}

// recurFlags in the order that decides between several: the first set
// wins, so HOURLY,DAILY moves by an hour and DAILY,WEEKLY by a day, as
// on Slurm 22.05.
var recurFlags = []string{api.ResvFlagHourly, api.ResvFlagDaily, api.ResvFlagWeekday, api.ResvFlagWeekend, api.ResvFlagWeekly}

// nextWindow returns the window after [start, end) for flags, in loc.
func nextWindow(start, end int64, flags []string, loc *time.Location) (int64, int64) {
	s, e := time.Unix(start, 0).In(loc), time.Unix(end, 0).In(loc)
	for _, f := range recurFlags {
		if !slices.Contains(flags, f) {
			continue
		}
		if f == api.ResvFlagHourly {
			return s.Add(time.Hour).Unix(), e.Add(time.Hour).Unix()
		}
		days := recurDays(f, s.Weekday())
		return s.AddDate(0, 0, days).Unix(), e.AddDate(0, 0, days).Unix()
	}
	return start, end
}

// recurDays is how many days a window starting on day moves: a weekday
// window skips Saturday and Sunday, a weekend window goes Saturday to
// Sunday, then to the next Saturday.
func recurDays(flag string, day time.Weekday) int {
	switch flag {
	case api.ResvFlagWeekday:
		switch day {
		case time.Friday:
			return 3
		case time.Saturday:
			return 2
		}
		return 1
	case api.ResvFlagWeekend:
		switch day {
		case time.Saturday:
			return 1
		case time.Sunday:
			return 6
		}
		return int(time.Saturday - day)
	case api.ResvFlagWeekly:
		return 7
	}
	return 1
}

// advanceWindow moves r past now: to the first of its next windows that
// ends after now.
func advanceWindow(r *advResv, now int64, loc *time.Location) {
	for r.End <= now {
		s, e := nextWindow(r.Start, r.End, r.Flags, loc)
		if e <= r.End { // no recurring flag: nothing to move
			return
		}
		r.Start, r.End = s, e
	}
}
