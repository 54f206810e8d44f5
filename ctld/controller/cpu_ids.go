package controller

import (
	"slices"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// pinCPUs chooses the CPU ids of r's share on each node, so that
// `scontrol show job -d` prints CPU_IDs as Slurm does and the node daemon
// pins the job to them: the ids other jobs on the node hold are skipped.
// It runs before r is attached to its nodes.
func (c *Controller) pinCPUs(r *jobRecord) {
	conf := c.confNow().conf
	gpusLeft := jobGPUs(r.Req) // cpu_ids_gpu.go
	for i := range r.St.Alloc {
		a := &r.St.Alloc[i]
		nc, ok := conf.Node(a.Node)
		n := c.nodes[a.Node]
		if a.CPUIDs != "" || !ok || n == nil || nc.CPUs <= 0 {
			continue
		}
		used := make([]bool, nc.CPUs)
		for _, x := range nc.SpecCPUs { // CoreSpecCount/CPUSpecList: never a job's
			used[x] = true
		}
		freeGPUs := nodeGPUCount(nc)
		for id := range n.jobs {
			o := c.jobs[id]
			if o == nil || o == r {
				continue
			}
			for _, oa := range o.St.Alloc {
				if oa.Node != a.Node {
					continue
				}
				freeGPUs -= len(oa.GPUs)
				ids, _ := resource.ParseCPUList(oa.CPUIDs)
				for _, x := range ids {
					if x >= 0 && x < len(used) {
						used[x] = true
					}
				}
			}
		}
		a.CPUIDs = job.FormatRanges(nodeCPUIDs(r.Req, used, nc.Sockets, a.CPUs, freeGPUs, gpusLeft))
		gpusLeft -= len(a.GPUs)
	}
}

// pickCPUs picks count of the node's CPUs (used marks the taken ones) as
// Slurm's cons_tres does by default (_cyclic_sync_core_bitmap): with more
// than one CPU per task, whole tasks first from the first socket that has
// room; the rest one CPU per socket in turn, lowest free id first (the
// peer: -n3 gets 0-1,16 on a 2x16 node, -n2 -c3 gets 0-5). An
// overcommitted node gives the lowest ids again.
func pickCPUs(used []bool, sockets, count, cpt int) []int {
	sockets = max(sockets, 1)
	if len(used)%sockets != 0 {
		sockets = 1
	}
	per := len(used) / sockets
	next := make([]int, sockets) // next id to look at, per socket
	for s := range next {
		next[s] = s * per
	}
	var out []int
	take := func(s int) bool {
		for ; next[s] < (s+1)*per; next[s]++ {
			if !used[next[s]] {
				out = append(out, next[s])
				next[s]++
				return true
			}
		}
		return false
	}
	if cpt > 1 {
		for s := 0; s < sockets && len(out) < count; s++ {
			room := 0
			for id := s * per; id < (s+1)*per; id++ {
				if !used[id] {
					room++
				}
			}
			for room -= room % cpt; room > 0 && len(out) < count && take(s); room-- {
			}
		}
	}
	for took := true; took && len(out) < count; {
		took = false
		for s := 0; s < sockets && len(out) < count; s++ {
			took = take(s) || took
		}
	}
	for id := 0; id < len(used) && len(out) < count; id++ {
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}
