package command

import (
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
)

// effectiveCPUs is scontrol's CPUEfctv: the CPUs jobs may use, CPUTot
// less CoreSpecCount's or CPUSpecList's.
func effectiveCPUs(n *api.Node) int {
	if n.EffectiveCPUs > 0 {
		return n.EffectiveCPUs
	}
	return n.CPUs
}

// nodeSpec is scontrol show node's resource specialization line
// ("CoreSpecCount=2 CPUSpecList=31,63 MemSpecLimit=8192"), each key only
// when set and "" when none is, as the peer prints it.
func nodeSpec(n *api.Node) string {
	var parts []string
	if n.CoreSpecCount > 0 {
		parts = append(parts, "CoreSpecCount="+strconv.Itoa(n.CoreSpecCount))
	}
	if n.CPUSpecList != "" {
		parts = append(parts, "CPUSpecList="+n.CPUSpecList)
	}
	if n.MemSpecLimit > 0 {
		parts = append(parts, "MemSpecLimit="+strconv.FormatInt(n.MemSpecLimit, 10))
	}
	return strings.Join(parts, " ")
}

// partEffectiveCPUs is the CPU count of a partition's TRES: its nodes'
// CPUEfctv (the peer: TotalCPUs=128 but TRES=cpu=124 over two nodes with
// two specialized cores each).
func partEffectiveCPUs(p *api.Partition) int {
	if p.EffectiveCPUs > 0 {
		return p.EffectiveCPUs
	}
	return p.TotalCPUs
}
