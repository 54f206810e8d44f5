package controller

import (
	"context"
	"slices"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/slurmconf"
)

// handlePing is scontrol ping.
func (c *Controller) handlePing(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	return &api.PingResponse{Daemon: "loam-ctld", Host: c.host, Version: Version, Primary: true,
		Now: unix(c.now()), StartTime: unix(c.started)}, nil
}

// handleNodes is sinfo and scontrol show node.
func (c *Controller) handleNodes(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var q api.NodeQuery
	if err := decode(body, &q); err != nil {
		return nil, err
	}
	if aerr := c.refuseHidden(id, slurmconf.PrivateNodes); aerr != nil { // privatedata.go
		return nil, aerr
	}
	want, err := expandNames(q.Nodes)
	if err != nil {
		return nil, err
	}
	parts, states := set(q.Partitions), lowerSet(q.States)
	c.mu.RLock()
	defer c.mu.RUnlock()
	out := &api.NodesResponse{Now: unix(c.now()), Nodes: []api.Node{}}
	for name := range want {
		if n := c.nodes[name]; n == nil || n.admin.Future {
			out.Missing = append(out.Missing, name)
		}
	}
	slices.Sort(out.Missing)
	planned := c.plannedNodes()
	for _, n := range c.nodesByName() {
		if (want != nil && !want[n.name]) || n.admin.Future {
			continue // FUTURE nodes are listed by no command, as in Slurm
		}
		info := c.nodeInfo(n)
		markPlanned(&info, planned)
		if parts != nil && !slices.ContainsFunc(info.Partitions, func(p string) bool { return parts[p] }) {
			continue
		}
		if states != nil && !nodeStateMatches(info, states) {
			continue
		}
		out.Nodes = append(out.Nodes, info)
	}
	return out, nil
}

func expandNames(lists []string) (map[string]bool, *api.Error) {
	if len(lists) == 0 {
		return nil, nil
	}
	m := map[string]bool{}
	for _, l := range lists {
		names, err := hostlist.Expand(l)
		if err != nil {
			return nil, api.Errorf(api.CodeInvalidNodeName, "%v", err)
		}
		for _, n := range names {
			m[n] = true
		}
	}
	return m, nil
}

func lowerSet(list []string) map[string]bool {
	if len(list) == 0 {
		return nil
	}
	m := map[string]bool{}
	for _, s := range list {
		m[strings.ToLower(s)] = true
	}
	return m
}

// nodeStateMatches applies sinfo -t: a base state or a flag, in sinfo's
// long or short spelling.
func nodeStateMatches(n api.Node, want map[string]bool) bool {
	names := []string{strings.ToLower(n.State)}
	for _, f := range n.StateFlags {
		names = append(names, strings.ToLower(f))
	}
	drain := slices.Contains(n.StateFlags, api.FlagDrain)
	switch {
	case drain && len(n.Jobs) > 0:
		names = append(names, "draining", "drng")
	case drain:
		names = append(names, "drained")
	}
	alias := map[string]string{"alloc": "allocated", "mix": "mixed", "unk": "unknown", "resp": "not_responding", "no_respond": "not_responding", "plnd": "planned"}
	for _, s := range names {
		if want[s] {
			return true
		}
		for short, long := range alias {
			if s == long && want[short] {
				return true
			}
		}
	}
	return false
}

