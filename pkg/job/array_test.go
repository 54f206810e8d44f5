package job

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestArrayTasks(t *testing.T) {
	tests := map[string]struct {
		spec         string
		max          int
		wantTasks    []int
		wantThrottle int
		wantStep     int
		wantDisplay  string
		wantPending  string
	}{
		"a plain range": {spec: "0-3", max: 1001, wantTasks: []int{0, 1, 2, 3}, wantStep: 1,
			wantDisplay: "0-3", wantPending: "7_[0-3]"},
		"a list out of order with duplicates": {spec: "5,1,3,1", max: 1001, wantTasks: []int{1, 3, 5},
			wantStep: 1, wantDisplay: "1,3,5", wantPending: "7_[1,3,5]"},
		"a stepped range": {spec: "1-7:2", max: 1001, wantTasks: []int{1, 3, 5, 7}, wantStep: 2,
			wantDisplay: "1,3,5,7", wantPending: "7_[1,3,5,7]"},
		"a throttled range": {spec: "2-5%2", max: 1001, wantTasks: []int{2, 3, 4, 5}, wantThrottle: 2,
			wantStep: 1, wantDisplay: "2-5%2", wantPending: "7_[2-5%2]"},
		"a big stride with a larger MaxArraySize": {spec: "500-17000:1000%26", max: 20001,
			wantTasks: []int{500, 1500, 2500, 3500, 4500, 5500, 6500, 7500, 8500, 9500, 10500,
				11500, 12500, 13500, 14500, 15500, 16500},
			wantThrottle: 26, wantStep: 1000, wantDisplay: "500-16500:1000%26",
			wantPending: "7_[500-16500:1000%26]"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			a, err := ParseArray(tc.spec, tc.max)
			if err != nil {
				t.Fatalf("ParseArray(%q): %v", tc.spec, err)
			}
			got := slices.Collect(a.All())
			if diff := cmp.Diff(tc.wantTasks, got); diff != "" {
				t.Errorf("tasks (-want +got):\n%s", diff)
			}
			if a.Count() != len(tc.wantTasks) || a.Min() != tc.wantTasks[0] || a.Max() != tc.wantTasks[len(tc.wantTasks)-1] {
				t.Errorf("Count, Min, Max = %d, %d, %d", a.Count(), a.Min(), a.Max())
			}
			if a.Throttle() != tc.wantThrottle || a.Step() != tc.wantStep {
				t.Errorf("Throttle, Step = %d, %d; want %d, %d", a.Throttle(), a.Step(), tc.wantThrottle, tc.wantStep)
			}
			if a.Display() != tc.wantDisplay || a.PendingID(7) != tc.wantPending {
				t.Errorf("Display, PendingID = %q, %q; want %q, %q", a.Display(), a.PendingID(7), tc.wantDisplay, tc.wantPending)
			}
			back, err := ParseArray(a.String(), tc.max)
			if err != nil || back.String() != a.String() {
				t.Errorf("String %q does not parse back: %v, %v", a.String(), back, err)
			}
		})
	}
}

func TestArrayLimits(t *testing.T) {
	if _, err := ParseArray("500-17000:1000%26", 10001); err == nil {
		t.Error("index 17000 accepted with MaxArraySize 10001")
	}
	if _, err := ParseArray("0", 0); err == nil {
		t.Error("an array accepted with arrays disabled (MaxArraySize=0)")
	}
	if _, err := ParseArray("", 1001); err == nil {
		t.Error("an empty spec accepted")
	}
	if _, err := ParseArray("1000", 1001); err != nil {
		t.Errorf("index MaxArraySize-1 refused: %v", err)
	}
}

func TestArrayClearAndClone(t *testing.T) {
	a, err := ParseArray("2-5%2", 1001)
	if err != nil {
		t.Fatal(err)
	}
	b := a.Clone()
	a.Clear(2)
	a.Clear(2)
	a.Clear(99)
	if a.Display() != "3-5%2" || a.Count() != 3 {
		t.Errorf("after Clear(2): %q with %d tasks, want 3-5%%2 with 3", a.Display(), a.Count())
	}
	if b.Display() != "2-5%2" {
		t.Errorf("Clear changed the clone: %q", b.Display())
	}
	a.SetThrottle(0)
	if a.String() != "3-5" {
		t.Errorf("SetThrottle(0): %q", a)
	}
}

func TestArrayJSON(t *testing.T) {
	a, err := ParseArray("0-3,10-12:2%3", 1001)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(a)
	if err != nil || string(b) != `"0-3,10,12%3"` {
		t.Fatalf("Marshal = %s, %v", b, err)
	}
	var back Array
	if err := json.Unmarshal(b, &back); err != nil || back.String() != a.String() {
		t.Errorf("Unmarshal = %v, %v", back.String(), err)
	}
}

func TestStrtol(t *testing.T) {
	tests := map[string]struct {
		in    string
		wantV int64
		wantN int
	}{
		"digits then text": {"12ab", 12, 2},
		"space and plus":   {" \t+5", 5, 4},
		"minus":            {"-7-", -7, 2},
		"no digits":        {"x1", 0, 0},
		"a sign only":      {"-", 0, 0},
		"saturates high":   {"99999999999999999999", 1<<63 - 1, 20},
		"saturates low":    {"-99999999999999999999", -1 << 63, 21},
	}
	for name, tc := range tests {
		v, n := Strtol(tc.in)
		if v != tc.wantV || n != tc.wantN {
			t.Errorf("%s: Strtol(%q) = %d, %d; want %d, %d", name, tc.in, v, n, tc.wantV, tc.wantN)
		}
	}
}
