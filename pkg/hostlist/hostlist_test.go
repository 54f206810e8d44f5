package hostlist

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExpand(t *testing.T) {
	tests := map[string]struct {
		list string
		want []string
	}{
		"empty list has no names":           {list: "", want: []string{}},
		"tabs and newlines separate":        {list: "a\tb\nc", want: []string{"a", "b", "c"}},
		"width comes from the low bound":    {list: "n[8-10]", want: []string{"n8", "n9", "n10"}},
		"padding holds past a power of ten": {list: "n[098-100]", want: []string{"n098", "n099", "n100"}},
		"range ends below the largest uint64": {
			list: "n[18446744073709551613-18446744073709551614]",
			want: []string{"n18446744073709551613", "n18446744073709551614"},
		},
		"four groups vary third, second, first, last": {
			list: "a[1-2]b[3-4]c[5-6]",
			want: []string{"a1b3c5", "a1b3c6", "a2b3c5", "a2b3c6", "a1b4c5", "a1b4c6", "a2b4c5", "a2b4c6"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := Expand(tc.list)
			if err != nil {
				t.Fatalf("Expand(%q): %v", tc.list, err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Expand(%q) (-want +got):\n%s", tc.list, diff)
			}
		})
	}
}

// TestExpandRejects covers malformed lists, including those Slurm turns into
// odd names instead of rejecting.
func TestExpandRejects(t *testing.T) {
	tests := map[string]struct {
		list      string
		wantInErr string
	}{
		"descending range":                      {list: "node[3-1]", wantInErr: `invalid range "3-1": 3 is greater than 1`},
		"unclosed bracket (Slurm: node])":       {list: "node[1-3", wantInErr: "'[' without ']'"},
		"stray closing bracket":                 {list: "n1]", wantInErr: "']' without '['"},
		"nested brackets (Slurm: n[1 n[2)":      {list: "n[[1-2]", wantInErr: "nested '['"},
		"bracket text before a literal ']'":     {list: "n]x[1-2]", wantInErr: "']' without '['"},
		"empty brackets":                        {list: "node[]", wantInErr: "empty range"},
		"empty item":                            {list: "n[1,,2]", wantInErr: "empty range"},
		"missing upper bound (Slurm: node1)":    {list: "node[1-]", wantInErr: `invalid range "1-": missing number`},
		"missing lower bound":                   {list: "node[-3]", wantInErr: `invalid range "-3": missing number`},
		"sign in range (Slurm: n01)":            {list: "n[+1]", wantInErr: `"+1" is not a number`},
		"space in range (Slurm: n01 n02)":       {list: "n[ 1-2]", wantInErr: `" 1" is not a number`},
		"letters in range":                      {list: "n[a-b]", wantInErr: `"a" is not a number`},
		"text after the last group":             {list: "n[1-2]-ib", wantInErr: `text "-ib" after the last ']'`},
		"number past 64 bits (Slurm clamps)":    {list: "n[99999999999999999999]", wantInErr: "does not fit in 64 bits"},
		"range one past Slurm's MAX_RANGE":      {list: "n[0-65536]", wantInErr: `too many hosts in range "0-65536"`},
		"error names the list":                  {list: "gpu[3-1]", wantInErr: `invalid host list "gpu[3-1]"`},
		"product past MaxHosts is refused":      {list: "a[0-65535]b[0-65535]", wantInErr: "too many hosts"},
		"many ranges past MaxHosts are refused": {list: strings.Repeat("n[0-65535],", 33), wantInErr: "too many hosts"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := Expand(tc.list)
			if err == nil {
				t.Fatalf("Expand(%q) = %d names, want an error", tc.list, len(got))
			}
			if !strings.Contains(err.Error(), tc.wantInErr) {
				t.Errorf("Expand(%q) error %q does not contain %q", tc.list, err, tc.wantInErr)
			}
		})
	}
}

func TestExpandTooLargeIsErrTooLarge(t *testing.T) {
	_, err := Expand("a[0-65535]b[0-65535]")
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("Expand error = %v, want ErrTooLarge", err)
	}
}

func TestExpandRangeAtMaxRange(t *testing.T) {
	got, err := Expand("n[0-65535]")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != MaxRange || got[0] != "n0" || got[MaxRange-1] != "n65535" {
		t.Errorf("Expand(n[0-65535]) = %d names %q..%q", len(got), got[0], got[len(got)-1])
	}
}

func TestCount(t *testing.T) {
	tests := map[string]struct {
		list string
		want int
	}{
		"plain names":                       {list: "a,b,a", want: 3},
		"duplicates count":                  {list: "n[1-3,2]", want: 4},
		"product of groups":                 {list: "r[1-4]n[01-16]", want: 64},
		"beyond MaxHosts without expanding": {list: "a[0-65535]b[0-65535]c[0-65535]", want: 1 << 48},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := Count(tc.list)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("Count(%q) = %d, want %d", tc.list, got, tc.want)
			}
		})
	}
}

