package command

import (
	"strconv"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/resource"
)

// countUnits prints a count as Slurm's sinfo does for CPUs and job
// sizes (convert_num_unit, CONVERT_NUM_UNIT_EXACT: "1K", "1.50K"); with
// --noconvert, the number as it is.
func countUnits(n int64, noconvert bool) string {
	if noconvert {
		return strconv.FormatInt(n, 10)
	}
	return resource.FormatCount(n)
}

// cpusCol is %c: the CPUs of the line's nodes, "32" or "32+".
func cpusCol(r *sinfoRec, p *sinfoPrinter) string {
	if len(r.nodes) == 0 {
		return "0"
	}
	lo, hi := minMax(r, func(n *api.Node) int64 { return int64(n.CPUs) })
	if lo == hi {
		return countUnits(hi, p.noconvert)
	}
	return countUnits(lo, p.noconvert) + "+"
}

// jobSizeCol is %s: the partition's node count range ("1-infinite").
func jobSizeCol(r *sinfoRec, p *sinfoPrinter) string {
	if r.part == nil {
		return "n/a"
	}
	lo := max(r.part.MinNodes, 1)
	switch hi := r.part.MaxNodes; {
	case hi <= 0 || hi >= 1<<31:
		return countUnits(lo, p.noconvert) + "-infinite"
	case lo == hi:
		return countUnits(lo, p.noconvert)
	default:
		return countUnits(lo, p.noconvert) + "-" + countUnits(hi, p.noconvert)
	}
}
