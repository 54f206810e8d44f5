package command

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAddCharList: option values read as Slurm 22.05's
// slurm_addto_char_list reads them (src/common/slurm_protocol_defs.c),
// each expectation traced through that function by hand.
func TestAddCharList(t *testing.T) {
	tests := []struct {
		have  []string
		value string
		want  []string
	}{
		{value: "gpu,ib", want: []string{"gpu", "ib"}},
		{value: "GPU", want: []string{"gpu"}},
		{value: ",,gpu,,ib", want: []string{"gpu", "ib"}},
		{value: "gpu,", want: []string{"gpu"}},
		{value: "", want: []string{""}},
		{value: "''", want: []string{""}},
		{value: "'gpu,ib'x", want: []string{"gpu", "ib"}},
		{value: `a"b`, want: []string{"a`b"}},
		{value: "rack[1-2],ib", want: []string{"rack1", "rack2", "ib"}},
		{value: "rack[1,3]", want: []string{"rack1", "rack3"}},
		{value: "gpu,h100,GPU", want: []string{"h100", "gpu"}},
		{value: "[a|b]", want: []string{"[a|b]"}}, // not a host list: kept whole
		{value: "[a|b],ib", want: []string{"ib"}}, // and lost before a comma
		{have: []string{"gpu"}, value: "ib", want: []string{"gpu", "ib"}},
		{have: []string{"gpu"}, value: ",", want: []string{"gpu", ""}},
	}
	for _, tc := range tests {
		if got := addCharList(tc.have, tc.value); !cmp.Equal(got, tc.want) {
			t.Errorf("addCharList(%q, %q) = %q, want %q", tc.have, tc.value, got, tc.want)
		}
	}
}
