package slurmconf

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/resource"
)

// Resource specialization, as Slurm 22.05 reads a NodeName line:
// CoreSpecCount=N or CPUSpecList=ids sets cores aside for the system and
// MemSpecLimit=MB memory. Jobs get only the other CPUs (CPUEfctv) and
// RealMemory-MemSpecLimit. CoreSpecCount picks whole cores from the top:
// the last core of the last socket, then the last core of the socket
// before, round-robin, then the cores before those (the peer's 2x32 node:
// CoreSpecCount=2 gives CPUSpecList=31,63, 3 gives 31,62-63; with two
// threads per core, 1 gives 126-127). CPUSpecList reserves the cores that
// hold the listed CPUs and CoreSpecCount becomes their number.

// decodeCoreSpec reads CoreSpecCount, CPUSpecList and MemSpecLimit into n,
// whose hardware and RealMemory are already decoded.
func (x *dec) decodeCoreSpec(n *Node) {
	var count int64
	x.count("CoreSpecCount", &count, math.MaxUint16)
	cores := n.Sockets * n.CoresPerSocket
	threads := max(n.ThreadsPerCore, 1)
	if f, ok := x.get("CPUSpecList"); ok && strings.TrimSpace(f.Value) != "" {
		if count > 0 {
			x.d.warnf(f.Pos, x.rec, f.Key, "CoreSpecCount and CPUSpecList are both set: CPUSpecList is used")
		}
		ids, err := resource.ParseCPUList(f.Value)
		switch {
		case err != nil:
			x.bad(f, "%q is not a CPU list (e.g. 0,1 or 0-3)", f.Value)
		case len(ids) > 0 && slices.Max(ids) >= n.CPUs:
			x.bad(f, "CPU %d is not on the node (it has %d CPUs)", slices.Max(ids), n.CPUs)
		default:
			n.SpecCPUs, n.CoreSpecCount = wholeCores(ids, n.CPUs, threads)
			n.CPUSpecList = strings.TrimSpace(f.Value)
		}
	} else if count > 0 {
		if int(count) >= cores {
			f, _ := x.get("CoreSpecCount")
			x.bad(f, "%d cores leave none of the node's %d for jobs", count, cores)
		} else {
			n.SpecCPUs, n.CoreSpecCount = specCores(int(count), n.Sockets, n.CoresPerSocket, threads), int(count)
		}
	}
	n.SpecCPUs = slices.DeleteFunc(n.SpecCPUs, func(id int) bool { return id >= n.CPUs })
	if n.CoreSpecCount > 0 && len(n.SpecCPUs) >= n.CPUs {
		x.hwWarn("CoreSpecCount", "the specialized cores leave none of the node's %d CPUs for jobs: ignored", n.CPUs)
		n.SpecCPUs, n.CoreSpecCount, n.CPUSpecList = nil, 0, ""
	}
	x.memory("MemSpecLimit", &n.MemSpecLimit)
	if n.MemSpecLimit > 0 && n.MemSpecLimit >= n.RealMemory {
		f, _ := x.get("MemSpecLimit")
		x.bad(f, "%d MB leaves none of RealMemory=%d for jobs", n.MemSpecLimit, n.RealMemory)
		n.MemSpecLimit = 0
	}
}

// specCores returns the CPU ids of count cores picked as CoreSpecCount
// picks them: round-robin over the sockets from the last, each time the
// highest core left, every thread of each core.
func specCores(count, sockets, coresPer, threads int) []int {
	sockets = max(sockets, 1)
	var out []int
	for i := 0; i < count; i++ {
		s := sockets - 1 - i%sockets
		c := coresPer - 1 - i/sockets
		core := s*coresPer + c
		for t := 0; t < threads; t++ {
			out = append(out, core*threads+t)
		}
	}
	slices.Sort(out)
	return out
}

// wholeCores widens ids to every thread of the cores that hold them and
// returns those CPUs with the number of cores.
func wholeCores(ids []int, cpus, threads int) ([]int, int) {
	var out []int
	seen := map[int]bool{}
	for _, id := range ids {
		core := id / threads
		if seen[core] {
			continue
		}
		seen[core] = true
		for t := 0; t < threads && core*threads+t < cpus; t++ {
			out = append(out, core*threads+t)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), len(seen)
}

// EffectiveCPUs is the node's CPUs less its specialized ones: what jobs
// may use (scontrol's CPUEfctv).
func (n *Node) EffectiveCPUs() int {
	return n.CPUs - len(n.SpecCPUs)
}

// UsableMemory is RealMemory less MemSpecLimit: the most memory jobs on
// the node may have together.
func (n *Node) UsableMemory() int64 {
	return n.RealMemory - n.MemSpecLimit
}

// SpecCPUList is scontrol's CPUSpecList: CPUSpecList as written (the
// peer prints CPUSpecList=0,1 as "0,1"), else the CPUs CoreSpecCount
// picked ("31,62-63").
func (n *Node) SpecCPUList() string {
	if n.CPUSpecList != "" {
		return n.CPUSpecList
	}
	return FormatCPUList(n.SpecCPUs)
}

// IsSpecCPU reports whether CPU id is set aside for the system.
func (n *Node) IsSpecCPU(id int) bool {
	_, found := slices.BinarySearch(n.SpecCPUs, id)
	return found
}

// FormatCPUList writes ids (sorted) as Slurm prints a CPU list:
// "31,62-63".
func FormatCPUList(ids []int) string {
	var b strings.Builder
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(ids[i]))
		if j > i {
			fmt.Fprintf(&b, "-%d", ids[j])
		}
		i = j + 1
	}
	return b.String()
}
