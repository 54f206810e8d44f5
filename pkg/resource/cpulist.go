package resource

import (
	"fmt"
	"strconv"

	"strings"
)

// ParseCPUList parses a kernel CPU list such as cpuset.cpus holds:
// "0-3,8,10-11". An empty list is nil.
func ParseCPUList(s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(strings.TrimSpace(s), ",") {
		if part == "" {
			continue
		}
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		b := a
		if err == nil && isRange {
			b, err = strconv.Atoi(hi)
		}
		if err != nil || a < 0 || b < a || b-a > 1<<16 {
			return nil, fmt.Errorf("invalid CPU list %q", s)
		}
		for i := a; i <= b; i++ {
			out = append(out, i)
		}
	}
	return out, nil
}
