package command

import (
	"cmp"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
)

// showJob prints "show job [ID]". ID is "12" or "12_3"; anything but
// digits, "_" and "+" is refused before asking the controller, as Slurm
// does.
func (s *scontrol) showJob(val string, has bool) {
	var id uint32
	task := -1
	if has {
		if strings.Trim(val, "0123456789_+") != "" {
			s.fail("scontrol_print_job error: %s\n", api.CodeInvalidJobID.Text())
			return
		}
		n, rest := strtol(val)
		id = uint32(n)
		if strings.HasPrefix(rest, "_") {
			task, _ = strtol(rest[1:])
		}
	}
	c, ok := s.controller()
	if !ok {
		return
	}
	// Job id 0 (also "", "+0", "_3") is every job, as in Slurm; a task
	// after it still selects that task of every array.
	one := has && id != 0
	q := &api.JobQuery{Detail: s.detail, All: s.all}
	if one {
		q.JobIDs = []string{strconv.FormatUint(uint64(id), 10)}
	}
	resp, err := c.Jobs(s.ctx, q)
	if err == nil && one && !knownJob(resp.Jobs, id) {
		err = api.NewError(api.CodeInvalidJobID)
	}
	if err != nil {
		s.fail("slurm_load_jobs error: %s\n", errText(err))
		return
	}
	if one {
		s.recordsLine(0, len(resp.Jobs))
	} else {
		s.recordsLine(resp.Now, len(resp.Jobs))
	}
	f := s.formatter(s.env.Now())
	printed := 0
	for _, j := range jobOrder(resp.Jobs, id) {
		if v, ok := taskView(j, task); ok {
			s.w.buf = f.appendJob(s.w.buf, v)
			printed++
		}
	}
	switch {
	case printed > 0:
	case has && task >= 0:
		s.exit = 1
		s.w.printf("Job %d_%d not found\n", id, task)
	case one:
		s.exit = 1
		s.w.printf("Job %d not found\n", id)
	default:
		s.w.printf("No jobs in the system\n")
	}
}

// jobOrder is the order scontrol prints records in: for one array, the
// array's own record then its split tasks newest first; for every job,
// the controller's list order.
func jobOrder(jobs []api.Job, id uint32) []*api.Job {
	out := make([]*api.Job, len(jobs))
	recs := make([]*jobRec, len(jobs))
	for i := range jobs {
		out[i] = &jobs[i]
		recs[i] = &jobRec{j: &jobs[i]}
	}
	if id != 0 {
		slices.SortStableFunc(out, func(a, b *api.Job) int {
			if (a.JobID == id) != (b.JobID == id) {
				if a.JobID == id {
					return -1
				}
				return 1
			}
			return cmp.Compare(b.JobID, a.JobID)
		})
		return out
	}
	listPositions(recs)
	slices.SortStableFunc(recs, func(a, b *jobRec) int { return cmp.Compare(a.pos, b.pos) })
	for i, r := range recs {
		out[i] = r.j
	}
	return out
}

// taskView returns the record to print for task (-1: any): a started
// task's own record, or a pending array record narrowed to that task.
func taskView(j *api.Job, task int) (*api.Job, bool) {
	switch {
	case task < 0:
		return j, true
	case j.ArrayTaskID != nil:
		return j, *j.ArrayTaskID == task
	case j.ArrayTaskString == "":
		return j, false
	}
	a := parseTasks(j.ArrayTaskString)
	if a == nil || !a.Contains(task) {
		return j, false
	}
	v := *j
	v.ArrayTaskString, v.ArrayTaskID = "", &task // StdOut='s %a is the task's
	return &v, true
}

// showNodes prints "show node [NAMES]": every node, or each name of the
// host list in its order, "Node X not found" (exit 1) for one that is
// not there, as Slurm's scontrol_print_node_list.
func (s *scontrol) showNodes(val string, has bool) {
	var names []string
	if has {
		var ok bool
		if names, ok = s.nodeNames(val); !ok {
			return
		}
	}
	c, ok := s.controller()
	if !ok {
		return
	}
	resp, err := c.Nodes(s.ctx, &api.NodeQuery{})
	if err != nil {
		s.fail("slurm_load_node error: %s\n", errText(err))
		return
	}
	s.recordsLine(resp.Now, len(resp.Nodes))
	f := s.formatter(s.env.Now())
	if !has {
		for i := range resp.Nodes {
			s.w.buf = f.appendNode(s.w.buf, &resp.Nodes[i])
		}
		if len(resp.Nodes) == 0 {
			s.w.printf("No nodes in the system\n")
		}
		return
	}
	byName := make(map[string]*api.Node, len(resp.Nodes))
	for i := range resp.Nodes {
		byName[resp.Nodes[i].Name] = &resp.Nodes[i]
	}
	for _, name := range names {
		if n := byName[name]; n != nil {
			s.w.buf = f.appendNode(s.w.buf, n)
			continue
		}
		s.exit = 1
		if !s.quiet {
			s.w.printf("Node %s not found\n", name)
		}
	}
}

