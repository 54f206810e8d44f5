package schedtest

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/sched"
)

// Scenario interprets scenario commands against a Harness. Every cycle's
// plan is checked with sched.CheckPlan; violations are reported through
// Fail and printed. Commands:
//
//	config policy=loam|easy|fcfs exempt=D age=W fairshare=W jobsize=W partition=W qos=W comp=W compcap=X maxage=D halflife=D maxqos=N favorsmall bfwindow=D bfmaxjobtest=N bfpartreserve=N
//	partition name=P nodes=LIST class=normal|urgent|batch tier=N jobfactor=N depth=N timeout=D cooldown=D strict preempt=off|requeue|cancel grace=D aging=R agingcap=C maxtime=D deftime=D maxnodes=N down allow=A,B deny=A,B
//	tenant name=T weight=W guarantee=G borrow=G lend=G cap=G maxuser=G maxjobs=N grpjobs=N
//	user name=U tenant=T share=S maxgpus=G maxjobs=N
//	switch name=S nodes=LIST
//	nodes LIST gpus=N cpus=N mem=MB tmp=MB features=A,B type=T weight=N state=up|drain|down|reserved
//	node NAME state=...
//	run jN part=P tenant=T user=U on=n1:0-7+n2:0-3 cpus=N mem=MB start=-1h limit=D runtime=D borrowed=4-7 prio=N norequeue preempting=+5m
//	submit jN part=P,Q tenant=T user=U gpus=N gpn=N nodes=N maxnodes=N cpus=N cpn=N mem=MB memcpu=MB memgpu=MB tmp=MB limit=D runtime=D nice=N qos=N hold=user|admin|dep|never begin=+D array=N room=N excl memwhole nodelist=A,B exclude=A,B features=A,B constraint=EXPR prefer=EXPR type=T lost=D restarts=N at=-D prev=N fixed=N
//	usage tenant=T user=U gpusec=X cpusec=X
//	reservation jN part=P created=-D start=+D promised=+D holds=n1:0-7+n2:0-3 cpus=N claimed
//	set jN nice=N qos=N limit=D fixed=N
//	window NAME nodes=LIST start=+D end=+D maint (an admin reservation; submit resv=NAME joins it)
//	unwindow NAME (the admin reservation is deleted)
//	cycle | advance D | end jN | cancel jN | hold jN KIND | release jN | show
//	save | restore (the cluster state, not the config: compare policies)
//
// Times like -1h and +5m are relative to the harness clock.
type Scenario struct {
	H     *Harness
	Fail  func(format string, args ...any)
	saved *Harness
}

// NewScenario starts a scenario with an empty Loam config.
func NewScenario(fail func(string, ...any)) *Scenario {
	return &Scenario{H: NewHarness(Config()), Fail: fail}
}

// Run executes one directive and returns its output.
func (s *Scenario) Run(d *Directive) string {
	out, err := s.run(d)
	if err != nil {
		s.Fail("%s: %v", d.Pos, err)
		return "error: " + err.Error()
	}
	return out
}

func (s *Scenario) run(d *Directive) (string, error) {
	a := &args{d: d}
	var out string
	switch d.Cmd {
	case "config":
		s.config(a)
	case "partition":
		s.H.Cfg.Partitions = append(s.H.Cfg.Partitions, s.partition(a))
	case "tenant":
		s.H.Cfg.Tenants = append(s.H.Cfg.Tenants, s.tenant(a))
	case "user":
		u := User(a.str("name", ""), a.str("tenant", "a")).Share(a.float("share", 1)).
			MaxGPUs(a.int64("maxgpus", -1)).MaxJobs(a.int64("maxjobs", -1)).Build()
		s.H.Cfg.Users = append(s.H.Cfg.Users, u)
	case "switch":
		s.H.Cfg.Switches = append(s.H.Cfg.Switches, sched.Switch{Name: a.str("name", ""), Nodes: []string{a.str("nodes", "")}})
	case "nodes":
		s.nodes(a)
	case "node":
		s.node(a)
	case "run":
		s.runJob(a)
	case "submit":
		s.submit(a)
	case "reservation":
		s.reservation(a)
	case "window", "unwindow":
		s.window(a)
	case "set":
		s.set(a)
	case "usage":
		u := sched.Usage{Tenant: a.str("tenant", ""), User: a.str("user", ""), GPUSec: a.float("gpusec", 0),
			CPUSec: a.float("cpusec", 0)}
		s.H.Usage = slices.DeleteFunc(s.H.Usage, func(x sched.Usage) bool { return x.Tenant == u.Tenant && x.User == u.User })
		s.H.Usage = append(s.H.Usage, u)
	default:
		return s.act(d, a)
	}
	return out, a.err
}

