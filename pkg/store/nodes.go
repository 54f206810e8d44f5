package store

import "fmt"

// PutNode writes a node's admin state (opaque JSON).
func (t *Tx) PutNode(name string, data []byte) error {
	if err := t.exec("INSERT INTO nodes (name, data) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET data = excluded.data", name, data); err != nil {
		return fmt.Errorf("put node %s: %w", name, err)
	}
	return nil
}

// DeleteNode forgets a node's admin state.
func (t *Tx) DeleteNode(name string) error {
	if err := t.exec("DELETE FROM nodes WHERE name = ?", name); err != nil {
		return fmt.Errorf("delete node %s: %w", name, err)
	}
	return nil
}

// LoadNodes returns every node's stored admin state by name.
func (s *Store) LoadNodes() (map[string][]byte, error) {
	rows, err := s.reader.Query("SELECT name, data FROM nodes")
	if err != nil {
		return nil, fmt.Errorf("load nodes: %w", err)
	}
	defer rows.Close()
	out := make(map[string][]byte)
	for rows.Next() {
		var name string
		var data []byte
		if err := rows.Scan(&name, &data); err != nil {
			return nil, fmt.Errorf("load nodes: %w", err)
		}
		out[name] = data
	}
	return out, rows.Err()
}

// AddPriorityChange records one priority change (R5).
func (t *Tx) AddPriorityChange(jobID uint32, at, old, new int64, reason string, factors []byte) error {
	if err := t.exec("INSERT INTO priority_audit (job_id, time, old, new, reason, factors) VALUES (?, ?, ?, ?, ?, ?)",
		jobID, at, old, new, reason, factors); err != nil {
		return fmt.Errorf("audit priority of job %d: %w", jobID, err)
	}
	return nil
}

// AddJobEvent records one event in a job's history.
func (t *Tx) AddJobEvent(jobID uint32, at int64, kind string, detail []byte) error {
	if err := t.exec("INSERT INTO job_events (job_id, time, kind, detail) VALUES (?, ?, ?, ?)", jobID, at, kind, detail); err != nil {
		return fmt.Errorf("record event of job %d: %w", jobID, err)
	}
	return nil
}

// JobEvent is one stored event of a job's history.
type JobEvent struct {
	JobID  uint32
	Time   int64
	Kind   string
	Detail []byte
}

// JobEvents returns a job's history, oldest first.
func (s *Store) JobEvents(jobID uint32) ([]JobEvent, error) {
	rows, err := s.reader.Query("SELECT job_id, time, kind, detail FROM job_events WHERE job_id = ? ORDER BY seq", jobID)
	if err != nil {
		return nil, fmt.Errorf("job events: %w", err)
	}
	defer rows.Close()
	var out []JobEvent
	for rows.Next() {
		var e JobEvent
		if err := rows.Scan(&e.JobID, &e.Time, &e.Kind, &e.Detail); err != nil {
			return nil, fmt.Errorf("job events: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}
