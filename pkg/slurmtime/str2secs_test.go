package slurmtime

import "testing"

// TestStr2Secs checks time_str2secs' readings: plain numbers are
// minutes, malformed and empty values are NO_VAL (not ok), -1 and
// UNLIMITED are INFINITE. The peer's sbatch -v shows them back:
// --switches=2@10 as 2@00:10:00, 2@1-0 as 2@1-00:00:00, 3@5:30 as
// 3@00:05:30, 1@x and 1@ as 1@INVALID, 1@-1 as plain 1.
func TestStr2Secs(t *testing.T) {
	cases := []struct {
		in   string
		secs int64
		ok   bool
	}{
		{"10", 600, true},
		{"0", 0, true},
		{"5:30", 330, true},
		{"1:30:00", 5400, true},
		{"1-0", 86400, true},
		{"2-", 172800, true},
		{"1-2:3", 86400 + 2*3600 + 3*60, true},
		{"1-2:3:4", 86400 + 2*3600 + 3*60 + 4, true},
		{"-1", InfiniteSecs, true},
		{"UNLIMITED", InfiniteSecs, true},
		{"infinite", InfiniteSecs, true},
		{"", 0, false},
		{"x", 0, false},
		{"1x", 0, false},
		{"1:2:3:4", 0, false},
		{"1-2-3", 0, false},
		{"1:2-3", 0, false},
		{":", 0, false},
		{"1-:2", 0, false},
	}
	for _, c := range cases {
		secs, ok := Str2Secs(c.in)
		if secs != c.secs || ok != c.ok {
			t.Errorf("Str2Secs(%q) = %d, %v; want %d, %v", c.in, secs, ok, c.secs, c.ok)
		}
	}
}
