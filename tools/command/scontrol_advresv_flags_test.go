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
		val   string
		want  []string // nil: "Error parsing flags"
		purge int64    // PURGE_COMP's seconds, 0 none
	}{
		"plain names set":                  {"MAINT,ignore_jobs", []string{"+MAINT", "+IGNORE_JOBS"}, 0},
		"abbreviations":                    {"mai,o,ig", []string{"+MAINT", "+OVERLAP", "+IGNORE_JOBS"}, 0},
		"Maintenance in full":              {"maintenance", []string{"+MAINT"}, 0},
		"ma is too short for MAINT":        {"+ig,ma", nil, 0},
		"minus holds for later names":      {"o,-ig", []string{"+OVERLAP", "-IGNORE_JOBS"}, 0},
		"-OVERLAP is refused":              {"-OVERLAP", nil, 0},
		"-o is refused after a minus":      {"-ma,o", nil, 0},
		"-MAINT clears":                    {"-MAINT", []string{"-MAINT"}, 0},
		"w is WEEKDAY, the first W flag":   {"w", []string{"+WEEKDAY"}, 0},
		"REPLACE_DOWN is not REPLACE":      {"replace_down", []string{"+REPLACE_DOWN"}, 0},
		"TIME_FLOAT takes no sign":         {"+time_float", nil, 0},
		"PURGE_COMP takes a time":          {"purge_comp=5:00", []string{"+PURGE_COMP"}, 300},
		"PURGE_COMP minutes alone":         {"purge_comp=10", []string{"+PURGE_COMP"}, 600},
		"a bad PURGE_COMP time is default": {"purge_comp=bad", []string{"+PURGE_COMP"}, 0},
		"SPEC_NODES is not a flag to give": {"-SPEC_NODES", nil, 0},
		"unknown":                          {"bogus", nil, 0},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, purge, ok := parseResvFlags(tc.val)
			if deref(purge) != tc.purge {
				t.Errorf("parseResvFlags(%q) purge %d, want %d", tc.val, deref(purge), tc.purge)
			}
			if ok != (tc.want != nil) {
				t.Fatalf("parseResvFlags(%q) ok=%v, want %v", tc.val, ok, tc.want != nil)
			}
			if diff := cmp.Diff(tc.want, got); ok && diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
