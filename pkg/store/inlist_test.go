package store

import (
	"fmt"
	"strings"
	"testing"
)

// TestRobustLongFilterLists: lists longer than SQLite's limit on
// parameters (sacct -j with 100,000 ids, sprio --history likewise) select
// the same rows as short ones instead of failing the query.
func TestRobustLongFilterLists(t *testing.T) {
	s := open(t, t.TempDir())
	err := s.Update(func(tx *Tx) error {
		for _, r := range []AcctRow{
			{ID: 7, UserID: 1000, UserName: "alice", Account: "a", Partition: "p", Name: "n", State: "COMPLETED"},
			{ID: 8, UserID: 1001, UserName: "bob", Account: "b", Partition: "q", Name: "m", State: "FAILED"},
		} {
			r.Record = []byte("{}")
			if err := tx.PutAcct(r); err != nil {
				return err
			}
		}
		return tx.AddPriorityChange(7, 10, 1, 2, "age", nil)
	})
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]uint32, 100000)
	names := make([]string, 100000)
	for i := range ids {
		ids[i], names[i] = uint32(i+1_000_000), fmt.Sprint("x", i)
	}
	ids[len(ids)-1], names[len(names)-1] = 7, "a"
	rows, err := s.QueryAcct(AcctFilter{JobIDs: ids, UserIDs: ids[:50000], Accounts: names, Partitions: append(names, "p"),
		States: append(names, "COMPLETED"), Names: append(names, "n")})
	if err != nil || len(rows) != 0 {
		t.Errorf("user ids without 1000: %d rows, %v", len(rows), err)
	}
	ids[0] = 1000
	rows, err = s.QueryAcct(AcctFilter{JobIDs: ids, UserIDs: ids, Accounts: names, Partitions: append(names, "p"),
		States: append(names, "COMPLETED"), Names: append(names, "n")})
	if err != nil || len(rows) != 1 || rows[0].ID != 7 {
		t.Errorf("got %+v, %v; want job 7", rows, err)
	}
	audit, err := s.PriorityAudit(ids, 0)
	if err != nil || len(audit) != 1 || audit[0].JobID != 7 {
		t.Errorf("audit %+v, %v; want job 7's change", audit, err)
	}
	if rows, err := s.QueryAcct(AcctFilter{Names: []string{strings.Repeat("'\")", 1000)}}); err != nil || len(rows) != 0 {
		t.Errorf("quotes in a name: %+v, %v", rows, err)
	}
}
