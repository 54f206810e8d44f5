package jobopt

import "strings"

// Slurm's NO_VAL, the bound of --priority, and TOP's value (NO_VAL - 1).
const (
	priorityNoVal = 0xfffffffe
	priorityTop   = priorityNoVal - 1
)

// setPriority is --priority (arg_set_priority): a number read as strtoll
// reads it ("abc" is 0), or TOP. 0 asks for nothing (sbatch sends no
// priority then); the controller takes the value from operators only.
func setPriority(b *builder, v value) error {
	if v.reset {
		b.req.Priority = nil
		return nil
	}
	n := int64(priorityTop)
	if !strings.EqualFold(v.str, "TOP") {
		n, _ = cStrtol(v.str)
		if n < 0 {
			return b.clientError("Priority must be >= 0")
		}
		if n >= priorityNoVal {
			return b.clientError("Priority must be < %d", priorityNoVal)
		}
	}
	if n == 0 {
		b.req.Priority = nil
		return nil
	}
	b.req.Priority = &n
	return nil
}
