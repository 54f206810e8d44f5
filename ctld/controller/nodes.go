package controller

import (
	"encoding/json"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
	"github.com/loamhpc/loam/pkg/store"
)

// nodeRec is the controller's view of one node.
type nodeRec struct {
	name string
	conf *slurmconf.Node
	// activeFeatures, when set, is what scontrol update ActiveFeatures=
	// left active of the configured features (node_edit.go).
	activeFeatures []string
	// addr is where its daemon listens ("host:port"), from registration.
	addr string
	// registered: the daemon registered since this controller started;
	// notResponding: it then went silent past SlurmdTimeout.
	registered    bool
	notResponding bool
	noRespond     bool // State=NoResp: NOT_RESPONDING, state kept, until its next heartbeat
	lastSeen      time.Time
	report        *api.RegisterRequest
	health        api.Health
	cpuLoad       float64
	freeMem       int64
	admin         nodeAdmin
	jobs          map[uint32]bool // running jobs on it
	// lastBusy is when its last job left it, it registered idle or was resumed
	// (scontrol's LastBusyTime; not persisted: set again when the node
	// registers after a controller restart).
	lastBusy time.Time
}

// nodeAdmin is what an administrator (or the controller, for a node that
// stopped answering) set, persisted across restarts.
type nodeAdmin struct {
	Drain      bool   `json:"drain,omitempty"`
	Fail       bool   `json:"fail,omitempty"` // State=FAIL: drains as DRAIN does
	Down       bool   `json:"down,omitempty"`
	Reason     string `json:"reason,omitempty"`
	ReasonUser string `json:"reason_user,omitempty"`
	ReasonTime int64  `json:"reason_time,omitempty"`
	// DownByController: marked down for not responding (ReturnToService
	// decides whether registering again brings it back).
	DownByController bool `json:"down_by_controller,omitempty"`
	// Future is State=FUTURE: the node is out of service and out of sight
	// (node listings leave it out, as Slurm's) until State=RESUME.
	Future bool `json:"future,omitempty"`
	// Comment and Extra are scontrol update's free text, kept across
	// restarts and state changes as Slurm keeps them.
	Comment string `json:"comment,omitempty"`
	Extra   string `json:"extra,omitempty"`
}

// initNodes builds the node table from the configuration.
func (c *Controller) initNodes() {
	conf := c.confNow().conf
	next := make(map[string]*nodeRec, len(conf.Nodes))
	for i := range conf.Nodes {
		nc := &conf.Nodes[i]
		n := c.nodes[nc.Name]
		if n == nil {
			n = &nodeRec{name: nc.Name, jobs: map[uint32]bool{}, health: api.Health{OK: true}}
			n.admin.applyConfigState(nc)
		}
		n.conf = nc
		next[nc.Name] = n
	}
	c.nodes = next
}

// applyConfigState takes State=DOWN/DRAIN from slurm.conf for a node
// first seen.
func (a *nodeAdmin) applyConfigState(nc *slurmconf.Node) {
	switch nc.State {
	case "DOWN":
		a.Down, a.Reason = true, nc.Reason
	case "DRAIN":
		a.Drain, a.Reason = true, nc.Reason
	}
}

// schedState is what the scheduler may do with n.
func (n *nodeRec) schedState() NodeState {
	switch {
	case !n.registered || n.notResponding || n.admin.Down || n.admin.Future || !n.health.OK:
		return NodeDown
	case n.admin.Drain || n.admin.Fail || n.noRespond: // NoResp: its jobs run on
		return NodeDrain
	}
	return NodeUp
}

// updateEngine tells the scheduler n's state.
func (c *Controller) updateEngine(n *nodeRec) {
	if err := c.eng.SetNodeState(n.name, n.schedState()); err != nil {
		c.log.WithError(err).WithField("node", n.name).Warn("scheduler does not know the node")
	}
}

// persistNode enqueues n's admin state.
func (c *Controller) persistNode(n *nodeRec) *store.Pending {
	name := n.name
	data, _ := json.Marshal(n.admin)
	return c.store.Enqueue(func(tx *store.Tx) error { return tx.PutNode(name, data) })
}

// nodeTarget is a node daemon to send to.
type nodeTarget struct{ node, addr string }

// target is node name's daemon when it can be sent to: registered,
// answering, with an address.
func (c *Controller) target(name string) (nodeTarget, bool) {
	n := c.nodes[name]
	if n == nil || n.addr == "" || !n.registered || n.notResponding {
		return nodeTarget{}, false
	}
	return nodeTarget{node: n.name, addr: n.addr}, true
}

// nodeTargets are the reachable daemons of r's nodes, batch node first.
func (c *Controller) nodeTargets(r *jobRecord) []nodeTarget {
	var out []nodeTarget
	for _, a := range r.St.Alloc {
		if t, ok := c.target(a.Node); ok {
			out = append(out, t)
		}
	}
	return out
}

