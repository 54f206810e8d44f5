package history

import (
	"fmt"
	"time"
)

// Bucket is one stored row: the values of one series label over one
// bucket of a resolution.
type Bucket struct {
	Label string
	Start time.Time
	N     int64
	Sum   float64
	Min   float64
	Max   float64
}

// Mean is the bucket's mean value (a gauge's average).
func (b Bucket) Mean() float64 {
	if b.N == 0 {
		return 0
	}
	return b.Sum / float64(b.N)
}

// Range returns the buckets of every label of series at resolution res
// that start in [from, to), ordered by label, then time. The CROSS JOIN
// makes SQLite walk the series first and then each one's primary-key range,
// never the whole resolution's rows.
func (d *DB) Range(series string, res Resolution, from, to time.Time) ([]Bucket, error) {
	rows, err := d.db.Query(`SELECT s.label, x.t, x.n, x.sum, x.min, x.max
		FROM series s CROSS JOIN samples x ON x.series = s.id
		WHERE s.name = ? AND x.res = ? AND x.t >= ? AND x.t < ?
		ORDER BY s.label, x.t`, series, res, from.Unix(), to.Unix())
	if err != nil {
		return nil, fmt.Errorf("query history %s: %w", series, err)
	}
	defer rows.Close()
	var out []Bucket
	for rows.Next() {
		var b Bucket
		var t int64
		if err := rows.Scan(&b.Label, &t, &b.N, &b.Sum, &b.Min, &b.Max); err != nil {
			return nil, fmt.Errorf("query history %s: %w", series, err)
		}
		b.Start = time.Unix(t, 0).UTC()
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("query history %s: %w", series, err)
	}
	return out, nil
}

// Totals sums each label's buckets of series over [from, to) at res:
// the label's total (a counter's events) and its number of samples.
func (d *DB) Totals(series string, res Resolution, from, to time.Time) (map[string]Bucket, error) {
	list, err := d.Range(series, res, from, to)
	if err != nil {
		return nil, err
	}
	out := map[string]Bucket{}
	for _, b := range list {
		t, ok := out[b.Label]
		if !ok {
			t = Bucket{Label: b.Label, Start: b.Start, Min: b.Min, Max: b.Max}
		}
		t.N += b.N
		t.Sum += b.Sum
		t.Min, t.Max = min(t.Min, b.Min), max(t.Max, b.Max)
		out[b.Label] = t
	}
	return out, nil
}

// Pick chooses the finest resolution that still holds [from, now) and
// gives at most about maxPoints buckets over it.
func (d *DB) Pick(from, now time.Time, maxPoints int) Resolution {
	span := now.Sub(from)
	for _, res := range []Resolution{Minute, Hour} {
		if from.After(now.Add(-d.ret.keep(res))) && span/res.Width() <= time.Duration(maxPoints) {
			return res
		}
	}
	return Day
}

// Count returns how many rows each resolution holds (for tests and
// status).
func (d *DB) Count() (map[Resolution]int64, error) {
	rows, err := d.db.Query(`SELECT res, COUNT(*) FROM samples GROUP BY res`)
	if err != nil {
		return nil, fmt.Errorf("count history: %w", err)
	}
	defer rows.Close()
	out := map[Resolution]int64{}
	for rows.Next() {
		var res Resolution
		var n int64
		if err := rows.Scan(&res, &n); err != nil {
			return nil, fmt.Errorf("count history: %w", err)
		}
		out[res] = n
	}
	return out, rows.Err()
}
