package controller

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/slurmconf"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// scontrol update, create and delete partition. A change builds a new
// configuration from the running one with the partition edited, and
// swaps it in as a reconfigure does, so the scheduler sees the live
// partition (State=DOWN: PartitionDown, INACTIVE: PartitionInactive) with
// no second mechanism. Nothing is stored: as Slurm 22.05 started without
// -R and without ReconfigFlags=KeepPartInfo, a restart or a reconfigure
// takes the partitions from slurm.conf again.

// handlePartitionUpdate is scontrol update PartitionName=... and scontrol
// create partition.
func (c *Controller) handlePartitionUpdate(_ context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.PartitionUpdate
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if err := c.requireAdmin(id); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	conf := cloneConfig(c.confNow().conf)
	i := slices.IndexFunc(conf.Partitions, func(p slurmconf.Partition) bool { return p.Name == in.Name })
	switch {
	case in.Name == "" || (in.Create && i >= 0) || (!in.Create && i < 0):
		return nil, api.Errorf(api.CodeInvalidPartitionName, "partition %q", in.Name)
	case in.Create:
		conf.Partitions = append(conf.Partitions, newPartition(conf, in.Name))
		i = len(conf.Partitions) - 1
	}
	if err := editPartition(conf, i, &in); err != nil {
		return nil, err
	}
	if err := c.swapConfig(conf); err != nil {
		return nil, err
	}
	c.log.WithField("partition", in.Name).WithField("create", in.Create).WithField("user", id.User).Info("partition updated")
	return &api.PartitionsResponse{Now: unix(c.now()), Partitions: []api.Partition{partitionInfo(conf, &conf.Partitions[i])}}, nil
}

// handlePartitionDelete is scontrol delete partition=NAME: refused while
// any pending, running or suspended job names the partition, as Slurm's
// "Partition is in use".
func (c *Controller) handlePartitionDelete(_ context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.PartitionDelete
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if err := c.requireAdmin(id); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	conf := cloneConfig(c.confNow().conf)
	i := slices.IndexFunc(conf.Partitions, func(p slurmconf.Partition) bool { return p.Name == in.Name })
	if i < 0 {
		return nil, api.Errorf(api.CodeInvalidPartitionName, "partition %q", in.Name)
	}
	for _, r := range c.jobs {
		if !r.finished() && (r.St.Partition == in.Name || slices.Contains(r.St.Partitions, in.Name)) {
			return nil, api.Errorf(api.CodePartitionInUse, "job %d uses partition %s", r.ID, in.Name)
		}
	}
	conf.Partitions = slices.Delete(conf.Partitions, i, i+1)
	if err := c.swapConfig(conf); err != nil {
		return nil, err
	}
	c.log.WithField("partition", in.Name).WithField("user", id.User).Info("partition deleted")
	return struct{}{}, nil
}

// swapConfig puts conf in place of the running configuration, as
// Reconfigure does with a file read. c.mu must be held.
func (c *Controller) swapConfig(conf *slurmconf.Config) *api.Error {
	cs, err := newConfState(conf, c.confNow().loadedAt)
	if err != nil {
		return api.Errorf(api.CodeInvalidConfig, "%v", err)
	}
	if err := c.eng.Reconfigure(conf); err != nil {
		return api.Errorf(api.CodeInvalidConfig, "the running jobs do not fit the change: %v", err)
	}
	c.conf.Store(cs)
	c.initNodes()
	for _, n := range c.nodes {
		c.updateEngine(n)
	}
	c.schedule()
	return nil
}

// cloneConfig copies the configuration deep enough to edit its partition
// list: the partitions' own slices are replaced, never changed in place.
func cloneConfig(conf *slurmconf.Config) *slurmconf.Config {
	out := *conf
	out.Partitions = slices.Clone(conf.Partitions)
	return &out
}