// act runs the commands that change time or print.
func (s *Scenario) act(d *Directive, a *args) (string, error) {
	switch d.Cmd {
	case "cycle":
		plan, err := s.H.Cycle()
		out := plan.Text(Epoch)
		if err != nil {
			s.Fail("%s: invariant violated: %v", d.Pos, err)
			out += "invariant violated: " + err.Error() + "\n"
		}
		return out, nil
	case "advance":
		if len(d.Args) != 1 {
			return "", fmt.Errorf("advance wants one duration")
		}
		return strings.Join(s.H.Advance(a.dur(d.Args[0])), "\n"), a.err
	case "end":
		if !s.H.End(a.id()) {
			return "", fmt.Errorf("job %s is not running", d.Args[0])
		}
		return "", a.err
	case "cancel":
		id := a.id()
		s.H.Pending = slices.DeleteFunc(s.H.Pending, func(p sched.PendingJob) bool { return p.ID == id })
		return "", a.err
	case "hold", "release":
		j := s.H.pending(a.id())
		if j == nil {
			return "", fmt.Errorf("job %s is not pending", d.Args[0])
		}
		j.Hold = sched.NotHeld
		if d.Cmd == "hold" && len(d.Args) > 1 {
			j.Hold = holdOf(d.Args[1], a)
		}
		return "", a.err
	case "show":
		return s.show(), nil
	case "save":
		s.saved = s.H.Clone()
		return "", nil
	case "restore":
		if s.saved == nil {
			return "", fmt.Errorf("restore without save")
		}
		cfg := s.H.Cfg
		s.H = s.saved.Clone()
		s.H.Cfg = cfg // keep the current config: restore compares policies
		return "", nil
	}
	return "", fmt.Errorf("unknown command %q", d.Cmd)
}

func (s *Scenario) config(a *args) {
	c := &s.H.Cfg
	switch a.str("policy", "loam") {
	case "easy":
		c.Policy = sched.PolicyEASY
	case "fcfs":
		c.Policy = sched.PolicyFCFS
	default:
		c.Policy = sched.PolicyLoam
	}
	c.PreemptExemptTime = a.durOr("exempt", 0)
	p := &c.Priority
	p.WeightAge = a.float("age", p.WeightAge)
	p.WeightFairshare = a.float("fairshare", p.WeightFairshare)
	p.WeightJobSize = a.float("jobsize", p.WeightJobSize)
	p.WeightPartition = a.float("partition", p.WeightPartition)
	p.WeightQOS = a.float("qos", p.WeightQOS)
	p.WeightCompensation = a.float("comp", p.WeightCompensation)
	p.CompensationCap = a.float("compcap", p.CompensationCap)
	p.MaxAge = a.durOr("maxage", p.MaxAge)
	p.DecayHalfLife = a.durOr("halflife", p.DecayHalfLife)
	p.MaxQOSPriority = int(a.int64("maxqos", int64(p.MaxQOSPriority)))
	_, p.FavorSmall = a.d.Arg("favorsmall")
	c.Backfill = sched.Backfill{Window: a.durOr("bfwindow", 0), MaxJobTest: int(a.int64("bfmaxjobtest", 0)),
		PartCountReserve: int(a.int64("bfpartreserve", 0))}
}