// handleNodeUpdate is scontrol update nodename=... state=... reason=....
func (c *Controller) handleNodeUpdate(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	// Slurm fires the --reconfig triggers after every node update
	// request, whatever its outcome (trigger_reconfig).
	defer c.noteReconfig() // trigger_fire.go
	var in api.NodeUpdateRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if err := c.requireAdmin(id); err != nil {
		return nil, err
	}
	state := strings.ToUpper(in.State)
	switch state {
	case "", "RESUME", "IDLE", "UNDRAIN", "NORESP", "FUTURE":
	case "DRAIN", "DOWN", "FAIL":
		if in.Reason == "" {
			return nil, api.Errorf(api.CodeInvalidNodeState, "state=%s needs a reason", state)
		}
	default:
		return nil, api.Errorf(api.CodeInvalidNodeState, "state %q: use DRAIN, FAIL, DOWN, FUTURE, RESUME, IDLE, UNDRAIN or NORESP", in.State)
	}
	var b batch
	c.mu.Lock()
	nodes, aerr := c.expandNodes(in.Nodes)
	if aerr != nil {
		c.mu.Unlock()
		return nil, aerr
	}
	if err := resumable(nodes, state); err != nil {
		c.mu.Unlock()
		return nil, err
	}
	if hasConfigEdit(&in) {
		if err := c.editNodes(nodes, &in); err != nil { // node_edit.go
			c.mu.Unlock()
			return nil, err
		}
	}
	out := &api.NodeUpdateResponse{}
	now := unix(c.now())
	for _, n := range nodes {
		c.updateNode(&b, n, state, in, id, now)
		out.Nodes = append(out.Nodes, n.name)
	}
	c.mu.Unlock()
	if err := c.finishBatch(&b); err != nil {
		return nil, err
	}
	c.schedule()
	return out, nil
}

// updateNode applies one node update.
func (c *Controller) updateNode(b *batch, n *nodeRec, state string, in api.NodeUpdateRequest, id auth.Identity, now int64) {
	before := nodeView(n)
	defer c.noteNodeChange(n, before) // trigger_fire.go
	a := &n.admin
	setReason := func() { a.Reason, a.ReasonUser, a.ReasonTime = in.Reason, id.User, now }
	switch state {
	case "DRAIN":
		a.Drain, a.Fail = true, false // the peer: DRAIN replaces FAIL
		setReason()
	case "FAIL":
		a.Fail, a.Drain = true, false
		setReason()
	case "DOWN":
		a.Down, a.DownByController = true, false
		setReason()
		for _, r := range c.nodeJobs(n) {
			c.nodeFailJob(b, r, n.name)
		}
	case "FUTURE":
		// As slurmctld: the node goes down (its jobs fail as on DOWN),
		// then FUTURE, which has no reason.
		*a = nodeAdmin{Future: true, Comment: a.Comment, Extra: a.Extra}
		for _, r := range c.nodeJobs(n) {
			c.nodeFailJob(b, r, n.name)
		}
	case "RESUME", "IDLE":
		// Not from FAIL, nor for State=IDLE, on the peer.
		reregister := state == "RESUME" && (a.Future || a.Down || a.Drain)
		*a = nodeAdmin{Comment: a.Comment, Extra: a.Extra}
		if n.notResponding && n.registered {
			n.notResponding = false
		}
		if reregister {
			c.requireRegistration(b, n) // node_ping.go
		}
		n.lastBusy = c.now() // as Slurm's resume: LastBusyTime restarts
	case "NORESP":
		n.noRespond = true // cleared by its next heartbeat (api_noded.go)
	case "UNDRAIN":
		c.requireRegistration(b, n) // node_ping.go
		a.Drain, a.Fail = false, false
		if !a.Down {
			a.Reason, a.ReasonUser, a.ReasonTime = "", "", 0
		}
	}
	if in.Comment != nil {
		a.Comment = *in.Comment
	}
	if in.Extra != nil {
		a.Extra = *in.Extra
	}
	if state == "" && in.Reason != "" && (a.Down || a.Drain || a.Fail) {
		setReason() // Slurm ignores a reason for a node neither down nor drained
	}
	b.persist(c.persistNode(n))
	c.updateEngine(n)
	c.log.WithField("node", n.name).WithField("state", state).WithField("reason", in.Reason).WithField("user", id.User).Info("node updated")
}

