package command

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
)

// The peer's clock and jobs when its times were captured (UTC): now is
// Sun 2026-11-29 23:06:24; jobs held with --begin now+1day, +3days,
// +30days and +400days.
const (
	peerTimeNow   = 1795993584
	peerTomorrow  = peerTimeNow + 86400
	peerThreeDays = peerTimeNow + 3*86400
	peerMonth     = 1798585584
	peerFar       = 1830553584
)

// TestTimeFormat prints times as the peer printed them (squeue -o
// '%S|%V|%e', scontrol show job) under each SLURM_TIME_FORMAT.
func TestTimeFormat(t *testing.T) {
	times := []int64{peerFar, peerMonth, peerThreeDays, peerTomorrow, peerTimeNow, peerTimeNow - 86400,
		peerTimeNow - 3*86400, peerFar + 3600, peerMonth + 3600, peerThreeDays + 3600, peerTomorrow + 3600}
	cases := map[string]struct {
		format string
		want   []string
	}{
		"unset is the standard form": {"", []string{"2028-01-03T23:06:24", "2026-12-29T23:06:24",
			"2026-12-02T23:06:24", "2026-11-30T23:06:24", "2026-11-29T23:06:24", "2026-11-28T23:06:24",
			"2026-11-26T23:06:24", "2028-01-04T00:06:24", "2026-12-30T00:06:24", "2026-12-03T00:06:24",
			"2026-12-01T00:06:24"}},
		"relative names days near now": {"relative", []string{"3 Jan 2028", "29 Dec 23:06", "Wed 23:06",
			"Tomorr 23:06", "23:06:24", "Ystday 23:06", "26 Nov 23:06", "4 Jan 2028", "30 Dec 00:06",
			"Thu 00:06", "Tue 00:06"}},
		"hours and minutes": {"%H:%M", []string{"23:06", "23:06", "23:06", "23:06", "23:06", "23:06",
			"23:06", "00:06", "00:06", "00:06", "00:06"}},
		"glibc padding flags": {"%-d %b", []string{"3 Jan", "29 Dec", "2 Dec", "30 Nov", "29 Nov", "28 Nov",
			"26 Nov", "4 Jan", "30 Dec", "3 Dec", "1 Dec"}},
		"a format without a percent is refused": {"abc", []string{"2028-01-03T23:06:24", "2026-12-29T23:06:24",
			"2026-12-02T23:06:24", "2026-11-30T23:06:24", "2026-11-29T23:06:24", "2026-11-28T23:06:24",
			"2026-11-26T23:06:24", "2028-01-04T00:06:24", "2026-12-30T00:06:24", "2026-12-03T00:06:24",
			"2026-12-01T00:06:24"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			env := &Env{Environ: []string{"SLURM_TIME_FORMAT=" + tc.format}}
			tf := newTimeFormat(env, time.Unix(peerTimeNow, 0).UTC())
			var got []string
			for _, u := range times {
				got = append(got, string(tf.appendTime(nil, u, "N/A")))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("SLURM_TIME_FORMAT=%q (-want +got):\n%s", tc.format, diff)
			}
		})
	}
}

// TestStrftime checks the conversions and flags against the peer's
// squeue -o '%S|%V' (start 2028-01-03 23:06:24, submit 2026-11-29
// 23:06:24, UTC); every time is cut to 31 bytes, as Slurm's buffers do.
func TestStrftime(t *testing.T) {
	cases := map[string]struct{ format, want string }{
		"numbers and names":   {"%a %e|%k|%l|%P|%u|%w|%U", "Mon  3|23|11|pm|1|1|01|Sun 29|23|11|pm|7|0|48"},
		"composites cut":      {"%c|%x|%X|%C|%G|%n|%t|%N|%q", "Mon Jan  3 23:06:24 2028|01/03/|Sun Nov 29 23:06:24 2026|11/29/"},
		"time composites":     {"%X|%C|%G|%n|%t|%N|%q", "23:06:24|20|2028|\n|\t|%N|%q|23:06:24|20|2026|\n|\t|%N|%q"},
		"dates and weeks":     {"%D %r %h %I %g %V", "01/03/28 11:06:24 PM Jan 11 28 |11/29/26 11:06:24 PM Nov 11 26 "},
		"modifiers and zones": {"%u %W %y %Z %z %E %O", "1 01 28 UTC +0000 %E %O|7 47 26 UTC +0000 %E %O"},
		"flags and widths":    {"%+|%Q|%-H|%_m|%0e|%5d|%^a", "%+|%Q|23| 1|03|00003|MON|%+|%Q|23|11|29|00029|SUN"},
		"E O and case swap":   {"%Ey|%Od|%-I|%#b|%s", "28|03|11|JAN|1830553584|26|29|11|NOV|1795993584"},
		"lone percent":        {"%", "%|%"},
		"trailing percent":    {"a%", "a%|a%"},
		"escaped percent":     {"%%", "%|%"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			env := &Env{Environ: []string{"SLURM_TIME_FORMAT=" + tc.format}}
			tf := newTimeFormat(env, time.Unix(peerTimeNow, 0).UTC())
			got := string(tf.appendTime(nil, peerFar, "")) + "|" + string(tf.appendTime(nil, peerTimeNow, ""))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("SLURM_TIME_FORMAT=%q (-want +got):\n%s", tc.format, diff)
			}
		})
	}
}

