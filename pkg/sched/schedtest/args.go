package schedtest

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/sched"
)

// args reads a directive's key=value arguments, remembering the first
// error instead of failing at each call.
type args struct {
	d   *Directive
	err error
}

func (a *args) fail(format string, v ...any) {
	if a.err == nil {
		a.err = fmt.Errorf(format, v...)
	}
}

func (a *args) str(key, def string) string {
	if v, ok := a.d.Arg(key); ok {
		return v
	}
	return def
}

func (a *args) int64(key string, def int64) int64 {
	v, ok := a.d.Arg(key)
	if !ok {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		a.fail("%s=%q is not a number", key, v)
	}
	return n
}

func (a *args) float(key string, def float64) float64 {
	v, ok := a.d.Arg(key)
	if !ok {
		return def
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		a.fail("%s=%q is not a number", key, v)
	}
	return f
}

func (a *args) list(key string) []string {
	v, ok := a.d.Arg(key)
	if !ok || v == "" {
		return nil
	}
	return strings.Split(v, ",")
}

// dur parses "90m", "2h", "1d", with an optional sign.
func (a *args) dur(v string) time.Duration {
	neg := strings.HasPrefix(v, "-")
	v = strings.TrimLeft(v, "+-")
	var d time.Duration
	if n, err := strconv.Atoi(strings.TrimSuffix(v, "d")); err == nil && strings.HasSuffix(v, "d") {
		d = time.Duration(n) * 24 * time.Hour
	} else if d2, err := time.ParseDuration(v); err == nil {
		d = d2
	} else {
		a.fail("bad duration %q", v)
	}
	if neg {
		return -d
	}
	return d
}

func (a *args) durOr(key string, def time.Duration) time.Duration {
	if v, ok := a.d.Arg(key); ok {
		return a.dur(v)
	}
	return def
}

// at reads a time relative to now ("-1h", "+30m").
func (a *args) at(key string, now time.Time) time.Time {
	if v, ok := a.d.Arg(key); ok {
		return now.Add(a.dur(v))
	}
	return now
}

// name is the first argument, a job name.
func (a *args) name() string {
	if len(a.d.Args) == 0 || !strings.HasPrefix(a.d.Args[0], "j") {
		a.fail("%s wants a job name first", a.d.Cmd)
		return "j0"
	}
	return a.d.Args[0]
}

func (a *args) id() sched.JobID {
	if len(a.d.Args) == 0 {
		a.fail("%s wants a job name", a.d.Cmd)
		return 0
	}
	n, err := strconv.ParseUint(strings.TrimPrefix(a.d.Args[0], "j"), 10, 32)
	if err != nil {
		a.fail("bad job name %q", a.d.Args[0])
	}
	return sched.JobID(n)
}

// indices parses "0-3,6" into [0 1 2 3 6].
func (a *args) indices(s string) []int {
	var out []int
	if s == "" {
		return nil
	}
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		l, err1 := strconv.Atoi(lo)
		h := l
		var err2 error
		if isRange {
			h, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || h < l {
			a.fail("bad index list %q", s)
			return out
		}
		for g := l; g <= h; g++ {
			out = append(out, g)
		}
	}
	return out
}
