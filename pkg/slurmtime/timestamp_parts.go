package slurmtime

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// deltaUnits are the units of now+count; longer names first so that
// "hours" is not read as "hour" followed by "s".
var deltaUnits = []struct {
	name string
	secs int64
}{
	{"seconds", 1}, {"second", 1}, {"minutes", 60}, {"minute", 60}, {"hours", 3600}, {"hour", 3600},
	{"days", 86400}, {"day", 86400}, {"weeks", 7 * 86400}, {"week", 7 * 86400},
}

// maxDelta bounds now+count (about 300 years) so that the sum cannot
// overflow.
const maxDelta = 10_000_000_000

// parseNow reads now[{+|-}count[unit]], with blanks allowed around the
// sign and count, and sets the whole timestamp to now plus the delta.
func (p *parser) parseNow(st *stamp) error {
	p.pos += len("now")
	for p.pos < len(p.s) && isBlank(p.s[p.pos]) {
		p.pos++
	}
	var delta int64
	if sign := p.at(p.pos); sign == '+' || sign == '-' {
		p.pos++
		d, err := p.parseDelta()
		if err != nil {
			return err
		}
		delta = d
		if sign == '-' {
			delta = -d
		}
	} else if p.pos < len(p.s) && p.s[p.pos] != '\n' {
		return fmt.Errorf("unexpected %q after now", p.s[p.pos])
	}
	t := p.now.Add(time.Duration(delta) * time.Second)
	st.setDate(t)
	st.hour, st.minute, st.second = t.Hour(), t.Minute(), t.Second()
	return nil
}

// parseDelta reads a count with an optional unit (default seconds).
func (p *parser) parseDelta() (int64, error) {
	var n int64
	digits := 0
	for ; p.pos < len(p.s) && p.s[p.pos] != '\n'; p.pos++ {
		c := p.s[p.pos]
		if isBlank(c) {
			continue
		}
		if u, ok := p.unit(); ok {
			p.pos += len(u.name)
			n *= u.secs
			break
		}
		if !isDigit(c) {
			return 0, fmt.Errorf("unexpected %q in the count after now", c)
		}
		n = n*10 + int64(c-'0')
		digits++
		if n > maxDelta {
			return 0, errors.New("count after now is too large")
		}
	}
	if digits == 0 {
		return 0, errors.New("no count after now+ or now-")
	}
	if n > maxDelta*7*86400 {
		return 0, errors.New("count after now is too large")
	}
	return n, nil
}

func (p *parser) unit() (struct {
	name string
	secs int64
}, bool) {
	for _, u := range deltaUnits {
		if p.hasWord(u.name) {
			return u, true
		}
	}
	return deltaUnits[0], false
}

// parseClock reads HH:MM[:SS] [AM|PM]: a one- or two-digit hour, then
// two-digit minutes and seconds.
func (p *parser) parseClock(st *stamp) error {
	hour, err := p.digits(1, 2, 0, 23, "hour")
	if err != nil {
		return err
	}
	if p.at(p.pos) != ':' {
		return errors.New("want ':' after the hour")
	}
	p.pos++
	minute, err := p.digits(2, 2, 0, 59, "minute")
	if err != nil {
		return err
	}
	second := 0
	if p.at(p.pos) == ':' {
		p.pos++
		if second, err = p.digits(2, 2, 0, 59, "second"); err != nil {
			return err
		}
	}
	if hour, err = p.meridiem(hour); err != nil {
		return err
	}
	st.hour, st.minute, st.second = hour, minute, second
	return nil
}

// meridiem applies an optional AM/PM (after blanks) to a 24-hour clock
// hour, as Slurm does: 12 PM is noon, 12 AM midnight, 13 PM an error.
func (p *parser) meridiem(hour int) (int, error) {
	end := p.pos
	for end < len(p.s) && isBlank(p.s[end]) {
		end++
	}
	rest := p.s[end:]
	switch {
	case len(rest) >= 2 && strings.EqualFold(rest[:2], "pm"):
		p.pos = end + 2
		if hour == 12 {
			return 12, nil
		}
		if hour > 11 {
			return 0, fmt.Errorf("hour %d with PM", hour)
		}
		return hour + 12, nil
	case len(rest) >= 2 && strings.EqualFold(rest[:2], "am"):
		p.pos = end + 2
		if hour == 12 {
			return 0, nil
		}
		if hour > 11 {
			return 0, fmt.Errorf("hour %d with AM", hour)
		}
	}
	return hour, nil
}

// digits reads between minN and maxN decimal digits as a number in
// [lo, hi].
func (p *parser) digits(minN, maxN, lo, hi int, what string) (int, error) {
	v, n := 0, 0
	for n < maxN && isDigit(p.at(p.pos)) {
		v = v*10 + int(p.s[p.pos]-'0')
		p.pos++
		n++
	}
	if n == 0 {
		return 0, fmt.Errorf("missing %s", what)
	}
	if n < minN {
		return 0, fmt.Errorf("want %d digits for the %s", minN, what)
	}
	if v < lo || v > hi {
		return 0, fmt.Errorf("%s %d is out of range", what, v)
	}
	return v, nil
}

// parseDate reads YYYY-MM-DD, or MMDD[YY], MM/DD[/YY], MM.DD[.YY].
func (p *parser) parseDate(st *stamp) error {
	if p.at(p.pos+4) == '-' && p.at(p.pos+7) == '-' {
		return p.parseISODate(st)
	}
	month, err := p.digits(1, 2, 1, 12, "month")
	if err != nil {
		return err
	}
	p.skipDateSep()
	day, err := p.digits(1, 2, 1, 31, "day")
	if err != nil {
		return err
	}
	p.skipDateSep()
	st.month, st.day = month, day
	if isDigit(p.at(p.pos)) {
		yy, err := p.digits(2, 2, 0, 99, "year")
		if err != nil {
			return err
		}
		if yy != 0 { // Slurm reads year 00 as "no year given"
			st.year = 2000 + yy
		}
	}
	return nil
}

func (p *parser) skipDateSep() {
	if c := p.at(p.pos); c == '.' || c == '/' {
		p.pos++
	}
}

// parseISODate reads YYYY-MM-DD.
func (p *parser) parseISODate(st *stamp) error {
	year, err := p.digits(4, 4, 0, 9999, "year")
	if err != nil {
		return err
	}
	p.pos++ // '-'
	month, err := p.digits(1, 2, 1, 12, "month")
	if err != nil {
		return err
	}
	p.pos++ // '-'
	day, err := p.digits(1, 2, 1, 31, "day")
	if err != nil {
		return err
	}
	st.year, st.month, st.day = year, month, day
	return nil
}
