package command

import (
	"slices"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
)

// matchFlags are the node values lines are split on.
func (p *sinfoParams) matchFlags(pr *sinfoPrinter) sinfoMatch {
	var m sinfoMatch
	for _, it := range pr.items {
		if it.field >= 0 && sinfoCols[it.field].match != nil {
			sinfoCols[it.field].match(&m)
		}
	}
	return m
}

// records groups the nodes of each partition into lines, as sinfo's
// _build_sinfo_data does.
func (p *sinfoParams) records(pr *sinfoPrinter, parts []api.Partition, nodes []api.Node) []*sinfoRec {
	m := p.matchFlags(pr)
	byName := make(map[string]*api.Node, len(nodes))
	for i := range nodes {
		byName[nodes[i].Name] = &nodes[i]
	}
	var recs []*sinfoRec
	filtering := p.dead || p.responding || p.nodes != nil || p.states != nil || p.partitions != nil
	for k := range parts {
		part := &parts[k]
		if p.partitions != nil && !slices.Contains(p.partitions, part.Name) {
			continue
		}
		if !p.nodeFlag && m.partition {
			recs = append(recs, &sinfoRec{part: part, partIdx: k, upfront: true})
		}
		for _, name := range partitionNodes(part, byName) {
			n := byName[name]
			if n == nil || (filtering && p.filterOut(n)) {
				continue
			}
			recs = p.insert(recs, m, part, k, n)
		}
	}
	// A partition whose nodes -d, -n, -r or -t all filtered out keeps its
	// empty line ("0 n/a"), as in Slurm; -p drops the partition itself.
	return recs
}

// partitionNodes lists a partition's nodes in node table (name) order.
func partitionNodes(part *api.Partition, byName map[string]*api.Node) []string {
	names := part.NodeNames
	if names == nil {
		names, _ = hostlist.Expand(part.Nodes)
	}
	out := slices.Clone(names)
	hostlist.Sort(out)
	return slices.Compact(out)
}

// filterOut applies -n, -d, -r and -t.
func (p *sinfoParams) filterOut(n *api.Node) bool {
	s := nodeStateNum(n)
	switch {
	case p.nodes != nil && !slices.Contains(p.nodes, n.Name):
		return true
	case p.dead && s&flagNoResp == 0:
		return true
	case p.responding && s&flagNoResp != 0:
		return true
	case p.states == nil:
		return false
	}
	for _, st := range p.states {
		ok := sinfoStates[st](n, s)
		if ok && !p.statesAnd {
			return false
		}
		if !ok && p.statesAnd {
			return true
		}
	}
	return !p.statesAnd
}

// insert adds a node to the first line it matches, or starts a line.
func (p *sinfoParams) insert(recs []*sinfoRec, m sinfoMatch, part *api.Partition, idx int, n *api.Node) []*sinfoRec {
	s := nodeStateNum(n)
	for _, r := range recs {
		if !p.reasons && !m.samePartition(r.part, part) {
			continue
		}
		if len(r.nodes) > 0 && (p.nodeFlag || !p.sameLine(m, r, n, s)) {
			continue
		}
		if len(r.nodes) == 0 {
			r.state, r.first = s, n
		}
		if !slices.Contains(r.nodes, n) {
			r.nodes = append(r.nodes, n)
		}
		return recs
	}
	return append(recs, &sinfoRec{part: part, partIdx: idx, nodes: []*api.Node{n}, state: s, first: n})
}

// samePartition tells whether nodes of partition b may join a line of
// partition a: the same partition, or one whose every printed partition
// value is equal (sinfo -o %l puts partitions of one time limit on one
// line).
func (m sinfoMatch) samePartition(a, b *api.Partition) bool {
	switch {
	case a == b:
		return true
	case a == nil || b == nil || m.partition:
		return false
	}
	eq := func(on bool, x, y any) bool { return !on || x == y }
	return eq(m.avail, orDefault(a.State, "UP"), orDefault(b.State, "UP")) &&
		eq(m.jobSize, jobSize(a), jobSize(b)) && eq(m.defTime, a.DefaultTime, b.DefaultTime) &&
		eq(m.maxTime, a.MaxTime, b.MaxTime) && eq(m.oversub, a.OverSubscribe, b.OverSubscribe) &&
		eq(m.preempt, a.PreemptMode, b.PreemptMode) && eq(m.prioTier, a.PriorityTier, b.PriorityTier) &&
		eq(m.prioJob, a.PriorityJobFactor, b.PriorityJobFactor)
}

func (p *sinfoParams) sameLine(m sinfoMatch, r *sinfoRec, n *api.Node, s int) bool {
	f := r.first
	eq := func(on bool, a, b string) bool { return !on || a == b }
	ok := eq(m.state, stateLong(r.state), stateLong(s)) &&
		eq(m.features, strings.Join(f.Features, ","), strings.Join(n.Features, ",")) &&
		eq(m.featuresAct, strings.Join(f.ActiveFeatures, ","), strings.Join(n.ActiveFeatures, ",")) &&
		eq(m.gres, f.GRES, n.GRES) && eq(m.reason, f.Reason, n.Reason) &&
		eq(m.reasonUser, f.ReasonUser, n.ReasonUser) && (!m.reasonTime || f.ReasonTime == n.ReasonTime) &&
		(!m.allocMem || f.AllocMemory == n.AllocMemory) && eq(m.gresUsed, sinfoGRESUsed(f), sinfoGRESUsed(n)) &&
		eq(m.comment, f.Comment, n.Comment) && eq(m.extra, f.Extra, n.Extra)
	if !ok || !p.exact {
		return ok
	}
	return (!m.cpus || f.CPUs == n.CPUs) && (!m.memory || f.RealMemory == n.RealMemory) &&
		(!m.disk || f.TmpDisk == n.TmpDisk) && (!m.weight || f.Weight == n.Weight) &&
		(!m.sct || (f.Sockets == n.Sockets && f.CoresPerSocket == n.CoresPerSocket && f.ThreadsPerCore == n.ThreadsPerCore)) &&
		(!m.load || f.CPULoad == n.CPULoad) && (!m.freeMem || f.FreeMemory == n.FreeMemory) &&
		(!m.version || f.Version == n.Version) && (!m.port || f.Port == n.Port)
}

func partName(r *sinfoRec) string {
	if r.part == nil {
		return ""
	}
	return r.part.Name
}
