package jobopt

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPriorityOption checks --priority against the peer's sbatch: its
// refusals (exit 255), TOP, and text read as 0 (no priority sent).
func TestPriorityOption(t *testing.T) {
	tests := map[string]struct {
		arg       string
		want      int64 // 0: none sent
		wantLines []string
	}{
		"a number":            {arg: "--priority=777", want: 777},
		"TOP":                 {arg: "--priority=top", want: 4294967293},
		"text reads as 0":     {arg: "--priority=abc"},
		"0 asks for nothing":  {arg: "--priority=0"},
		"the largest allowed": {arg: "--priority=4294967293", want: 4294967293},
		"negative":            {arg: "--priority=-3", wantLines: []string{"sbatch: error: Priority must be >= 0"}},
		"NO_VAL":              {arg: "--priority=4294967294", wantLines: []string{"sbatch: error: Priority must be < 4294967294"}},
		"INFINITE":            {arg: "--priority=4294967295", wantLines: []string{"sbatch: error: Priority must be < 4294967294"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			res, err := submit(t, []string{"HOME=/home/u"}, "#!/bin/sh\n", tc.arg, "job.sh")
			if tc.wantLines != nil {
				var e *Error
				if !errors.As(err, &e) || e.Code != 255 {
					t.Fatalf("err = %v, want a refusal with exit 255", err)
				}
				if diff := cmp.Diff(tc.wantLines, e.Lines); diff != "" {
					t.Errorf("lines (-want +got):\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got int64
			if res.Request.Priority != nil {
				got = *res.Request.Priority
			}
			if got != tc.want || len(res.Warnings) != 0 {
				t.Errorf("priority %d, warnings %q; want %d and none", got, res.Warnings, tc.want)
			}
		})
	}
}