// TestTimeFormatInvalid checks that squeue says once, on standard error,
// that SLURM_TIME_FORMAT is invalid (no '%', or 32 bytes or more) and
// prints the standard form, as the peer does.
func TestTimeFormatInvalid(t *testing.T) {
	long := "%D %r %h %I %g %V %u %W %y %Z %z %E %O %+"
	cases := map[string]struct{ format, stderr string }{
		"no percent":   {"abc", "squeue: error: invalid SLURM_TIME_FORMAT = 'abc'\n"},
		"too long":     {long, "squeue: error: invalid SLURM_TIME_FORMAT = '" + long + "'\n"},
		"31 bytes fit": {strings.Repeat("%%", 15) + "x", ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := &fakeController{now: peerTimeNow, jobs: []api.Job{
				{JobID: 17316, UserID: 1000, UserName: "alice", JobState: job.Pending, SubmitTime: peerTimeNow, StartTime: peerMonth},
				{JobID: 17317, UserID: 1000, UserName: "alice", JobState: job.Pending, SubmitTime: peerTimeNow, StartTime: peerFar},
			}}
			te := newTestEnv(f, peerTimeNow)
			te.Environ = append(te.Environ, "SLURM_TIME_FORMAT="+tc.format)
			if code := Squeue(context.Background(), te.Env, []string{"-h", "-o", "%i|%V"}); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			if diff := cmp.Diff(tc.stderr, te.stderr.String()); diff != "" {
				t.Errorf("stderr (-want +got):\n%s", diff)
			}
			if tc.stderr != "" {
				want := "17317|2026-11-29T23:06:24\n17316|2026-11-29T23:06:24\n"
				if diff := cmp.Diff(want, te.stdout.String()); diff != "" {
					t.Errorf("stdout (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// FuzzTimeFormat checks that any SLURM_TIME_FORMAT prints a time of at
// most 31 bytes without panicking.
func FuzzTimeFormat(f *testing.F) {
	for _, s := range []string{"relative", "%H:%M", "%-d %b", "%", "%5", "%E", "%_10m", "%#Z%^p", "%c%c%c", "abc"} {
		f.Add(s, int64(peerFar))
	}
	f.Fuzz(func(t *testing.T, format string, unix int64) {
		if unix <= 0 || unix > 1<<40 {
			return
		}
		env := &Env{Environ: []string{"SLURM_TIME_FORMAT=" + format}, Stderr: io.Discard}
		tf := newTimeFormat(env, time.Unix(peerTimeNow, 0).UTC())
		if got := tf.appendTime(nil, unix, "N/A"); len(got) > timeStrMax {
			t.Errorf("SLURM_TIME_FORMAT=%q printed %d bytes: %q", format, len(got), got)
		}
	})
}

// TestCtimePadsTheDay: the date line of squeue -l, sinfo -l and sdiag
// pads a one-digit day with 0, as the peer printed it on December 1st
// ("Tue Dec 01 00:05:25 2026").
func TestCtimePadsTheDay(t *testing.T) {
	at := time.Date(2026, 12, 1, 0, 5, 25, 0, time.UTC)
	if got, want := ctime(at), "Tue Dec 01 00:05:25 2026"; got != want {
		t.Errorf("ctime = %q, want %q", got, want)
	}
}
