package store

import (
	"database/sql"
	"errors"
	"fmt"
)

// TriggerRow is one stored event trigger: its id and the controller's
// record of it (opaque JSON).
type TriggerRow struct {
	ID     uint32
	Record []byte
}

// PutTrigger writes a trigger and moves the id sequence past it.
func (t *Tx) PutTrigger(r TriggerRow) error {
	if err := t.exec("INSERT INTO triggers (id, record) VALUES (?, ?) "+
		"ON CONFLICT (id) DO UPDATE SET record = excluded.record", r.ID, r.Record); err != nil {
		return fmt.Errorf("put trigger %d: %w", r.ID, err)
	}
	return t.SetNextTriggerID(r.ID + 1)
}

// DeleteTrigger forgets a trigger; an unknown id is not an error.
func (t *Tx) DeleteTrigger(id uint32) error {
	if err := t.exec("DELETE FROM triggers WHERE id = ?", id); err != nil {
		return fmt.Errorf("delete trigger %d: %w", id, err)
	}
	return nil
}

// SetNextTriggerID records the next trigger id; it only moves forward.
// A refused trigger takes an id too, as in Slurm.
func (t *Tx) SetNextTriggerID(next uint32) error {
	if err := t.exec("INSERT INTO meta (key, value) VALUES ('next_trigger_id', ?) "+
		"ON CONFLICT (key) DO UPDATE SET value = max(value, excluded.value)", next); err != nil {
		return fmt.Errorf("set next trigger id: %w", err)
	}
	return nil
}

// NextTriggerID returns the stored next trigger id, 1 when none was
// stored yet.
func (s *Store) NextTriggerID() (uint32, error) {
	var v sql.NullInt64
	err := s.reader.QueryRow("SELECT value FROM meta WHERE key = 'next_trigger_id'").Scan(&v)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("next trigger id: %w", err)
	}
	if !v.Valid || v.Int64 < 1 {
		return 1, nil
	}
	return uint32(v.Int64), nil
}

// LoadTriggers returns every stored trigger, by id.
func (s *Store) LoadTriggers() ([]TriggerRow, error) {
	rows, err := s.reader.Query("SELECT id, record FROM triggers ORDER BY id")
	if err != nil {
		return nil, fmt.Errorf("load triggers: %w", err)
	}
	defer rows.Close()
	var out []TriggerRow
	for rows.Next() {
		var r TriggerRow
		if err := rows.Scan(&r.ID, &r.Record); err != nil {
			return nil, fmt.Errorf("load triggers: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
