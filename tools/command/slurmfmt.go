package command

import (
	"io"
	"strconv"
	"strings"
	"sync"
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
// caller's location and SLURM_TIME_FORMAT: "standard" or unset
// (2026-11-29T10:00:00), "relative" (10:00:00 today, "Tomorr 10:00", "Wed
// 10:00", "3 Jan 10:00", "3 Jan 2028"), or a strftime format. Like Slurm,
// a format without '%' or of 32 bytes or more is refused with an error on
// the first time printed, and every time is cut to 31 bytes.
type timeFormat struct {
	loc      *time.Location
	layout   string // strftime; "" for the standard form
	relative bool
	today    int // dayNumber of now, for relative
	env      *Env
	invalid  string // the refused SLURM_TIME_FORMAT
}

// timeStrMax is the size of Slurm's time buffers less the NUL.
const timeStrMax = 31

func newTimeFormat(env *Env, now time.Time) timeFormat {
	tf := timeFormat{loc: now.Location(), env: env, today: dayNumber(now)}
	f, _ := env.Getenv("SLURM_TIME_FORMAT")
	switch {
	case f == "" || f == "standard":
	case f == "relative":
		tf.relative = true
	case !strings.Contains(f, "%") || len(f) > timeStrMax:
		tf.invalid = f
	default:
		tf.layout = f
	}
	return tf
}

// dayNumber numbers t's day as Slurm's relative form compares days:
// across a new year the distance is large, so such dates print in full.
func dayNumber(t time.Time) int { return 1000*t.Year() + t.YearDay() }

// relativeLayout is the layout "relative" prints t with.
func (tf timeFormat) relativeLayout(t time.Time) string {
	switch d := dayNumber(t) - tf.today; {
	case d == -1:
		return "Ystday %H:%M"
	case d == 0:
		return "%H:%M:%S"
	case d == 1:
		return "Tomorr %H:%M"
	case d < -365 || d > 365:
		return "%-d %b %Y"
	case d < -1 || d > 6:
		return "%-d %b %H:%M"
	}
	return "%a %H:%M"
}

// appendTime prints t, or unset (a zero time) as given.
func (tf timeFormat) appendTime(b []byte, unix int64, unset string) []byte {
	if unix == 0 {
		return append(b, unset...)
	}
	if tf.invalid != "" {
		warnTimeFormat(tf.env, tf.invalid)
	}
	loc := tf.loc
	if loc == nil {
		loc = time.Local
	}
	t := time.Unix(unix, 0).In(loc)
	layout := tf.layout
	if tf.relative {
		layout = tf.relativeLayout(t)
	}
	if layout == "" {
		return t.AppendFormat(b, "2006-01-02T15:04:05")
	}
	start := len(b)
	b = strftime(b, layout, t)
	if len(b)-start > timeStrMax {
		b = b[:start+timeStrMax]
	}
	return b
}

// timeFormatWarned holds the environments (one per command run) already
// told that their SLURM_TIME_FORMAT is invalid: Slurm says it once.
var timeFormatWarned sync.Map

// commandProgs maps an environment to the name of the command running
// in it, for messages printed away from the command's output.
var commandProgs sync.Map

// noteProg records that prog runs in env.
func noteProg(env *Env, prog string) { commandProgs.Store(env, prog) }

// warnTimeFormat prints Slurm's error for an invalid SLURM_TIME_FORMAT,
// once per environment.
func warnTimeFormat(env *Env, f string) {
	if env == nil || env.Stderr == nil {
		return
	}
	if _, done := timeFormatWarned.LoadOrStore(env, true); done {
		return
	}
	name, _ := commandProgs.Load(env)
	prog, _ := name.(string)
	if prog == "" {
		prog = "slurm"
	}
	io.WriteString(env.Stderr, prog+": error: invalid SLURM_TIME_FORMAT = '"+f+"'\n")
}

// ctime prints t as Slurm's slurm_ctime2 does ("Tue Dec 01 00:05:25
// 2026", strftime "%a %b %d %T %Y": the day zero-padded, where C's ctime
// pads it with a blank), the date line squeue -l and -i, sinfo -l and
// sdiag print.
func ctime(t time.Time) string { return t.Format("Mon Jan 02 15:04:05 2006") }
