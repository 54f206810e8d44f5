package command

import (
	"strconv"
	"time"

	"github.com/loamhpc/loam/pkg/api"
)

// yearSeconds bounds what squeue prints as a duration; longer is INVALID.
const yearSeconds = 365 * 24 * 3600

// appendSecs prints seconds as squeue's time columns do (%M, %l, %L):
// M:SS, H:MM:SS or D-HH:MM:SS, INVALID when negative or over a year.
func appendSecs(b []byte, secs int64) []byte {
	if secs < 0 || secs > yearSeconds {
		return append(b, "INVALID"...)
	}
	d, h, m, s := secs/86400, secs/3600%24, secs/60%60, secs%60
	switch {
	case d > 0:
		b = strconv.AppendInt(b, d, 10)
		b = append(b, '-')
		b = two(b, h)
		b = append(b, ':')
		b = two(b, m)
	case h > 0:
		b = strconv.AppendInt(b, h, 10)
		b = append(b, ':')
		b = two(b, m)
	default:
		b = strconv.AppendInt(b, m, 10)
	}
	b = append(b, ':')
	return two(b, s)
}

// appendHMS prints seconds as scontrol's RunTime and TimeLimit:
// HH:MM:SS or D-HH:MM:SS, UNLIMITED for api.UnlimitedSeconds, INVALID when
// negative.
func appendHMS(b []byte, secs int64) []byte {
	if secs == api.UnlimitedSeconds {
		return append(b, "UNLIMITED"...)
	}
	if secs < 0 {
		return append(b, "INVALID"...)
	}
	d, h, m, s := secs/86400, secs/3600%24, secs/60%60, secs%60
	if d > 0 {
		b = strconv.AppendInt(b, d, 10)
		b = append(b, '-')
	}
	b = two(b, h)
	b = append(b, ':')
	b = two(b, m)
	b = append(b, ':')
	return two(b, s)
}

func two(b []byte, v int64) []byte {
	if v < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, v, 10)
}

// timeFormat prints Unix times as slurm_make_time_str does, in the
// caller's location and SLURM_TIME_FORMAT ("standard" or unset:
// 2026-11-29T10:00:00; a strftime format otherwise).
type timeFormat struct {
	loc    *time.Location
	layout string // strftime; "" for the standard form
}

func newTimeFormat(env *Env, now time.Time) timeFormat {
	tf := timeFormat{loc: now.Location()}
	if f, ok := env.Getenv("SLURM_TIME_FORMAT"); ok && f != "" && f != "standard" && f != "relative" {
		tf.layout = f
	}
	return tf
}

// appendTime prints t, or unset (a zero time) as given.
func (tf timeFormat) appendTime(b []byte, unix int64, unset string) []byte {
	if unix == 0 {
		return append(b, unset...)
	}
	loc := tf.loc
	if loc == nil {
		loc = time.Local
	}
	t := time.Unix(unix, 0).In(loc)
	if tf.layout == "" {
		return t.AppendFormat(b, "2006-01-02T15:04:05")
	}
	return strftime(b, tf.layout, t)
}

// strftime supports the conversions people put in SLURM_TIME_FORMAT.
func strftime(b []byte, layout string, t time.Time) []byte {
	for i := 0; i < len(layout); i++ {
		c := layout[i]
		if c != '%' || i+1 == len(layout) {
			b = append(b, c)
			continue
		}
		i++
		switch layout[i] {
		case 'Y':
			b = strconv.AppendInt(b, int64(t.Year()), 10)
		case 'y':
			b = two(b, int64(t.Year()%100))
		case 'm':
			b = two(b, int64(t.Month()))
		case 'd':
			b = two(b, int64(t.Day()))
		case 'e':
			b = t.AppendFormat(b, "_2")
		case 'H':
			b = two(b, int64(t.Hour()))
		case 'I':
			b = t.AppendFormat(b, "03")
		case 'M':
			b = two(b, int64(t.Minute()))
		case 'S':
			b = two(b, int64(t.Second()))
		case 'p':
			b = t.AppendFormat(b, "PM")
		case 'F':
			b = t.AppendFormat(b, "2006-01-02")
		case 'T':
			b = t.AppendFormat(b, "15:04:05")
		case 'R':
			b = t.AppendFormat(b, "15:04")
		case 'D':
			b = t.AppendFormat(b, "01/02/06")
		case 'b', 'h':
			b = t.AppendFormat(b, "Jan")
		case 'B':
			b = t.AppendFormat(b, "January")
		case 'a':
			b = t.AppendFormat(b, "Mon")
		case 'A':
			b = t.AppendFormat(b, "Monday")
		case 'j':
			b = append(b, strconv.Itoa(1000 + t.YearDay())[1:]...)
		case 'Z':
			b = t.AppendFormat(b, "MST")
		case 'z':
			b = t.AppendFormat(b, "-0700")
		case 's':
			b = strconv.AppendInt(b, t.Unix(), 10)
		case '%':
			b = append(b, '%')
		default:
			b = append(b, '%', layout[i])
		}
	}
	return b
}

// ctime prints t as C's ctime without the newline ("Sun Nov 29 10:39:57
// 2026"), the date line squeue -l and -i print.
func ctime(t time.Time) string { return t.Format("Mon Jan _2 15:04:05 2006") }
