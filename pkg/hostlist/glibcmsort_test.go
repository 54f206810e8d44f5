package hostlist

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGlibcMsort: an answer that is always "greater" reverses the input
// and one always "less" keeps it, as glibc's merge sort does; a real
// order sorts stably.
func TestGlibcMsort(t *testing.T) {
	in := []int{0, 1, 2, 3, 4, 5, 6}
	tests := map[string]struct {
		cmp  func(a, b int) int
		want []int
	}{
		"always greater": {func(a, b int) int { return 1 }, []int{6, 5, 4, 3, 2, 1, 0}},
		"always less":    {func(a, b int) int { return -1 }, []int{0, 1, 2, 3, 4, 5, 6}},
		"odd first":      {func(a, b int) int { return b%2 - a%2 }, []int{1, 3, 5, 0, 2, 4, 6}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := append([]int(nil), in...)
			GlibcMsort(got, make([]int, len(got)), tc.cmp)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
