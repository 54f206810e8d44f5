package command

import (
	"context"
	"strconv"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/slurmdata"
)

// nodeTopology maps node names to their records, for the socket and core
// layout of job_resources; empty when the controller does not answer.
func nodeTopology(ctx context.Context, c Controller) map[string]api.Node {
	topo := map[string]api.Node{}
	resp, err := c.Nodes(ctx, &api.NodeQuery{})
	if err != nil {
		return topo
	}
	for _, n := range resp.Nodes {
		topo[n.Name] = n
	}
	return topo
}

// resources is job_resources for a job holding (or having held) an
// allocation: the hosts and, per node, the cores by socket and the memory.
// allocated_cores is Slurm's ncpus, the CPUs the job asked for.
func (d *jobData) resources() (*slurmdata.Dict, bool) {
	j := d.j
	if len(j.Allocation) == 0 {
		return nil, false
	}
	nodes := make([]slurmdata.Value, 0, len(j.Allocation))
	for _, a := range j.Allocation {
		nodes = append(nodes, slurmdata.Map(slurmdata.NewDict().
			Set("sockets", slurmdata.Map(d.sockets(a))).
			Set("nodename", dStr(a.Node)).
			Set("cpus_used", dInt(0)).
			Set("memory_used", dInt(0)).
			Set("memory_allocated", dInt(a.Memory))))
	}
	return slurmdata.NewDict().
		Set("nodes", dStr(j.Nodes)).
		Set("allocated_cores", dNum(max(j.Tasks, 1)*max(j.CPUsPerTask, 1))).
		Set("allocated_hosts", dNum(len(j.Allocation))).
		Set("allocated_nodes", slurmdata.List(nodes...)), true
}

// sockets lists the allocated cores of a node by socket, numbered within
// the socket as Slurm does. The CPU ids are the node daemon's pinning
// when it reported one, else the first CPUs of the node.
func (d *jobData) sockets(a api.NodeAllocation) *slurmdata.Dict {
	n := d.topo[a.Node]
	threads := max(n.ThreadsPerCore, 1)
	perSocket := max(n.CoresPerSocket, 1)
	if n.CoresPerSocket == 0 && n.CPUs > 0 {
		perSocket = n.CPUs
	}
	cpus, err := resource.ParseCPUList(a.CPUIDs)
	if err != nil || cpus == nil {
		for c := range a.CPUs {
			cpus = append(cpus, c)
		}
	}
	out := slurmdata.NewDict()
	seen := map[int]bool{}
	for _, c := range cpus {
		core := c / threads
		if seen[core] {
			continue
		}
		seen[core] = true
		sock := strconv.Itoa(core / perSocket)
		sv, ok := out.Get(sock)
		if !ok {
			sv = slurmdata.Map(slurmdata.NewDict().Set("cores", slurmdata.Map(nil)))
			out.Set(sock, sv)
		}
		cores, _ := sv.Dict().Get("cores")
		cores.Dict().Set(strconv.Itoa(core%perSocket), dStr("allocated"))
	}
	return out
}