// newPartition is a partition made by scontrol create: Slurm's defaults,
// with MinNodes=1 and no DefaultTime as the peer shows them.
func newPartition(conf *slurmconf.Config, name string) slurmconf.Partition {
	return slurmconf.Partition{
		Name: name, State: "UP", MaxTime: slurmtime.Unlimited, MaxNodes: slurmconf.Unlimited, MinNodes: 1,
		PriorityTier: 1, PriorityJobFactor: 1, PreemptMode: conf.PreemptMode, OverSubscribe: "NO",
		DefMemPerCPU: conf.DefMemPerCPU, DefMemPerGPU: conf.DefMemPerGPU, MaxMemPerNode: conf.MaxMemPerNode,
		DefMemPerNode: conf.DefMemPerNode, MaxMemPerCPU: conf.MaxMemPerCPU,
		InheritedMemory: []string{"DefMemPerCPU", "DefMemPerGPU", "MaxMemPerNode", "DefMemPerNode", "MaxMemPerCPU"},
		OverTimeLimit:   slurmconf.OverTimeInherit, DisableRootJobs: conf.DisableRootJobs,
		Queue: slurmconf.QueueDefaults(slurmconf.ClassNormal),
	}
}

// editPartition applies u to conf.Partitions[i]; nothing is changed when
// a value is refused.
func editPartition(conf *slurmconf.Config, i int, u *api.PartitionUpdate) *api.Error {
	p := conf.Partitions[i]
	if u.State != nil {
		st := strings.ToUpper(*u.State)
		if !slices.Contains([]string{"UP", "DOWN", "DRAIN", "INACTIVE"}, st) {
			return api.Errorf(api.CodeBadRequest, "State=%s: want UP, DOWN, DRAIN or INACTIVE", *u.State)
		}
		p.State = st
	}
	if u.Nodes != nil {
		nodes, err := partitionNodes(conf, *u.Nodes)
		if err != nil {
			return err
		}
		p.Nodes, p.NodesSpec = nodes, *u.Nodes
	}
	if u.OverSubscribe != nil {
		mode, _, _ := strings.Cut(strings.ToUpper(*u.OverSubscribe), ":")
		switch mode {
		case "NO", "EXCLUSIVE":
		case "YES", "FORCE":
			mode = "NO" // Loam never shares a CPU or GPU, as slurm.conf reads it
		default:
			return api.Errorf(api.CodeBadRequest, "OverSubscribe=%s: want NO, EXCLUSIVE, YES or FORCE", *u.OverSubscribe)
		}
		p.OverSubscribe = mode
	}
	setTimes(&p, u)
	setInts(&p, u)
	if err := setPartLimits(&p, &u.PartitionLimits); err != nil { // partition_limits.go
		return err
	}
	if err := setPartPolicy(conf, &p, &u.PartitionLimits); err != nil { // partition_limits.go
		return err
	}
	if u.AllowAccounts != nil {
		p.AllowAccounts = lowerAll(*u.AllowAccounts)
	}
	if u.DenyAccounts != nil {
		p.DenyAccounts = lowerAll(*u.DenyAccounts)
	}
	if u.AllowGroups != nil {
		p.AllowGroups = nil // ALL; group names keep their case
		if !slices.ContainsFunc(*u.AllowGroups, func(g string) bool { return strings.EqualFold(g, "ALL") }) && len(*u.AllowGroups) > 0 {
			p.AllowGroups = slices.Clone(*u.AllowGroups)
		}
	}
	if u.Hidden != nil {
		p.Hidden = *u.Hidden
	}
	if u.Alternate != nil {
		p.Alternate = *u.Alternate // not checked: a submission reaching an unknown one is refused
	}
	setBool(&p.LLN, u.LLN)
	if u.Default != nil {
		if *u.Default {
			for j := range conf.Partitions {
				conf.Partitions[j].Default = false
			}
		}
		p.Default = *u.Default
	}
	conf.Partitions[i] = p
	return nil
}

