package slurmtime

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ErrInvalidTime is wrapped by every ParseTime error; sbatch maps it to
// "Invalid --begin specification" (or --deadline).
var ErrInvalidTime = errors.New("invalid time specification")

// stamp collects the parts of a timestamp as parse_time does; -1 is unset.
type stamp struct {
	year, month, day     int
	hour, minute, second int
}

// ParseTime parses a --begin/--deadline timestamp relative to now, in now's
// location, the way Slurm's parse_time does (see the package doc for the
// forms). A time without a date is today if that clock time (to the minute)
// is still ahead, else tomorrow; a date without a year is this year if it is
// still ahead, else next year, so "MM/DD" of today means next year as in
// Slurm. Errors wrap ErrInvalidTime and give the byte offset of the element
// that is wrong.
func ParseTime(s string, now time.Time) (time.Time, error) {
	if len(s) >= 3 && strings.EqualFold(s[:3], "uts") {
		return parseUTS(s, now.Location())
	}
	st := stamp{-1, -1, -1, -1, -1, 0}
	p := &parser{s: s, now: now}
	for p.pos < len(s) && s[p.pos] != '\n' {
		start := p.pos
		if err := p.step(&st); err != nil {
			return time.Time{}, fmt.Errorf("%w %q (at offset %d): %s", ErrInvalidTime, s, start, err)
		}
	}
	if st.hour == -1 && st.month == -1 {
		return time.Time{}, fmt.Errorf("%w %q: no date or time given", ErrInvalidTime, s)
	}
	return st.resolve(now), nil
}

// parseUTS parses "uts<seconds since the epoch>"; Slurm refuses values
// under 1000000.
func parseUTS(s string, loc *time.Location) (time.Time, error) {
	n, err := strconv.ParseInt(strings.TrimLeft(s[3:], " \t"), 10, 64)
	if err != nil || n < 1000000 || n > 1<<40 {
		return time.Time{}, fmt.Errorf("%w %q: want uts followed by seconds since the epoch", ErrInvalidTime, s)
	}
	return time.Unix(n, 0).In(loc), nil
}

type parser struct {
	s   string
	pos int
	now time.Time
}

// keywords are the words parse_time knows, with the clock time they set
// (hour -1: they set the date instead).
var keywords = []struct {
	word string
	hour int
}{
	{"today", -1}, {"tomorrow", -1}, {"midnight", 0}, {"noon", 12}, {"fika", 15}, {"teatime", 16},
}

// step consumes one element of the timestamp at p.pos.
func (p *parser) step(st *stamp) error {
	c := p.s[p.pos]
	// Slurm skips 'T' (the ISO date-time separator) anywhere before trying
	// words, which is why "Today" is rejected and "today" is not.
	if c == ' ' || c == '\t' || c == '-' || c == 'T' {
		p.pos++
		return nil
	}
	if p.hasWord("now") {
		return p.parseNow(st)
	}
	for _, k := range keywords {
		if p.hasWord(k.word) {
			p.pos += len(k.word)
			p.applyKeyword(k.word, k.hour, st)
			return nil
		}
	}
	if !isDigit(c) {
		return fmt.Errorf("unexpected %q", c)
	}
	if p.at(p.pos+1) == ':' || p.at(p.pos+2) == ':' {
		return p.parseClock(st)
	}
	return p.parseDate(st)
}

func (p *parser) applyKeyword(word string, hour int, st *stamp) {
	switch word {
	case "today":
		st.setDate(p.now)
	case "tomorrow":
		st.setDate(p.now.Add(24 * time.Hour))
	default:
		st.hour, st.minute, st.second = hour, 0, 0
	}
}

func (st *stamp) setDate(t time.Time) {
	st.year, st.month, st.day = t.Year(), int(t.Month()), t.Day()
}

// hasWord reports whether the text at p.pos starts with word, ignoring case.
func (p *parser) hasWord(word string) bool {
	return len(p.s)-p.pos >= len(word) && strings.EqualFold(p.s[p.pos:p.pos+len(word)], word)
}

// at returns the byte at i, or 0 past the end.
func (p *parser) at(i int) byte {
	if i < len(p.s) {
		return p.s[i]
	}
	return 0
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// resolve fills in what the timestamp left out, as parse_time does, and
// builds the time in now's location. Out-of-range days roll over as
// mktime does ("2026-02-31" is March 3).
func (st stamp) resolve(now time.Time) time.Time {
	switch {
	case st.hour == -1: // a date without a time means 00:00
		st.hour, st.minute = 0, 0
	case st.month == -1: // a time without a date means the next such time
		day := now
		if st.hour < now.Hour() || (st.hour == now.Hour() && st.minute <= now.Minute()) {
			day = now.Add(24 * time.Hour)
		}
		st.setDate(day)
	}
	if st.year == -1 {
		st.year = now.Year()
		if !st.ahead(now) {
			st.year++
		}
	}
	return time.Date(st.year, time.Month(st.month), st.day, st.hour, st.minute, st.second, 0, now.Location())
}

// ahead reports whether month, day, hour and minute come later in the year
// than now's.
func (st stamp) ahead(now time.Time) bool {
	a := [4]int{st.month, st.day, st.hour, st.minute}
	b := [4]int{int(now.Month()), now.Day(), now.Hour(), now.Minute()}
	for i := range a {
		if a[i] != b[i] {
			return a[i] > b[i]
		}
	}
	return false
}
