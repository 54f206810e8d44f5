package store

import "fmt"

// PutAcctRun keeps the record of one ended run of a requeued job (run is
// the job's restart count during that run) and drops the job's record in
// acct_jobs, if any: a finished job that is requeued has a new run ahead,
// whose record replaces it when that run ends.
func (t *Tx) PutAcctRun(run int, r AcctRow) error {
	err := t.exec(`INSERT INTO acct_runs (id, run, array_job_id, user_id, user_name, account, partition, name,
		state, submit_time, eligible_time, start_time, end_time, record)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id, run) DO UPDATE SET state = excluded.state, end_time = excluded.end_time,
		record = excluded.record`,
		r.ID, run, r.ArrayJobID, r.UserID, r.UserName, r.Account, r.Partition, r.Name, r.State,
		r.SubmitTime, r.EligibleTime, r.StartTime, r.EndTime, r.Record)
	if err != nil {
		return fmt.Errorf("put accounting record of job %d run %d: %w", r.ID, run, err)
	}
	if err := t.exec("DELETE FROM acct_jobs WHERE id = ?", r.ID); err != nil {
		return fmt.Errorf("put accounting record of job %d run %d: %w", r.ID, run, err)
	}
	return nil
}

// QueryAcctRuns returns the records of requeued jobs' earlier runs that
// match f, in submit order.
func (s *Store) QueryAcctRuns(f AcctFilter) ([]AcctRow, error) {
	return s.queryAcctTable("acct_runs", f)
}
