package command

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseScancelIDs(t *testing.T) {
	cases := map[string]struct {
		args      []string
		wantIDs   []scancelID
		wantTexts []string
	}{
		"a job": {[]string{"12"}, []scancelID{{job: 12, array: noArray, step: batchStep, het: noHet}}, []string{"12"}},
		"a comma list splits the text": {[]string{"12,13_2"},
			[]scancelID{{job: 12, array: noArray, step: batchStep, het: noHet}, {job: 13, array: 2, step: batchStep, het: noHet}},
			[]string{"12", "13_2"}},
		"a range is one text, many tasks": {[]string{"7_[1-2,5]"},
			[]scancelID{{job: 7, array: 1, step: batchStep, het: noHet}, {job: 7, array: 2, step: batchStep, het: noHet},
				{job: 7, array: 5, step: batchStep, het: noHet}},
			[]string{"7_[1-2,5]"}},
		"all tasks with a step":     {[]string{"7_*.3"}, []scancelID{{job: 7, array: allTasks, step: 3, het: noHet}}, []string{"7_*.3"}},
		"an empty task is task 0":   {[]string{"7_"}, []scancelID{{job: 7, array: 0, step: batchStep, het: noHet}}, []string{"7_"}},
		"an empty step is step 0":   {[]string{"7."}, []scancelID{{job: 7, array: noArray, step: 0, het: noHet}}, []string{"7."}},
		"a hetjob component":        {[]string{"7+1"}, []scancelID{{job: 7, array: noArray, step: batchStep, het: 1}}, []string{"7+1"}},
		"leading blanks and a plus": {[]string{" +7"}, []scancelID{{job: 7, array: noArray, step: batchStep, het: noHet}}, []string{" +7"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ids, texts, err := parseScancelIDs(tc.args)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantIDs, ids, cmp.AllowUnexported(scancelID{})); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantTexts, texts); diff != "" {
				t.Errorf("texts (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTaskInSet(t *testing.T) {
	cases := map[string]struct {
		set  string
		task int
		want bool
	}{
		"in a range":       {"1,3-5", 4, true},
		"between ranges":   {"1,3-5", 2, false},
		"a single task":    {"1,3-5", 1, true},
		"throttle ignored": {"1-3%2", 3, true},
		"on the step":      {"1-7:2", 5, true},
		"off the step":     {"1-7:2", 4, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := taskInSet(tc.set, tc.task); got != tc.want {
				t.Errorf("taskInSet(%q, %d) = %v, want %v", tc.set, tc.task, got, tc.want)
			}
		})
	}
}

// FuzzParseScancelIDs: any argument is read or refused, never a panic, and
// every id read has a valid array and step marker.
func FuzzParseScancelIDs(f *testing.F) {
	for _, s := range []string{"12", "12_3", "12_[1-3]", "12_*", "12.0", "12,13", "12,", "12_[", "12_[9999999999]",
		"-1", "12_-1", "12.-1", "4294967296", "12_[1-3].0", "12.batch", "7+1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ids, texts, err := parseScancelIDs([]string{s})
		if err != nil {
			return
		}
		if len(texts) == 0 || len(ids) < len(texts) {
			t.Errorf("%q: %d ids for %d texts", s, len(ids), len(texts))
		}
		for _, id := range ids {
			if id.array < noArray || id.step < batchStep {
				t.Errorf("%q: bad id %+v", s, id)
			}
		}
	})
}
