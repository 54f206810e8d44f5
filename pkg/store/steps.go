package store

import "fmt"

// StepRow is one job step as stored: opaque to the store (the
// controller's JSON).
type StepRow struct {
	JobID  uint32
	StepID uint32
	Record []byte
}

// PutStep writes (or rewrites) a step.
func (t *Tx) PutStep(r StepRow) error {
	if err := t.exec("INSERT INTO steps (job_id, step_id, record) VALUES (?, ?, ?) "+
		"ON CONFLICT (job_id, step_id) DO UPDATE SET record = excluded.record",
		r.JobID, r.StepID, r.Record); err != nil {
		return fmt.Errorf("put step %d.%d: %w", r.JobID, r.StepID, err)
	}
	return nil
}

// DeleteSteps removes every step of a job (its record left the live
// table, or it was requeued and starts its steps again from 0).
func (t *Tx) DeleteSteps(jobID uint32) error {
	if err := t.exec("DELETE FROM steps WHERE job_id = ?", jobID); err != nil {
		return fmt.Errorf("delete steps of job %d: %w", jobID, err)
	}
	return nil
}

// LoadSteps calls fn for every stored step in job and step order.
func (s *Store) LoadSteps(fn func(StepRow) error) error {
	rows, err := s.reader.Query("SELECT job_id, step_id, record FROM steps ORDER BY job_id, step_id")
	if err != nil {
		return fmt.Errorf("load steps: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r StepRow
		if err := rows.Scan(&r.JobID, &r.StepID, &r.Record); err != nil {
			return fmt.Errorf("load steps: %w", err)
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("load steps: %w", err)
	}
	return nil
}