func setTimes(p *slurmconf.Partition, u *api.PartitionUpdate) {
	if u.MaxTime != nil {
		p.MaxTime = secondsLimit(*u.MaxTime)
	}
	if u.DefaultTime != nil {
		p.DefaultTime = secondsLimit(*u.DefaultTime)
	}
	if u.GraceTime != nil {
		p.GraceTime = time.Duration(*u.GraceTime) * time.Second
	}
}

func setInts(p *slurmconf.Partition, u *api.PartitionUpdate) {
	if u.MaxNodes != nil {
		p.MaxNodes = *u.MaxNodes
		if p.MaxNodes < 0 {
			p.MaxNodes = slurmconf.Unlimited
		}
	}
	if u.MinNodes != nil {
		p.MinNodes = *u.MinNodes
	}
	if u.PriorityTier != nil {
		p.PriorityTier = *u.PriorityTier
	}
	if u.PriorityJobFactor != nil {
		p.PriorityJobFactor = *u.PriorityJobFactor
	}
}

// secondsLimit reads an API duration: UnlimitedSeconds is UNLIMITED.
func secondsLimit(s int64) time.Duration {
	if s == api.UnlimitedSeconds || s < 0 {
		return slurmtime.Unlimited
	}
	return time.Duration(s) * time.Second
}

// partitionNodes resolves Nodes=ALL or a host list to node names in the
// node table's order, as slurm.conf's partitions list them.
func partitionNodes(conf *slurmconf.Config, spec string) ([]string, *api.Error) {
	if strings.EqualFold(spec, "ALL") {
		var all []string
		for _, n := range conf.Nodes {
			all = append(all, n.Name)
		}
		return all, nil
	}
	names, err := hostlist.Expand(spec)
	if err != nil {
		return nil, api.Errorf(api.CodeInvalidNodeName, "%v", err)
	}
	want := map[string]bool{}
	for _, n := range names {
		if _, ok := conf.Node(n); !ok {
			return nil, api.Errorf(api.CodeInvalidNodeName, "no node %s", n)
		}
		want[n] = true
	}
	var out []string
	for _, n := range conf.Nodes {
		if want[n.Name] {
			out = append(out, n.Name)
		}
	}
	return out, nil
}

func lowerAll(list []string) []string {
	if len(list) == 0 {
		return nil
	}
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strings.ToLower(s)
	}
	return out
}

// keepPartitions applies slurm.conf's ReconfigFlags to a reconfigure, as
// Slurm 22.05's read_slurm_conf does: KeepPartInfo keeps every partition
// as it stood (scontrol's changes win over the file, partitions created
// by scontrol stay, the default stays); KeepPartState keeps only the
// State of the partitions in both. Without them the file wins.
func keepPartitions(old, next *slurmconf.Config) {
	info, state := false, false
	for _, f := range next.ReconfigFlags {
		info = info || strings.EqualFold(f, "KeepPartInfo")
		state = state || strings.EqualFold(f, "KeepPartState")
	}
	if !info && !state {
		return
	}
	for _, op := range old.Partitions {
		i := slices.IndexFunc(next.Partitions, func(p slurmconf.Partition) bool { return p.Name == op.Name })
		switch {
		case i >= 0 && !info:
			next.Partitions[i].State = op.State
		case i >= 0:
			next.Partitions[i] = keptPartition(op, next)
		default:
			if info {
				next.Partitions = append(next.Partitions, keptPartition(op, next))
			}
		}
	}
	if !info {
		return
	}
	def := slices.IndexFunc(old.Partitions, func(p slurmconf.Partition) bool { return p.Default })
	for i := range next.Partitions {
		next.Partitions[i].Default = def >= 0 && next.Partitions[i].Name == old.Partitions[def].Name
	}
}

// keptPartition is op carried into next: its nodes that next still has.
func keptPartition(op slurmconf.Partition, next *slurmconf.Config) slurmconf.Partition {
	op.Nodes = slices.DeleteFunc(slices.Clone(op.Nodes), func(n string) bool { _, ok := next.Node(n); return !ok })
	return op
}