func (s *Scenario) partition(a *args) sched.Partition {
	b := Partition(a.str("name", "normal"), a.str("nodes", "")).Tier(int(a.int64("tier", 1))).
		JobFactor(int(a.int64("jobfactor", 1))).Depth(int(a.int64("depth", 1))).
		Aging(a.float("aging", 0), a.float("agingcap", 0)).MaxNodes(int(a.int64("maxnodes", 0)))
	p := b.Build()
	p.Class = map[string]sched.QueueClass{"normal": sched.ClassNormal, "urgent": sched.ClassUrgent,
		"batch": sched.ClassBatch}[a.str("class", "normal")]
	p.ReservationTimeout, p.ReservationCooldown = a.durOr("timeout", 0), a.durOr("cooldown", 0)
	_, p.Strict = a.d.Arg("strict")
	_, p.LLN = a.d.Arg("lln")
	p.PreemptMode = map[string]sched.PreemptMode{"off": sched.PreemptOff, "requeue": sched.PreemptRequeue,
		"cancel": sched.PreemptCancel}[a.str("preempt", "off")]
	p.GraceTime = a.durOr("grace", 0)
	p.MaxTime, p.DefaultTime = a.durOr("maxtime", 0), a.durOr("deftime", p.DefaultTime)
	if _, down := a.d.Arg("down"); down {
		p.Up = false
	}
	p.AllowAccounts, p.DenyAccounts = a.list("allow"), a.list("deny")
	return p
}

func (s *Scenario) tenant(a *args) sched.Tenant {
	t := Tenant(a.str("name", "a")).Weight(a.float("weight", 1)).Guarantee(a.int64("guarantee", 0)).
		Borrow(a.int64("borrow", -1)).Lend(a.int64("lend", -1)).CapGPUs(a.int64("cap", -1)).
		MaxPerUserGPUs(a.int64("maxuser", -1)).MaxJobsPerUser(a.int64("maxjobs", -1)).
		GrpJobs(a.int64("grpjobs", -1)).Build()
	return t
}

func (s *Scenario) nodes(a *args) {
	if len(a.d.Args) == 0 {
		a.fail("nodes wants a host list")
		return
	}
	b := Nodes(a.d.Args[0]).GPUs(int(a.int64("gpus", 8))).CPUs(int(a.int64("cpus", 64))).
		Mem(a.int64("mem", 512000)).Features(a.list("features")...).GPUType(a.str("type", "")).
		Weight(int(a.int64("weight", 0))).TmpDisk(a.int64("tmp", 0)).State(stateOf(a.str("state", "up"), a))
	s.H.Nodes = append(s.H.Nodes, b.Build()...)
}

func (s *Scenario) node(a *args) {
	for i := range s.H.Nodes {
		if len(a.d.Args) > 0 && s.H.Nodes[i].Name == a.d.Args[0] {
			s.H.Nodes[i].State = stateOf(a.str("state", "up"), a)
			return
		}
	}
	a.fail("unknown node")
}

func stateOf(s string, a *args) sched.NodeState {
	st, ok := map[string]sched.NodeState{"up": sched.NodeUp, "drain": sched.NodeDrain, "down": sched.NodeDown,
		"reserved": sched.NodeReserved}[s]
	if !ok {
		a.fail("unknown node state %q", s)
	}
	return st
}

func holdOf(s string, a *args) sched.HoldReason {
	h, ok := map[string]sched.HoldReason{"user": sched.HeldUser, "admin": sched.HeldAdmin,
		"dep": sched.HeldDependency, "never": sched.HeldDependencyNever}[s]
	if !ok {
		a.fail("unknown hold %q", s)
	}
	return h
}

