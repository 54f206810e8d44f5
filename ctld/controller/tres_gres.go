package controller

import (
	"strings"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// gpuTRESRule is which GPU TRES a cluster's AccountingStorageTRES tracks:
// Slurm counts a GRES in a job's or step's TRES strings only when tracked
// (checked on the peer, which names none: a --gres=gpu:2 job shows
// TRES=cpu=1,mem=1G,node=1,billing=1). These strings are for display and
// accounting records only; what Loam computes from GPU counts (quotas,
// shares, sreport, metrics) reads the counts themselves.
type gpuTRESRule struct {
	total bool     // gres/gpu: every GPU, of any type
	types []string // gres/gpu:TYPE, in Slurm's order
}

func newGPUTRESRule(conf *slurmconf.Config) gpuTRESRule {
	return gpuTRESRule{total: conf.TracksTRES(resource.TRESGPU), types: conf.TrackedGRESTypes("gpu")}
}

// add sets the GPU TRES of n GPUs of type typ ("" for any) in t, as
// slurmctld does: gres/gpu counts all of them when tracked; gres/gpu:TYPE
// counts them when the request named that type; a request that named no
// type, on a cluster tracking only typed GPUs, is counted under the first
// tracked type, which Slurm prefers to no record at all.
func (g gpuTRESRule) add(t *resource.TRES, typ string, n int) {
	if n <= 0 {
		return
	}
	if g.total {
		t.Set(resource.TRESGPU, int64(n))
	}
	switch {
	case typ != "":
		for _, tt := range g.types {
			if strings.EqualFold(tt, typ) {
				t.Set(resource.TRESGPU+":"+tt, int64(n))
			}
		}
	case !g.total && len(g.types) > 0:
		t.Set(resource.TRESGPU+":"+g.types[0], int64(n))
	}
}

// requestGPUType is the GPU type a job asked for (-G h100:2,
// --gres=gpu:h100:1...), "" when it named none.
func requestGPUType(q *job.Request) string {
	for _, list := range [][]resource.GRES{q.GPUs, q.GPUsPerNode, q.GPUsPerTask, q.GRES} {
		for _, g := range list {
			if g.Name == "gpu" && g.Type != "" {
				return g.Type
			}
		}
	}
	return ""
}

// nodeTRES is what a node's CfgTRES and AllocTRES add for its GPUs when
// tracked ("gres/gpu=8,gres/gpu:h100=8"): gres/gpu counts all of them,
// gres/gpu:TYPE those of that type; a count of 0 is not printed. held
// are the indices of the GPUs jobs hold, numbered across the node's GPU
// entries in order.
func (g gpuTRESRule) nodeTRES(list []slurmconf.GRES, held map[int]*jobRecord) (cfg, alloc string) {
	c, a := g.nodeCounts(list, held)
	return c.String(), a.String()
}

// partTRES is what a partition's TRES adds for its nodes' GPUs when
// tracked: the sum of their CfgTRES GPU counts.
func (g gpuTRESRule) partTRES(conf *slurmconf.Config, nodes []string) string {
	var sum resource.TRES
	for _, name := range nodes {
		if nc, ok := conf.Node(name); ok {
			c, _ := g.nodeCounts(nc.GRES, nil)
			for _, t := range c {
				addCount(&sum, t.Name, t.Count)
			}
		}
	}
	return sum.String()
}

func (g gpuTRESRule) nodeCounts(list []slurmconf.GRES, held map[int]*jobRecord) (c, a resource.TRES) {
	first := 0
	for _, e := range list {
		if e.Name != "gpu" {
			continue
		}
		used := 0
		for i := first; i < first+int(e.Count); i++ {
			if held[i] != nil {
				used++
			}
		}
		first += int(e.Count)
		if g.total {
			addCount(&c, resource.TRESGPU, e.Count)
			addCount(&a, resource.TRESGPU, int64(used))
		}
		for _, tt := range g.types {
			if e.Type != "" && strings.EqualFold(tt, e.Type) {
				addCount(&c, resource.TRESGPU+":"+tt, e.Count)
				addCount(&a, resource.TRESGPU+":"+tt, int64(used))
			}
		}
	}
	return c, a
}

// addCount adds n to name's count, leaving a count of 0 out.
func addCount(t *resource.TRES, name string, n int64) {
	if n > 0 {
		t.Set(name, t.Get(name)+n)
	}
}
