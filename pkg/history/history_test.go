package history

import (
	"database/sql"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var t0 = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

func open(t *testing.T, ret Retention) *DB {
	t.Helper()
	d, err := Open(filepath.Join(t.TempDir(), FileName), ret)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// brief makes buckets comparable: label, start, n, sum, min, max.
type brief struct {
	Label         string
	Start         string
	N             int64
	Sum, Min, Max float64
}

func briefs(bs []Bucket) []brief {
	var out []brief
	for _, b := range bs {
		out = append(out, brief{b.Label, b.Start.Format("01-02T15:04"), b.N, b.Sum, b.Min, b.Max})
	}
	return out
}

func TestRollUp(t *testing.T) {
	tests := map[string]struct {
		writes    map[time.Duration]float64 // offset from t0 -> value of quota{a}
		res       Resolution
		wantRange []brief
	}{
		"minutes are stored as written": {
			writes: map[time.Duration]float64{0: 1, time.Minute: 3, 2*time.Minute + 30*time.Second: 5},
			res:    Minute,
			wantRange: []brief{{"a", "03-01T00:00", 1, 1, 1, 1}, {"a", "03-01T00:01", 1, 3, 3, 3},
				{"a", "03-01T00:02", 1, 5, 5, 5}},
		},
		"an hour sums its minutes and keeps their extremes": {
			writes:    map[time.Duration]float64{0: 1, 59 * time.Minute: 3, time.Hour: 10},
			res:       Hour,
			wantRange: []brief{{"a", "03-01T00:00", 2, 4, 1, 3}, {"a", "03-01T01:00", 1, 10, 10, 10}},
		},
		"a day rolls up every minute of the UTC day": {
			writes:    map[time.Duration]float64{0: 2, 23 * time.Hour: 4, 24 * time.Hour: -1},
			res:       Day,
			wantRange: []brief{{"a", "03-01T00:00", 2, 6, 2, 4}, {"a", "03-02T00:00", 1, -1, -1, -1}},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			d := open(t, Retention{})
			for off, v := range tc.writes {
				if err := d.Record(t0.Add(off), []Point{{"quota", "a", v}}); err != nil {
					t.Fatal(err)
				}
			}
			got, err := d.Range("quota", tc.res, t0, t0.Add(72*time.Hour))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantRange, briefs(got)); diff != "" {
				t.Errorf("Range (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRecordSameMinuteTwiceCountsOnce(t *testing.T) {
	d := open(t, Retention{})
	for _, v := range []float64{7, 9} {
		if err := d.Record(t0.Add(10*time.Second), []Point{{"waits", "normal", v}}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := d.Range("waits", Hour, t0, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	want := []brief{{"normal", "03-01T00:00", 1, 7, 7, 7}}
	if diff := cmp.Diff(want, briefs(got)); diff != "" {
		t.Errorf("hour after a repeated minute (-want +got):\n%s", diff)
	}
}

func TestPruneKeepsEachResolutionForItsRetention(t *testing.T) {
	ret := Retention{Minutes: 2 * time.Hour, Hours: 3 * 24 * time.Hour, Days: 10 * 24 * time.Hour}
	d := open(t, ret)
	// One sample every 10 minutes for 20 days, as an injected clock.
	now := t0
	for ; now.Before(t0.Add(20 * 24 * time.Hour)); now = now.Add(10 * time.Minute) {
		if err := d.Record(now, []Point{{"frag", "", 0.5}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.Prune(now); err != nil {
		t.Fatal(err)
	}
	got, err := d.Count()
	if err != nil {
		t.Fatal(err)
	}
	// 2 h of 10-minute samples; 3 days of hours; 10 days of days (the
	// day that starts exactly at the cut is kept).
	want := map[Resolution]int64{Minute: 12, Hour: 72, Day: 10}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows after prune (-want +got):\n%s", diff)
	}
	// Pruning again at the same time deletes nothing.
	if n, err := d.Prune(now); err != nil || n != 0 {
		t.Errorf("second prune deleted %d rows (err %v), want 0", n, err)
	}
	// The oldest day left still has all its minutes rolled up.
	days, err := d.Range("frag", Day, now.Add(-10*24*time.Hour), now)
	if err != nil || len(days) == 0 {
		t.Fatalf("days: %v, %v", days, err)
	}
	if days[0].N != 144 || days[0].Mean() != 0.5 {
		t.Errorf("oldest day kept: n=%d mean=%v, want 144 and 0.5", days[0].N, days[0].Mean())
	}
}

func TestRecordRefusesBadPoints(t *testing.T) {
	tests := map[string]struct {
		pt      Point
		wantErr string
	}{
		"an empty series name": {Point{"", "x", 1}, "empty series name"},
		"NaN":                  {Point{"s", "x", math.NaN()}, "s{x}: value NaN is not finite"},
		"infinity":             {Point{"s", "", math.Inf(1)}, "s{}: value +Inf is not finite"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			d := open(t, Retention{})
			err := d.Record(t0, []Point{{"ok", "", 1}, tc.pt})
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("Record: %v, want an error containing %q", err, tc.wantErr)
			}
			if got, _ := d.Range("ok", Minute, t0, t0.Add(time.Minute)); len(got) != 0 {
				t.Errorf("a refused batch stored %d rows", len(got))
			}
		})
	}
}

func TestTotalsAndLabels(t *testing.T) {
	d := open(t, Retention{})
	for i := range 3 {
		at := t0.Add(time.Duration(i) * time.Hour)
		if err := d.Record(at, []Point{{"preempt", "b", 2}, {"preempt", "a", float64(i)}}); err != nil {
			t.Fatal(err)
		}
	}
	got, err := d.Totals("preempt", Hour, t0, t0.Add(24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]brief{"a": {"a", "03-01T00:00", 3, 3, 0, 2}, "b": {"b", "03-01T00:00", 3, 6, 2, 2}}
	gotB := map[string]brief{}
	for k, b := range got {
		gotB[k] = briefs([]Bucket{b})[0]
	}
	if diff := cmp.Diff(want, gotB); diff != "" {
		t.Errorf("Totals (-want +got):\n%s", diff)
	}
}

func TestPick(t *testing.T) {
	d := open(t, Retention{})
	now := t0.Add(1000 * time.Hour)
	tests := map[string]struct {
		span time.Duration
		want Resolution
	}{
		"the last hour in minutes":          {time.Hour, Minute},
		"a week in hours":                   {7 * 24 * time.Hour, Hour},
		"three days exceed the minute rows": {3 * 24 * time.Hour, Hour},
		"a quarter in days":                 {91 * 24 * time.Hour, Day},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if got := d.Pick(now.Add(-tc.span), now, 400); got != tc.want {
				t.Errorf("Pick(%v) = %v, want %v", tc.span, got, tc.want)
			}
		})
	}
}

func TestReopenKeepsDataAndRefusesNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	d, err := Open(path, Retention{})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Record(t0, []Point{{"s", "", 1}}); err != nil {
		t.Fatal(err)
	}
	d.Close()
	d, err = Open(path, Retention{})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := d.Range("s", Minute, t0, t0.Add(time.Minute)); len(got) != 1 {
		t.Errorf("after reopen: %d rows, want 1", len(got))
	}
	d.Close()
	raw, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`PRAGMA user_version = 99`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	if _, err := Open(path, Retention{}); err == nil || !strings.Contains(err.Error(), "schema version 99 is newer") {
		t.Errorf("Open of a newer schema: %v", err)
	}
}
