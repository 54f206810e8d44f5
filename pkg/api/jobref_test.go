package api

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseJobRef(t *testing.T) {
	tests := map[string]struct {
		in      string
		want    JobRef
		wantStr string
		wantErr string
	}{
		"plain job id":          {in: "12", want: JobRef{JobID: 12}, wantStr: "12"},
		"one array task":        {in: "12_3", want: JobRef{JobID: 12, Tasks: []int{3}}, wantStr: "12_3"},
		"task list in brackets": {in: "12_[1-3,7]", want: JobRef{JobID: 12, Tasks: []int{1, 2, 3, 7}}, wantStr: "12_[1-3,7]"},
		"all tasks star":        {in: "12_*", want: JobRef{JobID: 12}, wantStr: "12"},
		"letters are refused":   {in: "abc", wantErr: "Invalid job id abc"},
		"zero is refused":       {in: "0", wantErr: "Invalid job id 0"},
		"trailing junk":         {in: "12x", wantErr: "Invalid job id 12x"},
		"list without brackets": {in: "12_1-3", wantErr: "Invalid job id 12_1-3"},
		"reversed range":        {in: "12_[3-1]", wantErr: "Invalid job id 12_[3-1]"},
		"empty brackets":        {in: "12_[]", wantErr: "Invalid job id 12_[]"},
		"too large a job id":    {in: "4294967296", wantErr: "Invalid job id 4294967296"},
		"plus sign":             {in: "+12", wantErr: "Invalid job id +12"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ParseJobRef(tc.in)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("ParseJobRef(%q) error = %v, want %q", tc.in, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseJobRef(%q): %v", tc.in, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParseJobRef(%q) (-want +got):\n%s", tc.in, diff)
			}
			if s := got.String(); s != tc.wantStr {
				t.Errorf("String() = %q, want %q", s, tc.wantStr)
			}
		})
	}
}

func FuzzParseJobRef(f *testing.F) {
	for _, s := range []string{"12", "12_3", "12_[1-3,7]", "12_*", "x", "1_[", "1_[0-40000]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseJobRef(s)
		if err != nil {
			return
		}
		again, err := ParseJobRef(r.String())
		if err != nil {
			t.Fatalf("ParseJobRef(%q) = %v, whose String %q does not parse: %v", s, r, r.String(), err)
		}
		if diff := cmp.Diff(r, again); diff != "" {
			t.Fatalf("round trip of %q (-first +second):\n%s", s, diff)
		}
	})
}
