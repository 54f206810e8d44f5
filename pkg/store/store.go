package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	_ "github.com/mattn/go-sqlite3" // the database/sql driver "sqlite3"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// FileName is the database file's name under StateSaveLocation.
const FileName = "loam.db"

// Sync is the durability level of commits.
type Sync string

// Durability levels; see the package doc.
const (
	SyncFull   Sync = "FULL"
	SyncNormal Sync = "NORMAL"
)

// ErrClosed is returned for changes enqueued after Close.
var ErrClosed = errors.New("store closed")

// Options configure Open.
type Options struct {
	Sync Sync // SyncFull when empty
	// MaxBatch bounds how many changes one transaction groups (1024 when 0).
	MaxBatch int
}

// Store is the open database. Its methods are safe for concurrent use.
type Store struct {
	path   string
	writer *sql.DB // one connection: the committer's
	reader *sql.DB // read-only connections for queries

	mu      sync.Mutex
	queue   []*Pending
	wake    chan struct{}
	closed  bool
	done    chan struct{}
	maxBat  int
	commits uint64 // transactions committed (stats)
	changes uint64 // changes committed (stats)
}

// Open opens (creating when needed) the database in dir, applies pending
// migrations and starts the committer.
func Open(dir string, opts Options) (*Store, error) {
	if opts.Sync == "" {
		opts.Sync = SyncFull
	}
	if opts.Sync != SyncFull && opts.Sync != SyncNormal {
		return nil, fmt.Errorf("open store: unknown sync level %q", opts.Sync)
	}
	if opts.MaxBatch <= 0 {
		opts.MaxBatch = 1024
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	path := filepath.Join(dir, FileName)
	// _txlock=immediate: a transaction takes the write lock at BEGIN, so a
	// read-then-write transaction cannot fail with "database is locked".
	dsn := fmt.Sprintf("file:%s?_txlock=immediate&_busy_timeout=10000&_journal_mode=WAL&_synchronous=%s&_foreign_keys=off", path, opts.Sync)
	w, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	if err := migrate(w); err != nil {
		w.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	r, err := sql.Open("sqlite3", fmt.Sprintf("file:%s?mode=ro&_busy_timeout=10000&_journal_mode=WAL", path))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	r.SetMaxOpenConns(4)
	s := &Store{path: path, writer: w, reader: r, wake: make(chan struct{}, 1), done: make(chan struct{}), maxBat: opts.MaxBatch}
	go s.commitLoop()
	return s, nil
}

// Path returns the database file.
func (s *Store) Path() string { return s.path }

// Close commits what is queued, stops the committer and closes the
// database. Changes enqueued afterwards fail with ErrClosed.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	s.signal()
	<-s.done
	return errors.Join(s.reader.Close(), s.writer.Close())
}

// Stats returns how many transactions and changes were committed.
func (s *Store) Stats() (commits, changes uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.commits, s.changes
}

type migration struct {
	version int
	name    string
	sql     string
}

func migrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFS, "migrations")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || !strings.HasSuffix(e.Name(), ".sql") {
			return nil, fmt.Errorf("migration %s: want NNNN_name.sql", e.Name())
		}
		data, err := migrationFS.ReadFile("migrations/" + e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: e.Name(), sql: string(data)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i, m := range out {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: expected version %d", m.name, i+1)
		}
	}
	return out, nil
}

// migrate applies the migrations newer than the database's user_version.
func migrate(db *sql.DB) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	var have int
	if err := db.QueryRow("PRAGMA user_version").Scan(&have); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if have > len(ms) {
		return fmt.Errorf("database schema version %d is newer than this loam-ctld (%d)", have, len(ms))
	}
	for _, m := range ms[have:] {
		if err := apply(db, m); err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	return nil
}

func apply(db *sql.DB, m migration) error {
	tx, err := db.BeginTx(context.Background(), nil)
	if err != nil {
		return err
	}
	if _, err := tx.Exec(m.sql); err != nil {
		tx.Rollback()
		return err
	}
	if _, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", m.version)); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// SchemaVersion returns the database's schema version.
func (s *Store) SchemaVersion() (int, error) {
	var v int
	err := s.writerQueryRow("PRAGMA user_version").Scan(&v)
	return v, err
}

func (s *Store) writerQueryRow(q string, args ...any) *sql.Row {
	return s.reader.QueryRow(q, args...)
}
