package hostlist

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// goldenCase is one input<TAB>output[<TAB>output...] line captured from
// Slurm by testdata/capture.sh.
type goldenCase struct {
	line       int
	input      string
	wantOutput string
	wantMore   []string
}

// deviations are inputs where Loam knowingly differs from Slurm: it returns
// an error where Slurm prints something odd.
var deviations = map[string]string{
	// Slurm treats a range ending at ULONG_MAX as empty and prints nothing.
	"n[18446744073709551614-18446744073709551615]": "does not fit",
}

func readGolden(t *testing.T, path string) []goldenCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []goldenCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) < 2 {
			t.Fatalf("%s:%d: no tab in %q", path, n, sc.Text())
		}
		cases = append(cases, goldenCase{line: n, input: fields[0], wantOutput: fields[1], wantMore: fields[2:]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatalf("%s: no cases", path)
	}
	return cases
}

// TestExpandMatchesSlurm checks Expand against `scontrol show hostnames`.
func TestExpandMatchesSlurm(t *testing.T) {
	for _, tc := range readGolden(t, "testdata/hostnames.golden") {
		got, err := Expand(tc.input)
		if inErr, ok := deviations[tc.input]; ok {
			if err == nil || !strings.Contains(err.Error(), inErr) {
				t.Errorf("line %d: Expand(%q) = %q, %v; want an error containing %q", tc.line, tc.input, got, err, inErr)
			}
			continue
		}
		if tc.wantOutput == "ERROR" {
			if err == nil {
				t.Errorf("line %d: Expand(%q) = %q, want an error as Slurm gives", tc.line, tc.input, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("line %d: Expand(%q): %v", tc.line, tc.input, err)
			continue
		}
		want := strings.Fields(tc.wantOutput)
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("line %d: Expand(%q) (-want +got):\n%s", tc.line, tc.input, diff)
		}
		if n, err := Count(tc.input); err != nil || n != len(want) {
			t.Errorf("line %d: Count(%q) = %d, %v; want %d", tc.line, tc.input, n, err, len(want))
		}
	}
}

// TestRangedMatchesSlurm checks List.String against `scontrol show
// hostlist` of an expression, and Ranged against it for the expanded names.
func TestRangedMatchesSlurm(t *testing.T) {
	for _, tc := range readGolden(t, "testdata/hostlist.golden") {
		if _, ok := deviations[tc.input]; ok {
			continue
		}
		names, err := Expand(tc.input)
		if err != nil {
			t.Errorf("line %d: Expand(%q): %v", tc.line, tc.input, err)
			continue
		}
		if len(tc.wantMore) != 1 {
			t.Fatalf("line %d: want 3 fields", tc.line)
		}
		if diff := cmp.Diff(tc.wantMore[0], Ranged(names)); diff != "" {
			t.Errorf("line %d: Ranged(Expand(%q)) (-want +got):\n%s", tc.line, tc.input, diff)
		}
		l, err := Parse(tc.input)
		if err != nil {
			t.Fatalf("line %d: Parse(%q): %v", tc.line, tc.input, err)
		}
		if diff := cmp.Diff(tc.wantOutput, l.String()); diff != "" {
			t.Errorf("line %d: Parse(%q).String() (-want +got):\n%s", tc.line, tc.input, diff)
		}
	}
}

// TestCompressMatchesSlurm checks Compress against `scontrol show
// hostlistsorted` of the unique names.
func TestCompressMatchesSlurm(t *testing.T) {
	for _, tc := range readGolden(t, "testdata/compress.golden") {
		names, err := Expand(tc.input)
		if err != nil {
			t.Errorf("line %d: Expand(%q): %v", tc.line, tc.input, err)
			continue
		}
		if diff := cmp.Diff(tc.wantOutput, Compress(names)); diff != "" {
			t.Errorf("line %d: Compress(Expand(%q)) (-want +got):\n%s", tc.line, tc.input, diff)
		}
	}
}

// TestRoundTripOnGoldenLists checks both round-trip properties on every list
// Slurm accepted.
func TestRoundTripOnGoldenLists(t *testing.T) {
	for _, tc := range readGolden(t, "testdata/hostnames.golden") {
		names, err := Expand(tc.input)
		if err != nil {
			continue
		}
		checkRoundTrip(t, names)
	}
}
