package job

import "testing"

func TestFormatRanges(t *testing.T) {
	tests := map[string]struct {
		idx  []int
		want string
	}{
		"nothing is empty":               {nil, ""},
		"one index stands alone":         {[]int{7}, "7"},
		"two neighbours make a range":    {[]int{0, 1}, "0-1"},
		"gaps split the ranges":          {[]int{0, 1, 2, 3, 6, 8, 9}, "0-3,6,8-9"},
		"big numbers keep every digit":   {[]int{1000000, 1000001, 4000000}, "1000000-1000001,4000000"},
		"a descending step is not a run": {[]int{3, 2}, "3,2"},
	}
	for name, tc := range tests {
		if got := FormatRanges(tc.idx); got != tc.want {
			t.Errorf("%s: FormatRanges(%v) = %q, want %q", name, tc.idx, got, tc.want)
		}
	}
}