func (s *Scenario) runJob(a *args) {
	b := Running(a.name()).Partition(a.str("part", "normal")).Tenant(a.str("tenant", "a")).
		User(a.str("user", "u1")).Started(a.at("start", s.H.Now)).Priority(a.int64("prio", 1))
	r := b.Build()
	r.Limit = a.durOr("limit", time.Hour)
	if _, no := a.d.Arg("norequeue"); no {
		r.Requeue = false
	}
	if v, ok := a.d.Arg("preempting"); ok {
		r.Preempting, r.PreemptDeadline = true, s.H.Now.Add(a.dur(v))
	}
	borrowed := a.indices(a.str("borrowed", ""))
	for _, spec := range strings.Split(a.str("on", ""), "+") {
		node, idx, _ := strings.Cut(spec, ":")
		gpus := a.indices(idx)
		al := sched.NodeAlloc{Node: node, CPUs: int(a.int64("cpus", int64(max(len(gpus), 1)))), MemMB: a.int64("mem", 0), GPUs: gpus}
		if len(borrowed) > 0 {
			al.Borrowed = make([]bool, len(gpus))
			for i, g := range gpus {
				al.Borrowed[i] = slices.Contains(borrowed, g)
			}
		}
		r.Alloc = append(r.Alloc, al)
	}
	if v, ok := a.d.Arg("runtime"); ok {
		s.H.Runtime[r.ID] = a.dur(v)
	}
	s.H.specs[r.ID] = sched.PendingJob{ID: r.ID, Partitions: []string{r.Partition}, Tenant: r.Tenant, User: r.User,
		Shape: sched.Shape{GPUs: len(r.Alloc[0].GPUs) * len(r.Alloc), Nodes: len(r.Alloc), CPUs: r.Alloc[0].CPUs * len(r.Alloc)},
		Limit: r.Limit, ArrayRoom: -1}
	s.H.Running = append(s.H.Running, r)
}

func (s *Scenario) submit(a *args) {
	j := Job(a.name()).Partition(a.list("part")...).Tenant(a.str("tenant", "a")).User(a.str("user", "u1")).
		Submitted(a.at("at", s.H.Now)).Build()
	if len(j.Partitions) == 0 {
		j.Partitions = []string{"normal"}
	}
	sh := &j.Shape
	sh.GPUs, sh.GPUsPerNode, sh.Nodes = int(a.int64("gpus", 1)), int(a.int64("gpn", 0)), int(a.int64("nodes", 0))
	sh.MaxNodes = int(a.int64("maxnodes", 0))
	if sh.GPUsPerNode > 0 {
		sh.GPUs = 0
	}
	sh.CPUs, sh.CPUsPerNode = int(a.int64("cpus", 1)), int(a.int64("cpn", 0))
	sh.MemPerNode, sh.MemPerCPU, sh.MemPerGPU = a.int64("mem", 0), a.int64("memcpu", 0), a.int64("memgpu", 0)
	_, sh.Exclusive = a.d.Arg("excl")
	_, sh.MemWhole = a.d.Arg("memwhole")
	sh.NodeList, sh.Exclude, sh.Features = a.list("nodelist"), a.list("exclude"), a.list("features")
	sh.GPUType, sh.TmpDiskMB = a.str("type", ""), a.int64("tmp", 0)
	sh.Switches, sh.SwitchWait = int(a.int64("switches", 0)), a.durOr("switchwait", 5*time.Minute)
	_, sh.Contiguous = a.d.Arg("contig")
	if v := a.str("constraint", ""); v != "" { // -C beyond an AND list, as cluster.ShapeOf reads it
		c, err := job.ParseConstraint(v)
		if err != nil {
			a.fail("constraint=%q: %v", v, err)
		}
		sh.Constraint = c
		sh.Nodes = max(sh.Nodes, c.MinNodes())
	}
	if v := a.str("prefer", ""); v != "" { // --prefer: the shape with it in place of -C
		c, err := job.ParsePrefer(v)
		if err != nil {
			a.fail("prefer=%q: %v", v, err)
		}
		ps := *sh
		ps.Features, ps.Constraint = nil, c
		ps.Nodes = max(ps.Nodes, c.MinNodes())
		sh.Preferred = &ps
	}
	j.Limit = a.durOr("limit", time.Hour)
	j.Nice, j.QOSPrio = int(a.int64("nice", 0)), int(a.int64("qos", 0))
	if v, ok := a.d.Arg("hold"); ok {
		j.Hold = holdOf(v, a)
	}
	if _, ok := a.d.Arg("begin"); ok {
		j.Begin = a.at("begin", s.H.Now)
	}
	j.ArrayTasks, j.ArrayRoom = int(a.int64("array", 0)), int(a.int64("room", -1))
	j.LostRun, j.PrevPriority = a.durOr("lost", 0), a.int64("prev", 0)
	j.Restarts = int(a.int64("restarts", 0))
	j.FixedPriority = a.int64("fixed", 0)
	j.Reservation = a.str("resv", "")
	if _, ok := a.d.Arg("reserveafter"); ok {
		j.ReserveAfter = a.at("reserveafter", s.H.Now)
	}
	if v, ok := a.d.Arg("runtime"); ok {
		s.H.Runtime[j.ID] = a.dur(v)
	}
	s.H.Pending = append(s.H.Pending, j)
}