func TestCountOverflowIsAnError(t *testing.T) {
	list := strings.Repeat("[0-65535]", 6)
	if n, err := Count(list); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Count(%q) = %d, %v; want ErrTooLarge", list, n, err)
	}
}

func TestAllStopsEarly(t *testing.T) {
	seq, err := All("a[0-65535]b[0-65535]")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for h := range seq {
		got = append(got, h)
		if len(got) == 3 {
			break
		}
	}
	if diff := cmp.Diff([]string{"a0b0", "a0b1", "a0b2"}, got); diff != "" {
		t.Errorf("All (-want +got):\n%s", diff)
	}
}

func TestParseKeepsLargeListsCompact(t *testing.T) {
	l, err := Parse("gpu[000001-100000]")
	if err == nil {
		t.Fatalf("Parse accepted a range of 100000, beyond MaxRange: %d ranges", len(l.Ranges()))
	}
	l, err = Parse("gpu[000001-050000],gpu[050001-100000]")
	if err != nil {
		t.Fatal(err)
	}
	if l.Len() != 100000 || len(l.Ranges()) != 1 {
		t.Errorf("Parse = %d names in %d ranges, want 100000 in 1", l.Len(), len(l.Ranges()))
	}
	if got, want := l.String(), "gpu[000001-100000]"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestCompress(t *testing.T) {
	tests := map[string]struct {
		names []string
		want  string
	}{
		"no names":                      {names: nil, want: ""},
		"duplicates are dropped":        {names: []string{"n2", "n1", "n2", "n1"}, want: "n[1-2]"},
		"node table order, cpu first":   {names: []string{"gpu2", "gpu1", "cpu1"}, want: "cpu1,gpu[1-2]"},
		"padding widths stay apart":     {names: []string{"n10", "n09", "n9"}, want: "n[9,09-10]"},
		"names without digits go first": {names: []string{"node1", "node"}, want: "node,node1"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Compress(tc.names)); diff != "" {
				t.Errorf("Compress(%q) (-want +got):\n%s", tc.names, diff)
			}
		})
	}
}

func TestCompressDoesNotModifyInput(t *testing.T) {
	names := []string{"n3", "n1", "n2"}
	Compress(names)
	if diff := cmp.Diff([]string{"n3", "n1", "n2"}, names); diff != "" {
		t.Errorf("Compress changed its input (-want +got):\n%s", diff)
	}
}

func TestSort(t *testing.T) {
	names := []string{"rack10n1", "n011", "rack9n2", "n10", "n9", "x", "n09", "n11", "rack9n1"}
	Sort(names)
	want := []string{"n9", "n09", "n10", "n11", "n011", "rack9n1", "rack9n2", "rack10n1", "x"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("Sort (-want +got):\n%s", diff)
	}
}

// TestCompareIsATotalOrder checks that Compare is antisymmetric and
// transitive over a set that mixes every kind of suffix, so that Sort does
// not depend on the input order the way Slurm's comparator does.
func TestCompareIsATotalOrder(t *testing.T) {
	names := []string{"n", "n0", "n00", "n000", "n1", "n01", "n9", "n09", "n10", "n010", "n11",
		"n011", "n99", "n099", "n100", "n0100", "m5", "n-1", "n_1", "N1", "rack9n1", "rack10n1"}
	for _, a := range names {
		for _, b := range names {
			if (Compare(a, b) < 0) != (Compare(b, a) > 0) || (Compare(a, b) == 0) != (a == b) {
				t.Errorf("Compare(%q, %q) = %d but Compare(%q, %q) = %d", a, b, Compare(a, b), b, a, Compare(b, a))
			}
			for _, c := range names {
				if Compare(a, b) < 0 && Compare(b, c) < 0 && Compare(a, c) >= 0 {
					t.Errorf("%q < %q < %q but Compare(%q, %q) = %d", a, b, c, a, c, Compare(a, c))
				}
			}
		}
	}
	shuffled := slices.Clone(names)
	slices.Reverse(shuffled)
	Sort(names)
	Sort(shuffled)
	if diff := cmp.Diff(names, shuffled); diff != "" {
		t.Errorf("Sort depends on input order (-forward +reverse):\n%s", diff)
	}
}

func TestNatCompare(t *testing.T) {
	tests := map[string]struct {
		a, b string
		want int // sign
	}{
		"numbers by value":          {a: "rack9", b: "rack10", want: -1},
		"equal strings":             {a: "rack10", b: "rack10", want: 0},
		"leading zeros as fraction": {a: "x01", b: "x1", want: -1},
		"shorter prefix first":      {a: "n", b: "n-", want: -1},
		"case-sensitive":            {a: "N", b: "n", want: -1},
		"digits before letters":     {a: "a1", b: "ab", want: -1},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := natCompare(tc.a, tc.b)
			if sign(got) != tc.want {
				t.Errorf("natCompare(%q, %q) = %d, want sign %d", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}