// nodeNames expands a node list as Slurm's hostlist_create: an unclosed
// "[" ends a name ("cpu[" is cpu]); a bad range is an error naming it.
func (s *scontrol) nodeNames(val string) ([]string, bool) {
	l, err := s.parseHostlist(val)
	var re *hostlist.RangeError
	switch {
	case err == nil:
		return l.Hosts(), true
	case errors.Is(err, hostlist.ErrTooLarge):
		s.fail("too many nodes in supplied range %s\n", val)
		return nil, false
	case errors.As(err, &re):
		s.fail("%s", rangeErrorLine(err))
	}
	s.fail("unable to parse node list %s\n", val)
	return nil, false
}

// showPartitions prints "show partition [NAME]".
func (s *scontrol) showPartitions(val string, has bool) {
	c, ok := s.controller()
	if !ok {
		return
	}
	resp, err := c.Partitions(s.ctx)
	if err != nil {
		s.fail("slurm_load_partitions error: %s\n", errText(err))
		return
	}
	s.recordsLine(resp.Now, len(resp.Partitions))
	mem := s.nodeMemory(c)
	f := s.formatter(s.env.Now())
	printed := 0
	for i := range resp.Partitions {
		p := &resp.Partitions[i]
		if has && p.Name != val || p.HiddenFromCaller && !s.all {
			continue
		}
		own := ownMemory(*p)
		s.w.buf = f.appendPartition(s.w.buf, &own, partitionMemory(p, mem))
		printed++
	}
	switch {
	case has && printed == 0:
		s.exit = 1
		s.w.printf("Partition %s not found\n", val)
	case printed == 0:
		s.w.printf("No partitions in the system\n")
	}
}

// nodeMemory maps node names to their memory, for partition TRES.
func (s *scontrol) nodeMemory(c Controller) map[string]int64 {
	mem := map[string]int64{}
	if resp, err := c.Nodes(s.ctx, &api.NodeQuery{}); err == nil {
		for _, n := range resp.Nodes {
			mem[n.Name] = n.RealMemory
		}
	}
	return mem
}

// ownMemory leaves out of p the memory limits it only inherits from the
// cluster: Slurm's scontrol shows a partition's own DefMemPerCPU (else
// DefMemPerNode=UNLIMITED) and MaxMemPerNode, not the cluster's.
func ownMemory(p api.Partition) api.Partition {
	for _, k := range p.InheritedMemory {
		switch k {
		case "DefMemPerCPU":
			p.DefMemPerCPU = 0
		case "DefMemPerGPU":
			p.DefMemPerGPU = 0
		case "MaxMemPerNode":
			p.MaxMemPerNode = 0
		case "DefMemPerNode":
			p.DefMemPerNode = 0
		case "MaxMemPerCPU":
			p.MaxMemPerCPU = 0
		}
	}
	return p
}

func partitionMemory(p *api.Partition, mem map[string]int64) int64 {
	names := p.NodeNames
	if names == nil {
		names, _ = hostlist.Expand(p.Nodes)
	}
	var total int64
	for _, n := range names {
		total += mem[n]
	}
	return total
}

// showConfig prints the running configuration as scontrol show config.
func (s *scontrol) showConfig() {
	c, ok := s.controller()
	if !ok {
		return
	}
	resp, err := c.Config(s.ctx)
	if err != nil {
		s.fail("slurm_load_ctl_conf error: %s\n", errText(err))
		return
	}
	f := s.formatter(s.env.Now())
	s.w.printf("Configuration data as of %s\n", f.time(resp.Now))
	// Slurm pads every key to 23 columns; longer keys push their " = ".
	for _, kv := range resp.Entries {
		if kv.Key == "BOOT_TIME" && resp.BootTime != 0 {
			kv.Value = f.time(resp.BootTime) // in this command's time format
		}
		s.w.printf("%-23s = %s\n", kv.Key, kv.Value)
	}
	s.w.printf("\nSlurmctld(primary) at %s is UP\n", orDefault(ctlHost(s), "(unknown)"))
}

func ctlHost(s *scontrol) string {
	if s.c == nil {
		return ""
	}
	resp, err := s.c.Ping(s.ctx)
	if err != nil {
		return ""
	}
	return resp.Host
}
