package jobopt

import (
	"fmt"
	"strings"
)

// cSpace is what C's isspace accepts.
const cSpace = " \t\n\v\f\r"

// setNodes reads -N "min[-max]" as sbatch's verify_node_count does,
// including its k/m multipliers ("1k" is 1024 nodes) and its quirks: a
// missing or negative minimum in a range becomes 1.
func setNodes(b *builder, v value) error {
	min, max, err := nodeCount(v.str)
	if err != nil {
		return b.clientError("%s", err.Error())
	}
	b.req.MinNodes, b.req.MaxNodes, b.req.NodesSet = min, max, true
	return nil
}

// nodeCount returns the range or the message sbatch prints.
func nodeCount(s string) (min, max int, err error) {
	if lo, hi, isRange := strings.Cut(s, "-"); isRange {
		var ok bool
		if min, ok = nodeNumber(lo); !ok {
			return 0, 0, fmt.Errorf("%q is not a valid node count", lo)
		}
		if min < 0 {
			min = 1
		}
		if max, ok = nodeNumber(hi); !ok {
			return 0, 0, fmt.Errorf("%q is not a valid node count", hi)
		}
	} else {
		var ok bool
		min, ok = nodeNumber(s)
		if !ok || min < 0 {
			return 0, 0, fmt.Errorf("%q is not a valid node count", s)
		}
		max = min
	}
	if max != 0 && max < min {
		return 0, 0, fmt.Errorf("Maximum node count %d is less than minimum node count %d", max, min)
	}
	return min, max, nil
}

// nodeNumber is Slurm's _str_to_nodes: a number with an optional k and then
// m multiplier, -1 when there are no digits. ok is false when anything but
// white space follows.
func nodeNumber(s string) (int, bool) {
	v, n := cStrtol(s)
	if n == 0 {
		return -1, strings.Trim(s, cSpace) == ""
	}
	rest := s[n:]
	if rest != "" && (rest[0] == 'k' || rest[0] == 'K') {
		v *= 1024
		rest = rest[1:]
	}
	if rest != "" && (rest[0] == 'm' || rest[0] == 'M') {
		v *= 1024 * 1024
		rest = rest[1:]
	}
	return int(int32(v)), strings.Trim(rest, cSpace) == ""
}
