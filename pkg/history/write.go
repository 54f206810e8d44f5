package history

import (
	"database/sql"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"
)

// Point is one value of one series.
type Point struct {
	Series string
	Label  string
	Value  float64
}

// seriesCache remembers series ids, which never change once created.
type seriesCache struct {
	mu  sync.Mutex
	ids map[[2]string]int64
}

func newSeriesCache() *seriesCache { return &seriesCache{ids: map[[2]string]int64{}} }

func (c *seriesCache) get(k [2]string) (int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	id, ok := c.ids[k]
	return id, ok
}

func (c *seriesCache) put(k [2]string, id int64) {
	c.mu.Lock()
	c.ids[k] = id
	c.mu.Unlock()
}

// Record stores pts as the samples of the minute holding at, and adds them
// to that hour's and day's roll-ups. A series already recorded for that
// minute keeps its first value. Values that are not finite are refused.
func (d *DB) Record(at time.Time, pts []Point) error {
	for _, p := range pts {
		if p.Series == "" {
			return errors.New("record history: empty series name")
		}
		if math.IsNaN(p.Value) || math.IsInf(p.Value, 0) {
			return fmt.Errorf("record history: series %s{%s}: value %v is not finite", p.Series, p.Label, p.Value)
		}
	}
	tx, err := d.db.Begin()
	if err != nil {
		return fmt.Errorf("record history: %w", err)
	}
	if err := d.record(tx, at.UTC(), pts); err != nil {
		return errors.Join(fmt.Errorf("record history: %w", err), tx.Rollback())
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("record history: %w", err)
	}
	return nil
}

func (d *DB) record(tx *sql.Tx, at time.Time, pts []Point) error {
	ins, err := tx.Prepare(`INSERT OR IGNORE INTO samples (res, series, t, n, sum, min, max) VALUES (?, ?, ?, 1, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer ins.Close()
	up, err := tx.Prepare(`INSERT INTO samples (res, series, t, n, sum, min, max) VALUES (?, ?, ?, 1, ?, ?, ?)
		ON CONFLICT (res, series, t) DO UPDATE SET n = n + 1, sum = sum + excluded.sum,
		min = MIN(min, excluded.min), max = MAX(max, excluded.max)`)
	if err != nil {
		return err
	}
	defer up.Close()
	minute := at.Truncate(time.Minute).Unix()
	hour, day := at.Truncate(time.Hour).Unix(), dayStart(at).Unix()
	for _, p := range pts {
		id, err := d.seriesID(tx, p.Series, p.Label)
		if err != nil {
			return err
		}
		res, err := ins.Exec(Minute, id, minute, p.Value, p.Value, p.Value)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			continue // this minute is already stored and rolled up
		}
		for _, b := range []struct {
			res Resolution
			t   int64
		}{{Hour, hour}, {Day, day}} {
			if _, err := up.Exec(b.res, id, b.t, p.Value, p.Value, p.Value); err != nil {
				return err
			}
		}
	}
	return nil
}

// dayStart is the UTC midnight starting t's day.
func dayStart(t time.Time) time.Time {
	y, m, dd := t.UTC().Date()
	return time.Date(y, m, dd, 0, 0, 0, 0, time.UTC)
}

// seriesID returns the id of a series, creating it.
func (d *DB) seriesID(tx *sql.Tx, name, label string) (int64, error) {
	k := [2]string{name, label}
	if id, ok := d.ids.get(k); ok {
		return id, nil
	}
	if _, err := tx.Exec(`INSERT OR IGNORE INTO series (name, label) VALUES (?, ?)`, name, label); err != nil {
		return 0, err
	}
	var id int64
	if err := tx.QueryRow(`SELECT id FROM series WHERE name = ? AND label = ?`, name, label).Scan(&id); err != nil {
		return 0, err
	}
	d.ids.put(k, id)
	return id, nil
}

// Prune deletes the rows each resolution's retention no longer covers at
// now and returns how many it deleted.
func (d *DB) Prune(now time.Time) (int64, error) {
	var total int64
	for _, res := range []Resolution{Minute, Hour, Day} {
		cut := now.Add(-d.ret.keep(res)).Unix()
		r, err := d.db.Exec(`DELETE FROM samples WHERE res = ? AND t < ?`, res, cut)
		if err != nil {
			return total, fmt.Errorf("prune history: %w", err)
		}
		n, _ := r.RowsAffected()
		total += n
	}
	return total, nil
}
