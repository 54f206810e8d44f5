package sim

import (
	"strings"
	"testing"
)

func TestCheckBounds(t *testing.T) {
	results := []*Result{{Policy: "easy", WaitMean: 100, FairOK: true}, {Policy: "loam", WaitMean: 50}}
	tests := map[string]struct {
		bounds  string
		wantErr []string
	}{
		"inside every bound": {bounds: "easy wait_mean_s 0 100\n* wait_mean_s 50 -  # comment\n\nloam fair_ok 0 0\n"},
		"above a maximum":    {bounds: "loam wait_mean_s - 49\n", wantErr: []string{"line 1: loam wait_mean_s = 50, outside [-, 49]"}},
		"below a minimum, for every policy": {bounds: "* wait_mean_s 60 -\n",
			wantErr: []string{"loam wait_mean_s = 50"}},
		"a boolean metric":    {bounds: "easy fair_ok 0 0\n", wantErr: []string{"easy fair_ok = 1"}},
		"an unknown metric":   {bounds: "easy wait_avg 0 1\n", wantErr: []string{`unknown metric "wait_avg"`}},
		"an unknown policy":   {bounds: "slurm wait_mean_s 0 1\n", wantErr: []string{`unknown policy "slurm"`}},
		"a bad number":        {bounds: "easy wait_mean_s zero 1\n", wantErr: []string{`bound "zero"`}},
		"a short line":        {bounds: "easy wait_mean_s 0\n", wantErr: []string{"want POLICY METRIC MIN MAX"}},
		"a policy not run is": {bounds: "fcfs wait_mean_s 0 1\n"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			err := CheckBounds(results, strings.NewReader(tc.bounds))
			if len(tc.wantErr) == 0 {
				if err != nil {
					t.Fatalf("CheckBounds: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("CheckBounds passed, want an error")
			}
			for _, want := range tc.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
		})
	}
}
