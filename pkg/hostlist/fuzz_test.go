package hostlist

import (
	"slices"
	"testing"
)

// fuzzSeeds are the seed corpus of the fuzz targets; plain `go test` runs them.
var fuzzSeeds = []string{
	"", "node1", "gpu[001-004,07]", "r[1-2]n[01-02]", "a[1-2]b[3-4]c[5-6]", "n[9-10],n[09-10]",
	"node[3-1]", "n[1-3", "n1]", "n[[1-2]", "n[0-65536]", "a[0-65535]b[0-65535]", "n[1-2]x",
	"n[18446744073709551614-18446744073709551615]", "n[99999999999999999999]", ",, ,", "[1-2][1-2]",
}

// fuzzExpandLimit keeps each fuzz input cheap: lists larger than this are
// only counted, never expanded.
const fuzzExpandLimit = 4096

// FuzzExpand checks that no input panics or hangs, that Count agrees with
// Expand, and the round trip: Compress(Expand(x)) expands to the sorted
// unique names of x, and Ranged(Expand(x)) expands back to Expand(x).
func FuzzExpand(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, list string) {
		n, err := Count(list)
		if err != nil || n > fuzzExpandLimit {
			return
		}
		names, err := Expand(list)
		if err != nil {
			t.Fatalf("Count(%q) = %d but Expand failed: %v", list, n, err)
		}
		if len(names) != n {
			t.Fatalf("Count(%q) = %d, Expand gave %d names", list, n, len(names))
		}
		checkRoundTrip(t, names)
	})
}

// checkRoundTrip checks both round-trip properties for names that came out
// of Expand.
func checkRoundTrip(t *testing.T, names []string) {
	t.Helper()
	ranged := Ranged(names)
	back, err := Expand(ranged)
	if err != nil {
		t.Fatalf("Expand(Ranged(%q)) = %q: %v", names, ranged, err)
	}
	if !slices.Equal(back, names) {
		t.Fatalf("Expand(Ranged(%q)) via %q = %q", names, ranged, back)
	}
	want := slices.Clone(names)
	Sort(want)
	want = slices.Compact(want)
	compressed := Compress(names)
	got, err := Expand(compressed)
	if err != nil {
		t.Fatalf("Expand(Compress(%q)) = %q: %v", names, compressed, err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Expand(Compress(%q)) via %q = %q, want %q", names, compressed, got, want)
	}
}

// FuzzCompress builds names from fuzzed parts, so that prefixes, widths and
// numbers mix freely, and checks the round trip.
func FuzzCompress(f *testing.F) {
	f.Add("n", uint16(9), uint8(1), uint8(3), "n", uint16(10), uint8(2))
	f.Add("rack9n", uint16(1), uint8(1), uint8(4), "rack10n", uint16(99), uint8(3))
	f.Fuzz(func(t *testing.T, p1 string, n1 uint16, w1, count uint8, p2 string, n2 uint16, w2 uint8) {
		var names []string
		for i := range int(count % 16) {
			names = append(names, p1+pad(uint64(n1)+uint64(i), int(w1%6)))
			names = append(names, p2+pad(uint64(n2)+uint64(i), int(w2%6)))
		}
		for _, name := range names {
			if got, err := Expand(name); err != nil || len(got) != 1 || got[0] != name {
				return // not a plain host name: brackets, separators...
			}
		}
		checkRoundTrip(t, names)
	})
}
