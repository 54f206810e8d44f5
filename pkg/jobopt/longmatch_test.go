package jobopt

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMatchLong(t *testing.T) {
	names := []LongName{
		{Long: "help", Same: "help"},
		{Long: "history", Same: "history", LoamOnly: true},
		{Long: "sib", Same: "sibling"},
		{Long: "sibling", Same: "sibling"},
		{Long: "deadline", Same: "deadline"},
		{Long: "data", Same: "data", LoamOnly: true},
		{Long: "dependency", Same: "dependency"},
	}
	type result struct {
		Found     int
		Ambiguous []int
	}
	tests := map[string]struct {
		name string
		want result
	}{
		"exact name":                       {"sib", result{2, nil}},
		"prefix of one option's two names": {"si", result{2, nil}},
		"a Loam name does not make Slurm's prefix ambiguous": {"h", result{0, nil}},
		"a Loam name answers a prefix Slurm lacks":           {"hi", result{1, nil}},
		"possibilities are Slurm's only":                     {"d", result{-1, []int{4, 6}}},
		"Loam's own prefix":                                  {"da", result{5, nil}},
		"nothing":                                            {"zz", result{-1, nil}},
		"every name that differs from the first is listed":   {"", result{-1, []int{0, 2, 3, 4, 6}}},
	}
	for name, tc := range tests {
		found, ambiguous := MatchLong(names, tc.name)
		if diff := cmp.Diff(tc.want, result{found, ambiguous}); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", name, diff)
		}
	}
}
