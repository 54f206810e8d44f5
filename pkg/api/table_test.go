package api

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/loamhpc/loam/pkg/job"
)

func sampleJobs() []Job {
	task := 3
	return []Job{
		{JobID: 12, Name: "wrap", UserName: "alice", UserID: 1000, Partition: "normal",
			JobState: job.Pending, StateReason: job.ReasonPriority, Priority: 12, TimeLimit: 3600,
			SubmitTime: 1700000000, ArrayTaskString: "1-5%2", ArrayMaxTasks: 2, Hold: true, SpecialExit: true},
		{JobID: 13, ArrayJobID: 12, ArrayTaskID: &task, Name: "quote \" and \\ and \n and ünï and \x01",
			JobState: job.Running, StateReason: job.ReasonNone, Nodes: "gpu[01-02]", NodeCount: 2,
			ExitCode: job.ExitCode{Status: 3, Signal: 0}, TimeLimit: UnlimitedSeconds, BatchFlag: true},
	}
}

func TestTableRoundTrip(t *testing.T) {
	fields := JobFields()
	w, err := NewTableWriter(fields, 1700000100)
	if err != nil {
		t.Fatal(err)
	}
	in := sampleJobs()
	for i := range in {
		w.Add(&in[i])
	}
	data := w.Finish([]string{"99"})
	if !json.Valid(data) {
		t.Fatalf("table is not valid JSON: %s", data)
	}
	tbl, err := DecodeJobTable(data)
	if err != nil {
		t.Fatal(err)
	}
	// encoding/json must read the same table the fast path reads.
	var slow JobTable
	if err := json.Unmarshal(data, &slow); err != nil {
		t.Fatal(err)
	}
	if diff := tableDiff(&slow, tbl); diff != "" {
		t.Fatalf("fast decode differs from encoding/json (-slow +fast):\n%s", diff)
	}
	got, err := tbl.Jobs()
	if err != nil {
		t.Fatal(err)
	}
	in[1].Name = "quote \" and \\ and \n and ünï and \x01"
	if diff := cmp.Diff(in, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	if tbl.Now != 1700000100 || len(tbl.Missing) != 1 {
		t.Errorf("now %d missing %v", tbl.Now, tbl.Missing)
	}
}

func TestTableWriterRefusesBadFields(t *testing.T) {
	tests := map[string][]string{
		"no fields":       nil,
		"unknown field":   {"job_id", "nosuch"},
		"repeated field":  {"job_id", "job_id"},
		"nested not flat": {"allocation"},
	}
	for name, fields := range tests {
		t.Run(name, func(t *testing.T) {
			if _, err := NewTableWriter(fields, 0); err == nil {
				t.Errorf("NewTableWriter(%v) succeeded, want an error", fields)
			}
		})
	}
}

func TestEmptyTable(t *testing.T) {
	w, _ := NewTableWriter([]string{"job_id"}, 5)
	tbl, err := DecodeJobTable(w.Finish(nil))
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := tbl.Jobs()
	if err != nil || len(jobs) != 0 || tbl.Now != 5 {
		t.Errorf("got %+v, jobs %v, %v", tbl, jobs, err)
	}
}

// tableDiff compares two decoded tables by what they hold: time, fields,
// missing ids and the records (a fast-path table keeps no rows of
// strings).
func tableDiff(slow, fast *JobTable) string {
	type view struct {
		Now     int64
		Fields  []string
		Missing []string
		Jobs    []Job
		Err     string
	}
	see := func(t *JobTable) view {
		jobs, err := t.Jobs()
		v := view{Now: t.Now, Fields: t.Fields, Missing: t.Missing, Jobs: jobs}
		if err != nil {
			v.Err = err.Error()
		}
		return v
	}
	return cmp.Diff(see(slow), see(fast), cmpopts.EquateEmpty())
}

func TestDecodeJobTableFallsBack(t *testing.T) {
	tests := map[string]struct {
		data    string
		wantErr bool
	}{
		"a row one value short":        {data: `{"now":1,"fields":["job_id","name"],"rows":[["1"]]}`, wantErr: true},
		"a value that is not a number": {data: `{"now":1,"fields":["job_id"],"rows":[["x"]]}`, wantErr: true},
		"an unknown field":             {data: `{"now":1,"fields":["nosuch"],"rows":[["x"]]}`, wantErr: true},
		"spaces encoding/json allows":  {data: `{"now": 1, "fields": ["job_id"], "rows": [["7"]]}`},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			tbl, err := DecodeJobTable([]byte(tc.data))
			if err == nil {
				_, err = tbl.Jobs()
			}
			if (err != nil) != tc.wantErr {
				t.Errorf("error = %v, want error %v", err, tc.wantErr)
			}
		})
	}
}

func FuzzDecodeJobTable(f *testing.F) {
	w, _ := NewTableWriter([]string{"job_id", "name"}, 1)
	j := Job{JobID: 1, Name: "a\"b"}
	w.Add(&j)
	f.Add(w.Finish(nil))
	f.Add([]byte(`{"now":1,"fields":["job_id"],"rows":[["1"],["2"]]}`))
	f.Add([]byte(`{"now":1,"fields":["name"],"rows":[["\ud83d\ude00"]]}`))
	f.Add([]byte(`{"now":`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fast, ok := fastDecodeTable(data)
		if !ok {
			return
		}
		var slow JobTable
		if err := json.Unmarshal(data, &slow); err != nil {
			t.Fatalf("fast path accepted what encoding/json refuses (%v): %q", err, data)
		}
		if diff := tableDiff(&slow, fast); diff != "" {
			t.Fatalf("fast decode of %q differs (-slow +fast):\n%s", data, diff)
		}
	})
}

func TestAdviseHugeLeavesMemoryUsable(t *testing.T) {
	for name, n := range map[string]int{"smaller than a huge page": 10, "several huge pages": 10000} {
		t.Run(name, func(t *testing.T) {
			jobs := make([]Job, 0, n)
			adviseHuge(jobs)
			jobs = jobs[:n]
			jobs[n-1].Name = "last"
			if jobs[0].JobID != 0 || jobs[n-1].Name != "last" {
				t.Errorf("memory after adviseHuge: %+v %+v", jobs[0], jobs[n-1])
			}
		})
	}
}
