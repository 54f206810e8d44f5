package command

import (
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// constraintsMatch is sacct -C: Slurm 22.05's accounting selects a job
// whose stored constraints contain every item (SQL "constraints like
// '%item%'", ANDed; an empty item asks for a job without any), and its
// database's default collation compares without case. The items come
// lowercased from addCharList.
func constraintsMatch(items []string, j *api.AcctJob) bool {
	s := strings.ToLower(j.Constraints)
	for _, item := range items {
		if item == "" && s != "" || item != "" && !likeMatch([]rune(s), []rune("%"+item+"%")) {
			return false
		}
	}
	return true
}

// likeMatch is SQL's LIKE: '%' matches any run of characters, '_' any
// one, and a backslash makes the character after it literal.
func likeMatch(s, pat []rune) bool {
	// The classic two-pointer match: on a mismatch go back to the last
	// '%' and let it take one more character.
	si, pi := 0, 0
	starP, starS := -1, 0
	for si < len(s) {
		if pi < len(pat) {
			switch c := pat[pi]; {
			case c == '%':
				starP, starS = pi, si
				pi++
				continue
			case c == '_':
				si, pi = si+1, pi+1
				continue
			case c == '\\' && pi+1 < len(pat):
				if pat[pi+1] == s[si] {
					si, pi = si+1, pi+2
					continue
				}
			case c == s[si]:
				si, pi = si+1, pi+1
				continue
			}
		}
		if starP < 0 {
			return false
		}
		starS++
		si, pi = starS, starP+1
	}
	for pi < len(pat) && pat[pi] == '%' {
		pi++
	}
	return pi == len(pat)
}