// handlePartitions lists the partitions.
func (c *Controller) handlePartitions(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	if aerr := c.refuseHidden(id, slurmconf.PrivatePartitions); aerr != nil { // privatedata.go
		return nil, aerr
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	cs := c.confNow()
	out := &api.PartitionsResponse{Now: unix(c.now()), Partitions: []api.Partition{}}
	counts := c.partitionCounts()
	for i := range cs.conf.Partitions {
		p := &cs.conf.Partitions[i]
		ap := partitionInfo(cs.conf, p)
		ap.PendingJobs, ap.RunningJobs = counts[p.Name][0], counts[p.Name][1]
		ap.HiddenFromCaller = c.partitionHiddenFrom(p, id)
		out.Partitions = append(out.Partitions, ap)
	}
	return out, nil
}

// partitionCounts counts pending and running jobs per partition.
func (c *Controller) partitionCounts() map[string][2]int {
	out := map[string][2]int{}
	for _, r := range c.jobs {
		k := 0
		switch {
		case r.running():
			k = 1
		case !r.pending():
			continue
		}
		v := out[r.St.Partition]
		v[k] += weight(r)
		out[r.St.Partition] = v
	}
	return out
}

func partitionInfo(conf *slurmconf.Config, p *slurmconf.Partition) api.Partition {
	ap := api.Partition{
		Name: p.Name, Nodes: hostlist.Compress(p.Nodes), NodeNames: p.Nodes, TotalNodes: len(p.Nodes),
		State: p.State, Default: p.Default, MaxTime: durationSeconds(p.MaxTime), DefaultTime: durationSeconds(p.DefaultTime),
		MaxNodes: p.MaxNodes, MinNodes: p.MinNodes, PriorityTier: p.PriorityTier, PriorityJobFactor: p.PriorityJobFactor,
		PreemptMode: string(p.PreemptMode), GraceTime: int64(p.GraceTime.Seconds()), AllowAccounts: p.AllowAccounts,
		DenyAccounts: p.DenyAccounts, AllowQOS: p.AllowQOS, DenyQOS: p.DenyQOS, AllowGroups: p.AllowGroups, Hidden: p.Hidden,
		OverSubscribe: p.OverSubscribe, DefMemPerCPU: p.DefMemPerCPU, DefMemPerGPU: p.DefMemPerGPU, MaxMemPerNode: p.MaxMemPerNode,
		DefMemPerNode: p.DefMemPerNode, MaxMemPerCPU: p.MaxMemPerCPU, // memlimits.go
		InheritedMemory: p.InheritedMemory,
		QueueClass:      string(p.QueueClass), AgingRate: p.AgingRate, AgingCap: p.AgingCap,
		ReservationTimeout: int64(p.ReservationTimeout.Seconds()), ReservationCooldown: int64(p.ReservationCooldown.Seconds()),
		ReservationDepth: p.ReservationDepth, ReservationMode: string(p.ReservationMode),
		CheckpointSignal: p.CheckpointSignal, RequiredMounts: p.RequiredMounts,
	}
	if p.DefaultTime <= 0 {
		ap.DefaultTime = 0
	}
	ap.OverTimeLimit, ap.DisableRootJobs = overTimeMinutes(p.OverTimeLimit), p.DisableRootJobs // limits.go
	ap.DefCPUPerGPU, ap.MaxCPUsPerNode = p.DefCPUPerGPU, p.CPUsPerNodeLimit()                  // partkeys.go
	ap.ExclusiveUser, ap.RootOnly = p.ExclusiveUser, p.RootOnly
	ap.ReqResv, ap.AllocNodes = p.ReqResv, p.AllocNodesSpec // partreq.go
	ap.CPUBind = p.CPUBind
	ap.Alternate, ap.LLN = p.Alternate, p.LLN // partition_alternate.go
	for _, name := range p.Nodes {
		if nc, ok := conf.Node(name); ok {
			ap.TotalCPUs += nc.CPUs
			ap.EffectiveCPUs += nc.EffectiveCPUs() // TRES=cpu= (corespec)
			ap.TotalGPUs += nodeGPUCount(nc)
		}
	}
	ap.GRESTRES = newGPUTRESRule(conf).partTRES(conf, p.Nodes) // tres_gres.go
	partBilling(conf, p, &ap)                                  // billing.go
	return ap
}

// handleConfig is scontrol show config.
func (c *Controller) handleConfig(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	cs := c.confNow()
	out := &api.ConfigResponse{Now: unix(c.now()), ClusterName: cs.conf.ClusterName,
		LoadedAt: unix(cs.loadedAt), BootTime: unix(c.started), Files: cs.conf.Files}
	for _, kv := range cs.conf.ShowConfig(c.showContext()) { // showconfig.go
		out.Entries = append(out.Entries, api.KeyValue{Key: kv.Key, Value: kv.Value})
	}
	return out, nil
}
