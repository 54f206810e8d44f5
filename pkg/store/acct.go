package store

import (
	"fmt"
	"strings"
)

// AcctRow is one job's accounting record: the columns sacct filters on and
// the full record (api.AcctJob JSON, opaque here).
type AcctRow struct {
	ID           uint32
	ArrayJobID   uint32
	UserID       uint32
	UserName     string
	Account      string
	Partition    string
	Name         string
	State        string
	SubmitTime   int64
	EligibleTime int64
	StartTime    int64
	EndTime      int64
	Record       []byte
}

// PutAcct writes (or rewrites) a job's accounting record.
func (t *Tx) PutAcct(r AcctRow) error {
	err := t.exec(`INSERT INTO acct_jobs (id, array_job_id, user_id, user_name, account, partition, name,
		state, submit_time, eligible_time, start_time, end_time, record)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET array_job_id = excluded.array_job_id, user_id = excluded.user_id,
		user_name = excluded.user_name, account = excluded.account, partition = excluded.partition,
		name = excluded.name, state = excluded.state, submit_time = excluded.submit_time,
		eligible_time = excluded.eligible_time, start_time = excluded.start_time,
		end_time = excluded.end_time, record = excluded.record`,
		r.ID, r.ArrayJobID, r.UserID, r.UserName, r.Account, r.Partition, r.Name, r.State,
		r.SubmitTime, r.EligibleTime, r.StartTime, r.EndTime, r.Record)
	if err != nil {
		return fmt.Errorf("put accounting record %d: %w", r.ID, err)
	}
	return nil
}

// AcctFilter narrows an accounting query. Empty lists do not filter; a
// job matches one entry of every non-empty list.
type AcctFilter struct {
	// JobIDs match a job's id or its array job id.
	JobIDs     []uint32
	UserIDs    []uint32
	Accounts   []string
	Partitions []string
	States     []string
	Names      []string
	// Window: jobs that ended at or after Start (still running jobs are not
	// stored here) and were submitted at or before End; 0 leaves a side
	// open.
	Start int64
	End   int64
	Limit int
}

// QueryAcct returns the records matching f in submit order.
func (s *Store) QueryAcct(f AcctFilter) ([]AcctRow, error) {
	var where []string
	var args []any
	in := func(col string, n int, get func(i int) any) {
		if n == 0 {
			return
		}
		where = append(where, col+" IN ("+strings.TrimSuffix(strings.Repeat("?,", n), ",")+")")
		for i := 0; i < n; i++ {
			args = append(args, get(i))
		}
	}
	if len(f.JobIDs) > 0 {
		ph := strings.TrimSuffix(strings.Repeat("?,", len(f.JobIDs)), ",")
		where = append(where, "(id IN ("+ph+") OR array_job_id IN ("+ph+"))")
		for k := 0; k < 2; k++ {
			for _, id := range f.JobIDs {
				args = append(args, id)
			}
		}
	}
	in("user_id", len(f.UserIDs), func(i int) any { return f.UserIDs[i] })
	in("account", len(f.Accounts), func(i int) any { return f.Accounts[i] })
	in("partition", len(f.Partitions), func(i int) any { return f.Partitions[i] })
	in("state", len(f.States), func(i int) any { return f.States[i] })
	in("name", len(f.Names), func(i int) any { return f.Names[i] })
	if f.Start > 0 {
		where, args = append(where, "end_time >= ?"), append(args, f.Start)
	}
	if f.End > 0 {
		where, args = append(where, "submit_time <= ?"), append(args, f.End)
	}
	q := "SELECT id, array_job_id, user_id, user_name, account, partition, name, state, submit_time, eligible_time, start_time, end_time, record FROM acct_jobs"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY submit_time, id"
	if f.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", f.Limit)
	}
	rows, err := s.reader.Query(q, args...)
	if err != nil {
		return nil, fmt.Errorf("query accounting: %w", err)
	}
	defer rows.Close()
	var out []AcctRow
	for rows.Next() {
		var r AcctRow
		if err := rows.Scan(&r.ID, &r.ArrayJobID, &r.UserID, &r.UserName, &r.Account, &r.Partition, &r.Name,
			&r.State, &r.SubmitTime, &r.EligibleTime, &r.StartTime, &r.EndTime, &r.Record); err != nil {
			return nil, fmt.Errorf("query accounting: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}
