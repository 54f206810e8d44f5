package history

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	_ "github.com/mattn/go-sqlite3" // the database/sql driver "sqlite3"
)

// FileName is the database file's name in the controller's state
// directory.
const FileName = "history.db"

// Resolution is the width of a stored bucket.
type Resolution int

// Resolutions, finest first.
const (
	Minute Resolution = iota
	Hour
	Day
)

// Width returns the resolution's bucket width.
func (r Resolution) Width() time.Duration {
	switch r {
	case Hour:
		return time.Hour
	case Day:
		return 24 * time.Hour
	}
	return time.Minute
}

func (r Resolution) String() string {
	return [...]string{"minute", "hour", "day"}[r]
}

// Retention is how long each resolution is kept.
type Retention struct {
	Minutes time.Duration
	Hours   time.Duration
	Days    time.Duration
}

// DefaultRetention keeps minutes 2 days, hours 90 days, days 3 years.
var DefaultRetention = Retention{Minutes: 48 * time.Hour, Hours: 90 * 24 * time.Hour, Days: 3 * 366 * 24 * time.Hour}

func (r *Retention) defaults() {
	if r.Minutes <= 0 {
		r.Minutes = DefaultRetention.Minutes
	}
	if r.Hours <= 0 {
		r.Hours = DefaultRetention.Hours
	}
	if r.Days <= 0 {
		r.Days = DefaultRetention.Days
	}
}

// keep returns the retention of res.
func (r Retention) keep(res Resolution) time.Duration {
	return [...]time.Duration{r.Minutes, r.Hours, r.Days}[res]
}

// DB is an open history database. Its methods are safe for concurrent
// use; writes are serialized by SQLite.
type DB struct {
	db  *sql.DB
	ret Retention
	ids *seriesCache
}

// Open opens (creating when needed) the history database at path.
func Open(path string, ret Retention) (*DB, error) {
	ret.defaults()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open history: %w", err)
	}
	dsn := fmt.Sprintf("file:%s?_txlock=immediate&_busy_timeout=10000&_journal_mode=WAL&_synchronous=NORMAL", path)
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("open history %s: %w", path, err)
	}
	db.SetMaxOpenConns(4)
	if err := migrate(db); err != nil {
		db.Close()
		return nil, fmt.Errorf("open history %s: %w", path, err)
	}
	return &DB{db: db, ret: ret, ids: newSeriesCache()}, nil
}

// Close closes the database.
func (d *DB) Close() error { return d.db.Close() }

// Retention returns the retention in force.
func (d *DB) Retention() Retention { return d.ret }

// schema is the whole schema; user_version says it is in place.
const schema = `
CREATE TABLE series (
	id    INTEGER PRIMARY KEY,
	name  TEXT NOT NULL,
	label TEXT NOT NULL,
	UNIQUE (name, label)
);
CREATE TABLE samples (
	res    INTEGER NOT NULL,
	series INTEGER NOT NULL,
	t      INTEGER NOT NULL,
	n      INTEGER NOT NULL,
	sum    REAL NOT NULL,
	min    REAL NOT NULL,
	max    REAL NOT NULL,
	PRIMARY KEY (res, series, t)
) WITHOUT ROWID;
CREATE INDEX samples_age ON samples (res, t);
`

const schemaVersion = 1

func migrate(db *sql.DB) error {
	var v int
	if err := db.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	switch {
	case v == schemaVersion:
		return nil
	case v > schemaVersion:
		return fmt.Errorf("schema version %d is newer than this program's %d", v, schemaVersion)
	}
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	if _, err := tx.Exec(schema); err != nil {
		return errors.Join(fmt.Errorf("create schema: %w", err), tx.Rollback())
	}
	if _, err := tx.Exec(fmt.Sprintf(`PRAGMA user_version = %d`, schemaVersion)); err != nil {
		return errors.Join(err, tx.Rollback())
	}
	return tx.Commit()
}
