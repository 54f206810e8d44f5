package resource_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

func TestCPUList(t *testing.T) {
	tests := map[string][]int{"0-3,8": {0, 1, 2, 3, 8}, "5": {5}, "": nil, "0,2-3": {0, 2, 3}}
	for in, want := range tests {
		got, err := resource.ParseCPUList(in)
		if err != nil || !cmp.Equal(want, got) {
			t.Errorf("ParseCPUList(%q) = %v, %v", in, got, err)
		}
		if in != "" && job.FormatRanges(got) != in {
			t.Errorf("job.FormatRanges(%v) = %q, want %q", got, job.FormatRanges(got), in)
		}
	}
	for _, bad := range []string{"3-1", "a", "-1", "0-99999999", "1-"} {
		if _, err := resource.ParseCPUList(bad); err == nil {
			t.Errorf("ParseCPUList(%q) accepted", bad)
		}
	}
}
