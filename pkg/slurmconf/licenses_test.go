package slurmconf

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseLicenses(t *testing.T) {
	tests := map[string]struct {
		in     string
		want   []License
		wantOK bool
	}{
		"the peer's slurm.conf": {"matlab:2,wandb:10", []License{{"matlab", 2}, {"wandb", 10}}, true},
		"count defaults to one": {"matlab:1,wandb", []License{{"matlab", 1}, {"wandb", 1}}, true},
		"star and semicolon":    {"matlab*3;wandb", []License{{"matlab", 3}, {"wandb", 1}}, true},
		"a name twice adds up":  {"matlab:1,matlab:1", []License{{"matlab", 2}}, true},
		"zero is a count":       {"matlab:0", []License{{"matlab", 0}}, true},
		"any-of is not 22.05's": {"matlab|wandb", nil, false},
		"a remote license":      {"matlab@db", nil, false},
		"a count not a number":  {"matlab:x", nil, false},
		"a negative count":      {"matlab:-1", nil, false},
		"no name":               {":2", nil, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, ok := ParseLicenses(tc.in)
			if ok != tc.wantOK {
				t.Fatalf("ParseLicenses(%q) ok = %v, want %v", tc.in, ok, tc.wantOK)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParseLicenses(%q) (-want +got):\n%s", tc.in, diff)
			}
		})
	}
}

func FuzzParseLicenses(f *testing.F) {
	for _, s := range []string{"matlab:2,wandb:10", "a*1;b", "x|y", "", ",,:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lics, ok := ParseLicenses(s)
		for _, l := range lics {
			if !ok || l.Name == "" || l.Count < 0 {
				t.Fatalf("ParseLicenses(%q) = %v, %v", s, lics, ok)
			}
		}
	})
}