// window adds (or, unwindow, deletes) an admin reservation.
func (s *Scenario) window(a *args) {
	if len(a.d.Args) == 0 {
		a.fail("%s wants a reservation name first", a.d.Cmd)
		return
	}
	name := a.d.Args[0]
	s.H.AdminReservations = slices.DeleteFunc(s.H.AdminReservations, func(r sched.AdminReservation) bool { return r.Name == name })
	if a.d.Cmd == "unwindow" {
		return
	}
	_, maint := a.d.Arg("maint")
	s.H.AdminReservations = append(s.H.AdminReservations, sched.AdminReservation{Name: name,
		Start: a.at("start", s.H.Now), End: a.at("end", s.H.Now), Nodes: a.list("nodes"), Maint: maint})
}

// reservation adds a reservation carried over from a previous cycle.
func (s *Scenario) reservation(a *args) {
	r := sched.Reservation{Job: a.id(), Partition: a.str("part", "normal"), Created: a.at("created", s.H.Now)}
	if _, ok := a.d.Arg("start"); ok {
		r.PlannedStart = a.at("start", s.H.Now)
	}
	if _, ok := a.d.Arg("promised"); ok {
		r.Promised = a.at("promised", s.H.Now)
	}
	_, r.Claimed = a.d.Arg("claimed")
	for _, spec := range strings.Split(a.str("holds", ""), "+") {
		node, idx, _ := strings.Cut(spec, ":")
		r.Alloc = append(r.Alloc, sched.NodeAlloc{Node: node, CPUs: int(a.int64("cpus", 1)), GPUs: a.indices(idx)})
	}
	s.H.Reservations = append(s.H.Reservations, r)
}

// set changes a pending job, as scontrol update does.
func (s *Scenario) set(a *args) {
	j := s.H.pending(a.id())
	if j == nil {
		a.fail("job is not pending")
		return
	}
	j.Nice = int(a.int64("nice", int64(j.Nice)))
	j.QOSPrio = int(a.int64("qos", int64(j.QOSPrio)))
	j.Limit = a.durOr("limit", j.Limit)
	j.FixedPriority = a.int64("fixed", j.FixedPriority)
}

// show prints running jobs and reservations.
func (s *Scenario) show() string {
	var b strings.Builder
	for _, r := range s.H.Running {
		fmt.Fprintf(&b, "running j%d %s %s/%s", r.ID, r.Partition, r.Tenant, r.User)
		for _, al := range r.Alloc {
			fmt.Fprintf(&b, " %s:%s", al.Node, rangeText(al.GPUs))
		}
		if r.Preempting {
			fmt.Fprintf(&b, " preempting-until=%s", rel(r.PreemptDeadline))
		}
		b.WriteByte('\n')
	}
	for _, r := range s.H.Reservations {
		fmt.Fprintf(&b, "reservation j%d %s start=%s\n", r.Job, r.Partition, rel(r.PlannedStart))
	}
	for _, p := range s.H.Pending {
		fmt.Fprintf(&b, "pending j%d prio=%d", p.ID, p.PrevPriority)
		if !p.ReserveAfter.IsZero() {
			fmt.Fprintf(&b, " reserve-after=%s", rel(p.ReserveAfter))
		}
		if p.LostRun > 0 {
			fmt.Fprintf(&b, " lost=%s restarts=%d", p.LostRun, p.Restarts)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func rel(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return "+" + t.Sub(Epoch).String()
}

func rangeText(idx []int) string {
	names := make([]string, len(idx))
	for i, g := range idx {
		names[i] = strconv.Itoa(g)
	}
	return strings.Join(names, ",")
}
