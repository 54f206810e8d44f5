package store

import (
	"fmt"
)

// PreemptionRow is one preempted job run (R12).
type PreemptionRow struct {
	Time         int64 // when the victim got its checkpoint signal
	JobID        uint32
	Account      string
	User         string
	Partition    string
	Beneficiary  uint32
	Reason       string // urgent, reclaim, deadlock
	GPUs         int
	LostSeconds  int64
	Requeued     bool
	Checkpointed bool // exited by itself inside its grace window
}

// AddPreemption records one preempted job run.
func (t *Tx) AddPreemption(p PreemptionRow) error {
	if err := t.exec(`INSERT INTO preemptions (time, job_id, account, user_name, partition, beneficiary, reason,
		gpus, lost_seconds, requeued, checkpointed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		p.Time, p.JobID, p.Account, p.User, p.Partition, p.Beneficiary, p.Reason, p.GPUs, p.LostSeconds,
		p.Requeued, p.Checkpointed); err != nil {
		return fmt.Errorf("record preemption of job %d: %w", p.JobID, err)
	}
	return nil
}

// Preemptions returns the preemptions whose signal time is in [from, to),
// oldest first.
func (s *Store) Preemptions(from, to int64) ([]PreemptionRow, error) {
	rows, err := s.reader.Query(`SELECT time, job_id, account, user_name, partition, beneficiary, reason, gpus,
		lost_seconds, requeued, checkpointed FROM preemptions WHERE time >= ? AND time < ? ORDER BY seq`, from, to)
	if err != nil {
		return nil, fmt.Errorf("preemptions: %w", err)
	}
	defer rows.Close()
	var out []PreemptionRow
	for rows.Next() {
		var p PreemptionRow
		if err := rows.Scan(&p.Time, &p.JobID, &p.Account, &p.User, &p.Partition, &p.Beneficiary, &p.Reason,
			&p.GPUs, &p.LostSeconds, &p.Requeued, &p.Checkpointed); err != nil {
			return nil, fmt.Errorf("preemptions: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// AuditRow is one recorded priority change.
type AuditRow struct {
	JobID   uint32
	Time    int64
	Old     int64
	New     int64
	Reason  string
	Factors []byte
}

// PriorityAudit returns the recorded priority changes of the given jobs,
// oldest first, at most limit rows per call (0: no limit).
func (s *Store) PriorityAudit(jobIDs []uint32, limit int) ([]AuditRow, error) {
	if len(jobIDs) == 0 {
		return nil, nil
	}
	cond, ids := inList("job_id", jobIDs)
	args := []any{ids}
	q := "SELECT job_id, time, old, new, reason, factors FROM priority_audit WHERE " + cond + " ORDER BY seq"
	if limit > 0 {
		q += " LIMIT ?"
		args = append(args, limit)
	}
	rows, err := s.reader.Query(q, args...)
	if err != nil {
		return nil, fmt.Errorf("priority audit: %w", err)
	}
	defer rows.Close()
	var out []AuditRow
	for rows.Next() {
		var a AuditRow
		if err := rows.Scan(&a.JobID, &a.Time, &a.Old, &a.New, &a.Reason, &a.Factors); err != nil {
			return nil, fmt.Errorf("priority audit: %w", err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// PruneAudit deletes priority changes recorded before before.
func (t *Tx) PruneAudit(before int64) error {
	if err := t.exec("DELETE FROM priority_audit WHERE time < ?", before); err != nil {
		return fmt.Errorf("prune priority audit: %w", err)
	}
	return nil
}
