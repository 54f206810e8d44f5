package slurmtime

import "testing"

// TestDiagnosticPos checks the positions Slurm 22.05's sbatch printed on
// the peer in "Invalid time specification (pos=N): VALUE".
func TestDiagnosticPos(t *testing.T) {
	tests := map[string]struct {
		in     string
		want   int
		wantOK bool
	}{
		"a word":                               {"garbage", 0, true},
		"a bad delta":                          {"now+garbage", 3, true},
		"a month out of range":                 {"2026-13-45", 5, true},
		"minutes out of range":                 {"16:61", 3, true},
		"junk after a delta unit":              {"now+1hourx", 9, true},
		"junk after a keyword":                 {"tomorrowx", 8, true},
		"a four-digit year after a slash date": {"12/31/2026x", 8, true},
		"an hour out of range":                 {"2026-01-01T25:00", 11, true},
		"a sign without a count":               {"now+", 3, true},
		"a leading sign":                       {"+5", 0, true},
		"bad deadline":                         {"soon", 0, true},
		"empty":                                {"", 0, false},
		"valid":                                {"now+1hour", 0, false},
		"valid date and time":                  {"2026-01-01T10:00:00", 0, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, ok := DiagnosticPos(tc.in)
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("DiagnosticPos(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.wantOK)
			}
		})
	}
}