// attach records r's allocation on its nodes; detach forgets it.
func (c *Controller) attach(r *jobRecord) {
	for _, a := range r.St.Alloc {
		if n := c.nodes[a.Node]; n != nil {
			n.jobs[r.ID] = true
		}
	}
}

func (c *Controller) detach(r *jobRecord) {
	for _, a := range r.St.Alloc {
		if n := c.nodes[a.Node]; n != nil && n.jobs[r.ID] {
			delete(n.jobs, r.ID)
			n.lastBusy = c.now()
		}
	}
}

// hostnameOf is a node's host name (NodeHostName, %n in sinfo): the
// configured NodeHostname, which defaults to the node name, as Slurm shows
// it whatever the node daemon calls its host (several emulated nodes share
// one); the reported name only for a node without a configuration.
func (c *Controller) hostnameOf(node string) string {
	if n := c.nodes[node]; n != nil {
		if n.conf != nil && n.conf.Hostname != "" {
			return n.conf.Hostname
		}
		if n.report != nil && n.report.Hostname != "" {
			return n.report.Hostname
		}
	}
	return node
}

// usage sums what running jobs hold on n.
func (c *Controller) usage(n *nodeRec) (cpus int, mem int64, gpus map[int]*jobRecord) {
	gpus = map[int]*jobRecord{}
	for id := range n.jobs {
		r := c.jobs[id]
		if r == nil {
			continue
		}
		for _, a := range r.St.Alloc {
			if a.Node != n.name {
				continue
			}
			cpus += a.CPUs
			mem += a.Memory
			for _, g := range a.GPUs {
				gpus[g] = r
			}
		}
	}
	return cpus, mem, gpus
}

// nodeGPUCount is the node's configured GPU count.
func nodeGPUCount(nc *slurmconf.Node) int {
	n := 0
	for _, g := range nc.GRES {
		if g.Name == "gpu" {
			n += int(g.Count)
		}
	}
	return n
}

// baseState is scontrol's base state of n and its flags. As in Slurm's
// cons_tres, a node is ALLOCATED only when all its CPUs are; a node whose
// GPUs or memory are all taken but has CPUs free is MIXED.
func (c *Controller) baseState(n *nodeRec, cpus int) (string, []string) {
	var flags []string
	if n.admin.Drain {
		flags = append(flags, api.FlagDrain)
	}
	if n.admin.Fail {
		flags = append(flags, api.FlagFail)
	}
	if n.notResponding || n.noRespond || (!n.registered && !n.admin.Down) {
		flags = append(flags, api.FlagNotResponding)
	}
	if c.completingOn(n) { // nodeprolog.go
		flags = append(flags, api.FlagCompleting)
	}
	switch {
	case n.admin.Down || n.notResponding:
		return api.NodeDown, flags
	case !n.registered:
		return api.NodeUnknown, flags
	case len(n.jobs) == 0:
		return api.NodeIdle, flags
	case cpus >= n.conf.EffectiveCPUs(): // all but the specialized CPUs
		return api.NodeAllocated, flags
	}
	return api.NodeMixed, flags
}

// nodeInfo builds n's api record.
func (c *Controller) nodeInfo(n *nodeRec) api.Node {
	nc := n.conf
	cpus, mem, gpus := c.usage(n)
	out := api.Node{
		Name: n.name, Hostname: c.hostnameOf(n.name), Address: nc.Addr, Port: nc.Port,
		Reason: n.admin.Reason, ReasonUser: n.admin.ReasonUser, ReasonTime: n.admin.ReasonTime,
		Comment: n.admin.Comment, Extra: n.admin.Extra,
		CPUs: nc.CPUs, AllocCPUs: cpus, Boards: nc.Boards, Sockets: nc.Sockets, EffectiveCPUs: nc.EffectiveCPUs(),
		CoreSpecCount: nc.CoreSpecCount, CPUSpecList: nc.SpecCPUList(), MemSpecLimit: nc.MemSpecLimit,
		CoresPerSocket: nc.CoresPerSocket, ThreadsPerCore: nc.ThreadsPerCore,
		RealMemory: nc.RealMemory, AllocMemory: mem, FreeMemory: n.freeMem, TmpDisk: nc.TmpDisk,
		CPULoad: n.cpuLoad, Weight: nc.Weight, CPUBind: nc.CPUBind, Features: nc.Features, ActiveFeatures: n.active(),
		Partitions: c.confNow().partsOfNode[n.name], AllocGPUs: len(gpus), GRES: gresConf(nc.GRES),
	}
	out.State, out.StateFlags = c.baseState(n, cpus)
	out.StateFlags = c.adv.nodeFlags(n.name, c.now().Unix(), out.StateFlags) // admin reservations
	out.GRESUsed = gresUsed(nc.GRES, gpus)
	out.CfgGRESTRES, out.AllocGRESTRES = c.confNow().gpuTRES.nodeTRES(nc.GRES, gpus) // tres_gres.go
	out.GPUs = c.gpuList(n, gpus)
	if h := n.health; !h.OK || h.Message != "" {
		out.Health = &h
	}
	if n.report != nil {
		out.Mounts, out.Version, out.OperatingSystem = n.report.Mounts, n.report.Version, n.report.OS
		out.BootTime, out.SlurmdStart = n.report.BootTime, n.report.StartTime
	}
	out.LastHeartbeat = unix(n.lastSeen)
	out.LastBusy = unix(n.lastBusy)
	if len(n.jobs) > 0 {
		out.LastBusy = unix(c.now()) // busy now
	}
	for id := range n.jobs {
		out.Jobs = append(out.Jobs, id)
	}
	slices.Sort(out.Jobs)
	return out
}

