package store

import (
	"database/sql"
	"fmt"
)

// JobRow is one live job as stored: its request and status, opaque to the
// store (the controller's JSON).
type JobRow struct {
	ID      uint32
	Request []byte
	Status  []byte
}

// PutJob writes a job's request and status.
func (t *Tx) PutJob(id uint32, request, status []byte) error {
	if err := t.exec("INSERT INTO jobs (id, request, status) VALUES (?, ?, ?) "+
		"ON CONFLICT (id) DO UPDATE SET request = excluded.request, status = excluded.status",
		id, request, status); err != nil {
		return fmt.Errorf("put job %d: %w", id, err)
	}
	return nil
}

// SetJobStatus rewrites a stored job's status.
func (t *Tx) SetJobStatus(id uint32, status []byte) error {
	if err := t.exec("UPDATE jobs SET status = ? WHERE id = ?", status, id); err != nil {
		return fmt.Errorf("set job %d status: %w", id, err)
	}
	return nil
}

// DeleteJob removes a job from the live table (it stays in accounting).
func (t *Tx) DeleteJob(id uint32) error {
	if err := t.exec("DELETE FROM jobs WHERE id = ?", id); err != nil {
		return fmt.Errorf("delete job %d: %w", id, err)
	}
	return nil
}

// SetNextJobID records the next job id the sequence hands out. It only ever
// moves forward, so concurrent writers cannot move it back.
func (t *Tx) SetNextJobID(next uint32) error {
	if err := t.exec("INSERT INTO meta (key, value) VALUES ('next_job_id', ?) "+
		"ON CONFLICT (key) DO UPDATE SET value = max(value, excluded.value)", next); err != nil {
		return fmt.Errorf("set next job id: %w", err)
	}
	return nil
}

// NextJobID returns the first job id no job has used: the larger of the
// stored sequence and one past every id in the live and accounting tables,
// so a sequence row lost to an old bug still cannot hand out a used id.
func (s *Store) NextJobID() (uint32, error) {
	var seq, live, acct sql.NullInt64
	err := s.reader.QueryRow(`SELECT
		(SELECT value FROM meta WHERE key = 'next_job_id'),
		(SELECT max(id) FROM jobs),
		(SELECT max(id) FROM acct_jobs)`).Scan(&seq, &live, &acct)
	if err != nil {
		return 0, fmt.Errorf("read next job id: %w", err)
	}
	next := max(seq.Int64, live.Int64+1, acct.Int64+1, 1)
	return uint32(next), nil
}

// LoadJobs calls fn for every live job in id order.
func (s *Store) LoadJobs(fn func(JobRow) error) error {
	rows, err := s.reader.Query("SELECT id, request, status FROM jobs ORDER BY id")
	if err != nil {
		return fmt.Errorf("load jobs: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r JobRow
		if err := rows.Scan(&r.ID, &r.Request, &r.Status); err != nil {
			return fmt.Errorf("load jobs: %w", err)
		}
		if err := fn(r); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("load jobs: %w", err)
	}
	return nil
}

// CountJobs returns the number of live jobs stored.
func (s *Store) CountJobs() (int, error) {
	var n int
	err := s.reader.QueryRow("SELECT count(*) FROM jobs").Scan(&n)
	return n, err
}
