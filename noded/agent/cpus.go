package agent

import (
	"fmt"
	"slices"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// cpuSet hands out the node's logical CPUs (0..n-1, as slurm.conf counts
// them) to jobs and maps them onto the host's CPUs: logical CPU i runs on
// host CPU host[i mod len(host)]. On a real node the two are the same; an
// emulated 64-CPU node on a 2-CPU host spreads its jobs over both.
type cpuSet struct {
	used []bool
	host []int
	// spec are the ids reserve set aside, for reshape to give back.
	spec []int
}

func newCPUSet(n int, host []int) *cpuSet {
	if len(host) == 0 {
		host = []int{0}
	}
	return &cpuSet{used: make([]bool, max(n, 1)), host: host}
}

// take marks ids (the controller's pinning, "0-3,8") or else the lowest
// count free CPUs as used and returns them. When fewer are free than
// asked, it returns busy ones too: the controller's accounting, not this
// set, decides what fits.
func (c *cpuSet) take(count int, ids string) ([]int, error) {
	if ids != "" {
		got, err := resource.ParseCPUList(ids)
		if err != nil {
			return nil, err
		}
		for _, id := range got {
			if id >= len(c.used) {
				return nil, fmt.Errorf("CPU %d is not on this node (it has %d)", id, len(c.used))
			}
			c.used[id] = true
		}
		return got, nil
	}
	count = max(count, 1)
	var got []int
	for pass := 0; pass < 2 && len(got) < count; pass++ {
		for id := range c.used {
			if len(got) == count {
				break
			}
			if (pass == 0 && !c.used[id]) || (pass == 1 && !slices.Contains(got, id)) {
				got = append(got, id)
			}
		}
	}
	for _, id := range got {
		c.used[id] = true
	}
	slices.Sort(got)
	return got, nil
}

// reserve sets ids aside for the system (slurm.conf's CoreSpecCount or
// CPUSpecList): the lowest-free choice never hands them to a job.
func (c *cpuSet) reserve(ids []int) {
	c.spec = append(c.spec, ids...)
	for _, id := range ids {
		if id >= 0 && id < len(c.used) {
			c.used[id] = true
		}
	}
}

// reshape follows a reconfigured node line: n CPUs, spec set aside. The
// CPUs jobs hold stay held (a job on a CPU the node no longer has keeps
// it until it ends); the old reservation is given back first.
func (c *cpuSet) reshape(n int, spec []int) {
	c.release(c.spec)
	c.spec = nil
	if n = max(n, 1); n > len(c.used) {
		c.used = append(c.used, make([]bool, n-len(c.used))...)
	} else {
		c.used = c.used[:n]
	}
	c.reserve(spec)
}

// release frees ids.
func (c *cpuSet) release(ids []int) {
	for _, id := range ids {
		if id >= 0 && id < len(c.used) {
			c.used[id] = false
		}
	}
}

// hostList returns the host CPUs of logical ids as a cpuset list.
func (c *cpuSet) hostList(ids []int) string {
	var hs []int
	for _, id := range ids {
		hs = append(hs, c.host[id%len(c.host)])
	}
	slices.Sort(hs)
	return job.FormatRanges(slices.Compact(hs))
}
