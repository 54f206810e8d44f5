package command

import (
	"context"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmdata"
)

// sinfo --json and --yaml print Slurm 22.05's openapi v0.0.38 node records
// (slurmrestd's /slurm/v0.0.38/nodes): every node, whatever the filters,
// with the partitions it belongs to. No partition records are printed.

// sinfoData prints every node record as sinfo --json or --yaml does.
func sinfoData(ctx context.Context, env *Env, w *output, yaml bool) int {
	c, err := env.Dial(ctx)
	if err != nil {
		w.errf("%s", errText(err))
		return 1
	}
	resp, err := c.Nodes(ctx, &api.NodeQuery{})
	if err != nil {
		w.errf("%s", errText(err))
		return 1
	}
	records := make([]slurmdata.Value, 0, len(resp.Nodes))
	for i := range resp.Nodes {
		records = append(records, slurmdata.Map(nodeRecord(&resp.Nodes[i])))
	}
	writeData(w, dataEnvelope("nodes", records), yaml)
	return 0
}

// nodeRecord lists a node's fields in the order Slurm 22.05 emits them;
// what Loam does not track gets what Slurm prints for a node without it.
func nodeRecord(n *api.Node) *slurmdata.Dict {
	r := slurmdata.NewDict()
	r.Set("architecture", dStr("x86_64"))
	r.Set("burstbuffer_network_address", dStr(""))
	r.Set("boards", dNum(max(n.Boards, 1)))
	r.Set("boot_time", dInt(n.BootTime))
	r.Set("comment", dStr(n.Comment))
	r.Set("cores", dNum(n.CoresPerSocket))
	r.Set("cpu_binding", dInt(0))
	r.Set("cpu_load", dInt(int64(n.CPULoad*100+0.5)))
	r.Set("extra", dStr(n.Extra))
	r.Set("free_memory", dInt(n.FreeMemory))
	r.Set("cpus", dNum(n.CPUs))
	r.Set("last_busy", dInt(n.LastBusy))
	r.Set("features", dStr(strings.Join(n.Features, ",")))
	r.Set("active_features", dStr(strings.Join(n.ActiveFeatures, ",")))
	r.Set("gres", dStr(n.GRES))
	r.Set("gres_drained", dStr("N/A"))
	r.Set("gres_used", dStr(gresUsedCount(n)))
	r.Set("mcs_label", dStr(""))
	r.Set("name", dStr(n.Name))
	r.Set("next_state_after_reboot", dStr("invalid"))
	r.Set("address", dStr(n.Address))
	r.Set("hostname", dStr(n.Hostname))
	r.Set("state", dStr(strings.ToLower(n.State)))
	r.Set("state_flags", slurmdata.Strs(n.StateFlags))
	r.Set("next_state_after_reboot_flags", slurmdata.List())
	r.Set("operating_system", dStr(n.OperatingSystem))
	r.Set("owner", dNull())
	r.Set("partitions", slurmdata.Strs(n.Partitions))
	r.Set("port", dNum(n.Port))
	r.Set("real_memory", dInt(n.RealMemory))
	r.Set("reason", dStr(n.Reason))
	r.Set("reason_changed_at", dInt(n.ReasonTime))
	r.Set("reason_set_by_user", strOrNull(n.ReasonUser))
	r.Set("slurmd_start_time", dInt(n.SlurmdStart))
	r.Set("sockets", dNum(n.Sockets))
	r.Set("threads", dNum(n.ThreadsPerCore))
	r.Set("temporary_disk", dInt(n.TmpDisk))
	r.Set("weight", dInt(n.Weight))
	r.Set("tres", dStr(nodeTRES(n)))
	r.Set("slurmd_version", dStr(n.Version))
	r.Set("alloc_memory", dInt(n.AllocMemory))
	r.Set("alloc_cpus", dNum(n.AllocCPUs))
	r.Set("idle_cpus", dNum(n.CPUs-n.AllocCPUs))
	if used := allocTRES(n); used != "" {
		r.Set("tres_used", dStr(used))
	} else {
		r.Set("tres_used", dNull())
	}
	// The billing weight of what jobs hold: one per allocated CPU.
	r.Set("tres_weighted", slurmdata.Float(float64(n.AllocCPUs)))
	return r
}

// gresUsedCount is what jobs hold of the node's GPUs without the indices
// ("gpu:2"), as the node record carries it.
func gresUsedCount(n *api.Node) string {
	s := gresUsed(n)
	if i := strings.Index(s, "(IDX:"); i >= 0 {
		s = s[:i]
	}
	return s
}

// strOrNull is s, or null when empty (a user Slurm cannot name).
func strOrNull(s string) slurmdata.Value {
	if s == "" {
		return dNull()
	}
	return dStr(s)
}
