package sim

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (run with -update to create it): %v", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", path, diff)
	}
}

func describe(recs []Record) []byte {
	var b bytes.Buffer
	for _, r := range recs {
		fmt.Fprintf(&b, "line=%d id=%s submit=%v wait=%v(%v) run=%v gpus=%d cpus=%g nodes=%d user=%q tenant=%q state=%s limit=%v queue=%q gpn=%d\n",
			r.Line, r.JobID, r.Submit, r.Wait, r.HasWait, r.Run, r.GPUs, r.CPUs, r.Nodes, r.User, r.Tenant,
			r.State, r.Limit, r.Queue, r.GPUsPerNode)
	}
	return b.Bytes()
}

func TestReadTraceGolden(t *testing.T) {
	for _, name := range []string{"trace_full.csv", "trace_minimal.csv"} {
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			recs, err := ReadTrace(f)
			if err != nil {
				t.Fatalf("ReadTrace: %v", err)
			}
			golden(t, strings.TrimSuffix(name, ".csv")+".golden", describe(recs))
		})
	}
}

const header = "job_id,submit_s,wait_s,run_s,gpus,cpus,nodes,user,tenant,state\n"

func TestReadTraceErrors(t *testing.T) {
	tests := map[string]struct {
		in      string
		wantErr []string
	}{
		"an empty file": {in: "", wantErr: []string{"empty file"}},
		"a header missing a required column": {
			in: "job_id,submit_s,wait_s,run_s,gpus,cpus,nodes,user,tenant\n", wantErr: []string{`missing required column "state"`}},
		"an unknown column": {
			in: "job_id,submit_s,wait_s,run_s,gpus,cpus,nodes,user,tenant,state,mem\n", wantErr: []string{"line 1, column 11", `unknown column "mem"`}},
		"a column twice": {
			in: "job_id,submit_s,wait_s,run_s,gpus,cpus,nodes,user,tenant,state,gpus\n", wantErr: []string{`column "gpus" given twice`}},
		"a negative submit time": {
			in: header + "a,-5,0,10,1,1,1,u,t,COMPLETED\n", wantErr: []string{"line 2, column 2 (submit_s)", `"-5"`}},
		"a run time that is not a number": {
			in: header + "a,0,0,ten,1,1,1,u,t,COMPLETED\n", wantErr: []string{"line 2, column 4 (run_s)"}},
		"a blank run time": {
			in: header + "a,0,0,,1,1,1,u,t,COMPLETED\n", wantErr: []string{"line 2, column 4 (run_s): empty", "COMPLETED job"}},
		"a fractional GPU count": {
			in: header + "a,0,0,1,0.5,1,1,u,t,COMPLETED\n", wantErr: []string{"line 2, column 5 (gpus)"}},
		"a CPU count that is NaN": {
			in: header + "a,0,0,1,1,NaN,1,u,t,COMPLETED\n", wantErr: []string{"line 2, column 6 (cpus)"}},
		"an unknown state": {
			in: header + "a,0,0,1,1,1,1,u,t,DONE\n", wantErr: []string{"line 2, column 10 (state)", `unknown state "DONE"`}},
		"an empty job id": {
			in: header + ",0,0,1,1,1,1,u,t,COMPLETED\n", wantErr: []string{"line 2, column 1 (job_id): empty"}},
		"a repeated job id": {
			in: header + "a,0,0,1,1,1,1,u,t,COMPLETED\na,1,0,1,1,1,1,u,t,COMPLETED\n", wantErr: []string{"line 3, column 1 (job_id)", "repeats line 2"}},
		"a row with too few cells, and a later bad row": {
			in:      header + "a,0,0,1\nb,0,0,1,x,1,1,u,t,COMPLETED\n",
			wantErr: []string{"record on line 2: wrong number of fields", "line 3, column 5 (gpus)"}},
		"gpus per node that do not multiply out": {
			in:      "job_id,submit_s,wait_s,run_s,gpus,cpus,nodes,user,tenant,state,gpus_per_node\na,0,0,1,12,1,2,u,t,COMPLETED,8\n",
			wantErr: []string{"line 2, column 11 (gpus_per_node)", "not the 12 gpus"}},
		"a time past a hundred years": {
			in: header + "a,1e12,0,1,1,1,1,u,t,COMPLETED\n", wantErr: []string{"line 2, column 2 (submit_s)"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := ReadTrace(strings.NewReader(tc.in))
			if err == nil {
				t.Fatal("ReadTrace succeeded, want an error")
			}
			for _, want := range tc.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
		})
	}
}

// TestReadTraceBlankRunOfRowsThatNeverRan: blank is "unknown" in the
// schema; a PENDING or CANCELLED row with a blank run time never ran, and
// reads as run 0 (Prepare then cancels it at submit + wait).
func TestReadTraceBlankRunOfRowsThatNeverRan(t *testing.T) {
	recs, err := ReadTrace(strings.NewReader(header + "p,0,30,,1,1,1,u,t,PENDING\nc,5,,,1,1,1,u,t,CANCELLED\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := [][2]any{{recs[0].Run, recs[0].State}, {recs[1].Run, recs[1].State}}
	want := [][2]any{{time.Duration(0), "PENDING"}, {time.Duration(0), "CANCELLED"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestTraceRoundTrip(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "trace_full.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := ReadTrace(f)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteTrace(&buf, recs); err != nil {
		t.Fatal(err)
	}
	again, err := ReadTrace(&buf)
	if err != nil {
		t.Fatalf("reading written trace: %v", err)
	}
	if diff := cmp.Diff(recs, again, cmp.FilterPath(func(p cmp.Path) bool { return p.Last().String() == ".Line" }, cmp.Ignore())); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

func FuzzReadTrace(f *testing.F) {
	for _, name := range []string{"trace_full.csv", "trace_minimal.csv"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add(header + "a,0,,1,1,1,,,,\n")
	f.Add(header + "\"a\nb\",0,0,1,1,1,1,u,t,COMPLETED\n")
	f.Fuzz(func(t *testing.T, in string) {
		recs, err := ReadTrace(strings.NewReader(in))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteTrace(&buf, recs); err != nil {
			t.Fatalf("WriteTrace of a trace that read: %v", err)
		}
		again, err := ReadTrace(&buf)
		if err != nil {
			t.Fatalf("re-reading a written trace: %v\n%s", err, buf.String())
		}
		if len(again) != len(recs) {
			t.Fatalf("round trip: %d records, want %d", len(again), len(recs))
		}
	})
}

func TestDeriveLimit(t *testing.T) {
	ratios := 0.0
	n := 0
	for i := range 2000 {
		id := fmt.Sprintf("job-%d", i)
		run := time.Duration(1+i*37%100000) * time.Second
		l := DeriveLimit(id, run)
		if l < run {
			t.Fatalf("DeriveLimit(%s, %v) = %v, below the run time", id, run, l)
		}
		if l != DeriveLimit(id, run) {
			t.Fatalf("DeriveLimit(%s) not deterministic", id)
		}
		if l != roundUpLimit(l) {
			t.Fatalf("DeriveLimit(%s, %v) = %v, not a round value", id, run, l)
		}
		if run > 10*time.Minute {
			ratios += l.Seconds() / run.Seconds()
			n++
		}
	}
	if mean := ratios / float64(n); mean < 2 || mean > 20 {
		t.Errorf("mean requested/actual = %.1f, want users to over-ask several times", mean)
	}
}
