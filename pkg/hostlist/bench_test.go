package hostlist

import "testing"

// bigCluster is a 100k-node list: 1563 racks of 64 nodes.
const bigCluster = "r[0001-1563]n[01-64]"

func BenchmarkExpand100k(b *testing.B) {
	for b.Loop() {
		if _, err := Expand(bigCluster); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompress100k(b *testing.B) {
	names, err := Expand(bigCluster)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		Compress(names)
	}
}

func BenchmarkCount100k(b *testing.B) {
	for b.Loop() {
		if _, err := Count(bigCluster); err != nil {
			b.Fatal(err)
		}
	}
}

func TestCompressBigClusterRoundTrip(t *testing.T) {
	names, err := Expand(bigCluster)
	if err != nil {
		t.Fatal(err)
	}
	if len(names) != 1563*64 {
		t.Fatalf("Expand(%s) = %d names", bigCluster, len(names))
	}
	got := Compress(names)
	want := "r0001n[01-64]"
	if got[:len(want)] != want {
		t.Errorf("Compress begins %q, want %q", got[:len(want)], want)
	}
	n, err := Count(got)
	if err != nil || n != len(names) {
		t.Errorf("Count(Compress(...)) = %d, %v; want %d", n, err, len(names))
	}
}