func gresConf(list []slurmconf.GRES) string {
	var s string
	for i, g := range list {
		if i > 0 {
			s += ","
		}
		s += gresName(g) + ":" + strconv.FormatInt(g.Count, 10)
	}
	return s
}

// gresName is a GRES as Slurm names it in node records: "gpu" or "gpu:h100".
func gresName(g slurmconf.GRES) string {
	if g.Type == "" {
		return g.Name
	}
	return g.Name + ":" + g.Type
}

// gresUsed prints scontrol -d's GresUsed. A typed GPU carries the indices
// jobs hold ("gpu:h100:2(IDX:0-1)", "gpu:h100:0(IDX:N/A)"); an untyped one
// only the count ("gpu:2", "gpu:0"), as Slurm 22.05 prints it.
func gresUsed(list []slurmconf.GRES, gpus map[int]*jobRecord) string {
	var idx []int
	for g := range gpus {
		idx = append(idx, g)
	}
	slices.Sort(idx)
	var s string
	for i, g := range list {
		if i > 0 {
			s += ","
		}
		s += gresName(g)
		if g.Name != "gpu" {
			s += ":0"
			continue
		}
		s += ":" + strconv.Itoa(len(idx))
		if g.Type == "" {
			continue
		}
		if len(idx) > 0 {
			s += "(IDX:" + job.FormatRanges(idx) + ")"
		} else {
			s += "(IDX:N/A)"
		}
	}
	return s
}

// gpuList lists the node's GPUs (as its daemon reported them, else as
// configured) with the job holding each.
func (c *Controller) gpuList(n *nodeRec, held map[int]*jobRecord) []api.GPU {
	var out []api.GPU
	if n.report != nil && len(n.report.GPUs) > 0 {
		out = slices.Clone(n.report.GPUs)
	} else {
		for i := 0; i < nodeGPUCount(n.conf); i++ {
			out = append(out, api.GPU{Index: i})
		}
	}
	for i := range out {
		if r := held[out[i].Index]; r != nil {
			out[i].JobID = r.ID
			for _, a := range r.St.Alloc {
				if a.Node == n.name {
					if k := slices.Index(a.GPUs, out[i].Index); k >= 0 && k < len(a.Borrowed) {
						out[i].Borrowed = a.Borrowed[k]
					}
				}
			}
		}
	}
	return out
}

// nodeAddr picks where to reach a registering daemon: the address it
// gives, with the configured NodeAddr when it gives no host.
func nodeAddr(reported string, nc *slurmconf.Node) string {
	host, port, err := net.SplitHostPort(reported)
	if err != nil {
		return net.JoinHostPort(nc.Addr, strconv.Itoa(nc.Port))
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = nc.Addr
	}
	return net.JoinHostPort(host, port)
}

// expandNodes expands a host list and checks every name.
func (c *Controller) expandNodes(list string) ([]*nodeRec, *api.Error) {
	if strings.EqualFold(list, "ALL") {
		// slurmctld's nodespec_to_hostlist: "ALL", in any case and
		// alone, is every node (scontrol update nodename=all
		// state=drain); inside a list it is a node name like any other.
		out := make([]*nodeRec, 0, len(c.nodes))
		for _, nc := range c.confNow().conf.Nodes {
			if n := c.nodes[nc.Name]; n != nil {
				out = append(out, n)
			}
		}
		return out, nil
	}
	names, err := hostlist.Expand(list)
	if err != nil || len(names) == 0 {
		return nil, api.Errorf(api.CodeInvalidNodeName, "bad node list %q", list)
	}
	out := make([]*nodeRec, 0, len(names))
	for _, name := range names {
		n := c.nodes[name]
		if n == nil {
			return nil, api.Errorf(api.CodeInvalidNodeName, "no node %q", name)
		}
		out = append(out, n)
	}
	return out, nil
}
