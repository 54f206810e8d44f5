package command

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParseResvFlags: Slurm's Flags= parser, checked on the peer
// (testdata/peer/advresv/update_edits.txt): abbreviations, a sign that
// holds for the names after it, and the flags that refuse a sign.
func TestParseResvFlags(t *testing.T) {
	tests := map[string]struct {
		val  string
		want []string // nil: "Error parsing flags"
	}{
		"plain names set":                  {"MAINT,ignore_jobs", []string{"+MAINT", "+IGNORE_JOBS"}},
		"abbreviations":                    {"mai,o,ig", []string{"+MAINT", "+OVERLAP", "+IGNORE_JOBS"}},
		"Maintenance in full":              {"maintenance", []string{"+MAINT"}},
		"ma is too short for MAINT":        {"+ig,ma", nil},
		"minus holds for later names":      {"o,-ig", []string{"+OVERLAP", "-IGNORE_JOBS"}},
		"-OVERLAP is refused":              {"-OVERLAP", nil},
		"-o is refused after a minus":      {"-ma,o", nil},
		"-MAINT clears":                    {"-MAINT", []string{"-MAINT"}},
		"w is WEEKDAY, the first W flag":   {"w", []string{"+WEEKDAY"}},
		"REPLACE_DOWN is not REPLACE":      {"replace_down", []string{"+REPLACE_DOWN"}},
		"TIME_FLOAT takes no sign":         {"+time_float", nil},
		"PURGE_COMP takes a time":          {"purge_comp=5:00", []string{"+PURGE_COMP"}},
		"SPEC_NODES is not a flag to give": {"-SPEC_NODES", nil},
		"unknown":                          {"bogus", nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, ok := parseResvFlags(tc.val)
			if ok != (tc.want != nil) {
				t.Fatalf("parseResvFlags(%q) ok=%v, want %v", tc.val, ok, tc.want != nil)
			}
			if diff := cmp.Diff(tc.want, got); ok && diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
