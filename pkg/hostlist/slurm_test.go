package hostlist

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// rangeLine renders an error of ParseSlurmWarn as scontrol prints it.
func rangeLine(err error) string {
	var re *RangeError
	switch {
	case errors.As(err, &re) && re.TooMany:
		return "scontrol: error: _parse_single_range: Too many hosts in range `" + re.Range + "'"
	case errors.As(err, &re):
		return "scontrol: error: _parse_single_range: Invalid range: `" + re.Range + "'"
	}
	return "unexpected error: " + err.Error()
}

// slurmStderr renders the warnings and error of ParseSlurmWarn as scontrol
// prints them on standard error, lines joined by "|".
func slurmStderr(list string, warnings []Warning, err error) string {
	var lines []string
	for _, w := range warnings {
		for range w.Times {
			lines = append(lines, rangeLine(w.Err))
		}
	}
	if err != nil {
		if !errors.Is(err, ErrSyntax) {
			lines = append(lines, rangeLine(err))
		}
		lines = append(lines, "Invalid hostlist: "+list)
	}
	return strings.Join(lines, "|")
}

// TestParseSlurmMatchesSlurm checks ParseSlurmWarn, List.String and
// SortSlurm against `scontrol show hostnames`, `hostlist` and
// `hostlistsorted` of odd and malformed lists, errors included
// (testdata/slurm.golden, from capture.sh).
func TestParseSlurmMatchesSlurm(t *testing.T) {
	for _, tc := range readGolden(t, "testdata/slurm.golden") {
		if len(tc.wantMore) != 3 {
			t.Fatalf("line %d: want 5 fields", tc.line)
		}
		l, warnings, err := ParseSlurmWarn(tc.input)
		got := []string{"", "", "", slurmStderr(tc.input, warnings, err)}
		if err == nil {
			got[0] = strings.Join(l.Hosts(), " ")
			got[1] = l.String()
			l.SortSlurm()
			got[2] = l.String()
		}
		want := append([]string{tc.wantOutput}, tc.wantMore...)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("line %d: ParseSlurm(%q) names, hostlist, sorted, errors (-want +got):\n%s", tc.line, tc.input, diff)
		}
	}
}

// TestExpandSlurmOnWellFormedLists: on every list the strict parser and
// Slurm accept, both parsers agree (testdata/hostnames.golden).
func TestExpandSlurmOnWellFormedLists(t *testing.T) {
	for _, tc := range readGolden(t, "testdata/hostnames.golden") {
		if _, dev := deviations[tc.input]; dev || tc.wantOutput == "ERROR" {
			continue
		}
		got, err := ExpandSlurm(tc.input)
		if err != nil {
			t.Errorf("line %d: ExpandSlurm(%q): %v", tc.line, tc.input, err)
			continue
		}
		if diff := cmp.Diff(strings.Fields(tc.wantOutput), got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("line %d: ExpandSlurm(%q) (-want +got):\n%s", tc.line, tc.input, diff)
		}
	}
}

// TestExpandSlurmSeparators: Slurm splits at commas, spaces and tabs only;
// a newline stays in the name (peer: `scontrol show hostlistsorted
// $'n1\nn2'` prints the two lines back).
func TestExpandSlurmSeparators(t *testing.T) {
	tests := map[string]struct {
		list string
		want []string
	}{
		"tab separates":             {list: "n1\tn2", want: []string{"n1", "n2"}},
		"newline is part of a name": {list: "n1\nn2", want: []string{"n1\nn2"}},
		"a space in brackets pads":  {list: "n[1, 2]", want: []string{"n1", "n02"}},
		"only separators":           {list: " ,\t,", want: nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ExpandSlurm(tc.list)
			if tc.want == nil && err == nil && len(got) > 0 {
				t.Fatalf("ExpandSlurm(%q) = %q, want nothing", tc.list, got)
			}
			if tc.want == nil {
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ExpandSlurm(%q) (-want +got):\n%s", tc.list, diff)
			}
		})
	}
}

// TestParseSlurmTooLarge: lists past MaxHosts are refused (Slurm would
// try to build billions of names).
func TestParseSlurmTooLarge(t *testing.T) {
	_, err := ParseSlurm("a[0-65535]b[0-65535]")
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("ParseSlurm error = %v, want ErrTooLarge", err)
	}
}

// FuzzParseSlurm checks that no input panics or hangs, that the names agree
// with the list's length, and that a list Slurm-style parsing accepts
// prints (List.String) to a list that parses back to the same names when
// its names are plain.
func FuzzParseSlurm(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Add("a]b[1,2]")
	f.Add("[")
	f.Add("n[1-3],n[2-5],n0[9-10],n2")
	f.Add("n[1a-3],[ 1-2]")
	f.Add("a[1-2]b[c[3-4]")
	f.Fuzz(func(t *testing.T, list string) {
		if n, err := Count(list); err == nil && n > fuzzExpandLimit {
			return
		}
		l, err := ParseSlurm(list)
		if err != nil {
			return
		}
		if l.Len() > fuzzExpandLimit {
			return
		}
		names := l.Hosts()
		if len(names) != l.Len() {
			t.Fatalf("ParseSlurm(%q): Len %d, %d names", list, l.Len(), len(names))
		}
		if !strings.ContainsAny(list, "\n\v\f\r") && !zeroPadded.MatchString(list) {
			// Slurm compares prefixes skipping white space, so "\r1"
			// joins "0" as [0-1], and its comparator adjusts zero
			// padding as it goes, which can drop hosts ("a[9-16,8-13,01]"
			// sorts to a[8-9,...,12-13,13]); SortSlurm does the same.
			checkSortKeepsNames(t, list, names)
		}
		for _, n := range names {
			if n == "" || strings.ContainsAny(n, "[], \t") {
				return
			}
		}
		back, err := ExpandSlurm(l.String())
		if err != nil {
			t.Fatalf("ExpandSlurm(%q) of ParseSlurm(%q): %v", l.String(), list, err)
		}
		if diff := cmp.Diff(names, back, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("round trip of %q via %q (-want +got):\n%s", list, l.String(), diff)
		}
	})
}

// zeroPadded finds a zero-padded number.
var zeroPadded = regexp.MustCompile(`(^|[^0-9])0[0-9]`)

// checkSortKeepsNames checks that SortSlurm only reorders: the same names,
// duplicates included.
func checkSortKeepsNames(t *testing.T, list string, names []string) {
	t.Helper()
	l, err := ParseSlurm(list)
	if err != nil {
		t.Fatal(err)
	}
	l.SortSlurm()
	sorted := l.Hosts()
	want, got := slices.Clone(names), slices.Clone(sorted)
	slices.Sort(want)
	slices.Sort(got)
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("SortSlurm of %q changed the names (-want +got):\n%s", list, diff)
	}
}
