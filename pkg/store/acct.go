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
// job matches one entry of every non-empty list. Accounts, partitions and
// names compare without ASCII case, as Slurm's accounting database does.
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
	return s.queryAcctTable("acct_jobs", f)
}

// acctWhere is f as an SQL condition ("" when f selects everything) and
// its arguments.
func acctWhere(f AcctFilter) (string, []any) {
	var where []string
	var args []any
	add := func(cond string, arg any) { where, args = append(where, cond), append(args, arg) }
	if len(f.JobIDs) > 0 {
		byID, ids := inList("id", f.JobIDs)
		byArray, _ := inList("array_job_id", f.JobIDs)
		add("("+byID+" OR "+byArray+")", ids)
		args = append(args, ids)
	}
	if len(f.UserIDs) > 0 {
		add(inList("user_id", f.UserIDs))
	}
	for _, c := range []struct {
		col  string
		list []string
	}{{"account COLLATE NOCASE", f.Accounts}, {"partition COLLATE NOCASE", f.Partitions}, {"state", f.States},
		{"name COLLATE NOCASE", f.Names}} {
		if len(c.list) > 0 {
			add(inList(c.col, c.list))
		}
	}
	if f.Start > 0 {
		where, args = append(where, "end_time >= ?"), append(args, f.Start)
	}
	if f.End > 0 {
		where, args = append(where, "submit_time <= ?"), append(args, f.End)
	}
	if len(where) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(where, " AND "), args
}

// queryAcctTable reads the records matching f from table (acct_jobs or
// acct_runs, which share their columns) in submit order.
func (s *Store) queryAcctTable(table string, f AcctFilter) ([]AcctRow, error) {
	where, args := acctWhere(f)
	q := "SELECT id, array_job_id, user_id, user_name, account, partition, name, state, submit_time, eligible_time, start_time, end_time, record FROM " +
		table + where + " ORDER BY submit_time, id"
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
