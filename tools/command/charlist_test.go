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
		{value: `"Acct,B"`, want: []string{"acct", "b"}}, // quotes do not keep a comma
		{value: "ÉTÉ,A", want: []string{"ÉtÉ", "a"}},     // C's tolower: A-Z only
		{have: []string{"a"}, value: "A", want: []string{"a"}},
		{have: []string{"a", "b"}, value: "A", want: []string{"b", "a"}},
	}
	for _, tc := range tests {
		if got := addCharList(tc.have, tc.value); !cmp.Equal(got, tc.want) {
			t.Errorf("addCharList(%q, %q) = %q, want %q", tc.have, tc.value, got, tc.want)
		}
	}
}

// TestParseCharList: items as Slurm 22.05's slurm_parse_char_list splits
// them for sacct's -s, -u, -j and -q (and sacctmgr's QOS lists), traced
// through that function by hand: no brackets, case or de-duplication.
func TestParseCharList(t *testing.T) {
	tests := []struct {
		value string
		want  []string
	}{
		{value: "r,CD", want: []string{"r", "CD"}},
		{value: "", want: nil},
		{value: ",", want: nil},
		{value: ",,a,,b,", want: []string{"a", "b"}},
		{value: `"a,b"`, want: []string{"a", "b"}},       // the quotes go, the comma still splits
		{value: `'a'b,c`, want: []string{"a"}},           // the closing quote ends the value
		{value: `"a`, want: []string{"a"}},               // an unclosed quote runs to the end
		{value: `a"b,c'd`, want: []string{"a`b", "c`d"}}, // inner quotes become '`'
		{value: `'a"b'`, want: []string{"a`b"}},
		{value: "n[1-2],n[1-2]", want: []string{"n[1-2]", "n[1-2]"}},
		{value: "A,a", want: []string{"A", "a"}},
		{value: " r", want: []string{" r"}},
	}
	for _, tc := range tests {
		if got := parseCharList(tc.value); !cmp.Equal(got, tc.want) {
			t.Errorf("parseCharList(%q) = %q, want %q", tc.value, got, tc.want)
		}
	}
}
