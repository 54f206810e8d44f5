package store

import (
	"database/sql"
	"errors"
	"fmt"
)

// AdvResvRow is one stored advance reservation: its name, its end (Unix
// seconds) and the controller's record of it (opaque JSON).
type AdvResvRow struct {
	Name   string
	End    int64
	Record []byte
}

// PutAdvResv writes a reservation, replacing one of the same name.
func (t *Tx) PutAdvResv(r AdvResvRow) error {
	if err := t.exec("INSERT INTO advance_reservations (name, end_time, record) VALUES (?, ?, ?) "+
		"ON CONFLICT (name) DO UPDATE SET end_time = excluded.end_time, record = excluded.record",
		r.Name, r.End, r.Record); err != nil {
		return fmt.Errorf("put reservation %s: %w", r.Name, err)
	}
	return nil
}

// DeleteAdvResv forgets a reservation; an unknown name is not an error.
func (t *Tx) DeleteAdvResv(name string) error {
	if err := t.exec("DELETE FROM advance_reservations WHERE name = ?", name); err != nil {
		return fmt.Errorf("delete reservation %s: %w", name, err)
	}
	return nil
}

// SetNextResvSuffix records the next suffix of a default reservation
// name. Like the job id sequence it only moves forward.
func (t *Tx) SetNextResvSuffix(next uint32) error {
	if err := t.exec("INSERT INTO meta (key, value) VALUES ('next_resv_suffix', ?) "+
		"ON CONFLICT (key) DO UPDATE SET value = max(value, excluded.value)", next); err != nil {
		return fmt.Errorf("set next reservation suffix: %w", err)
	}
	return nil
}

// NextResvSuffix returns the stored next suffix of a default reservation
// name, 1 when none was stored yet.
func (s *Store) NextResvSuffix() (uint32, error) {
	var v sql.NullInt64
	err := s.reader.QueryRow("SELECT value FROM meta WHERE key = 'next_resv_suffix'").Scan(&v)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("next reservation suffix: %w", err)
	}
	if !v.Valid || v.Int64 < 1 {
		return 1, nil
	}
	return uint32(v.Int64), nil
}

// LoadAdvResvs returns every stored reservation, by name.
func (s *Store) LoadAdvResvs() ([]AdvResvRow, error) {
	rows, err := s.reader.Query("SELECT name, end_time, record FROM advance_reservations ORDER BY name")
	if err != nil {
		return nil, fmt.Errorf("load reservations: %w", err)
	}
	defer rows.Close()
	var out []AdvResvRow
	for rows.Next() {
		var r AdvResvRow
		if err := rows.Scan(&r.Name, &r.End, &r.Record); err != nil {
			return nil, fmt.Errorf("load reservations: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
