package controller

import (
	"errors"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/batchscript"
	"github.com/loamhpc/loam/pkg/cluster"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/slurmconf"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// admitted is a submission after defaults and checks: everything needed to
// create the job record except its id.
type admitted struct {
	req        *job.Request
	partitions []string
	account    string
	groups     []uint32
	timeLimit  int64
	array      *job.Array
	dep        *job.Dependency
	hold       Hold
	requeue    bool
	nice       int
	fixPrio    int64 // an operator's --priority (0: none)
	begin      time.Time
	deadline   time.Time
}

// admit applies the cluster's defaults to a submission and refuses what
// Slurm refuses at submit, with Slurm's messages. It reads the
// configuration only; the live checks (dependencies, MaxJobCount) happen
// under the controller's lock.
func (c *Controller) admit(cs *confState, id auth.Identity, in *api.SubmitRequest, now time.Time) (*admitted, *api.Error) {
	req := in.Job // a copy: the caller's request stays as sent
	a := &admitted{req: &req}
	steps := []func() *api.Error{
		func() *api.Error { return c.admitIdentity(a, id, in) },
		func() *api.Error { return checkRequest(a.req) },
		func() *api.Error { return checkAcctgFreq(cs, a.req) },
		func() *api.Error { return admitPartitions(cs, a) },
		func() *api.Error { return c.admitGroups(cs, a) }, // partition_access.go
		func() *api.Error { return checkRootOnly(cs, a) }, // partkeys.go
		func() *api.Error { return checkPartReq(cs, a) },  // partreq.go
		func() *api.Error { return admitAccount(cs, a) },
		func() *api.Error { return c.admitReservation(a) },  // advresv_api.go
		func() *api.Error { return admitConstraint(cs, a) }, // admit_constraint.go
		// Licenses before the nodes: the peer answers -L foo:1
		// --mincpus=70 "Invalid license specification".
		func() *api.Error { return checkLicenses(cs, a) }, // licenses.go
		func() *api.Error { return admitShape(cs, a) },
		func() *api.Error { return admitArray(cs, a) },
		func() *api.Error { return admitTimes(cs, a, now) },
		func() *api.Error { return c.admitPriority(id, a) },
		func() *api.Error { return admitDependency(a) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	applyReboot(a.req) // recorded.go
	applyDefaults(cs, a)
	applyMemLimits(cs, a)         // memlimits.go
	applyPartKeys(cs, a)          // partkeys.go
	capSwitchWait(cs.conf, a.req) // switches.go
	if err := c.preCheck(cs, a); err != nil {
		return nil, err
	}
	return a, nil
}

// admitIdentity fills in who submits, from the connection, never from the
// request; root may submit for another user with --uid.
func (c *Controller) admitIdentity(a *admitted, id auth.Identity, in *api.SubmitRequest) *api.Error {
	if id.Via == auth.ViaDaemon {
		return api.Errorf(api.CodeAccessDenied, "node daemons do not submit jobs")
	}
	r := a.req
	r.UserID, r.GroupID, r.UserName, a.groups = id.UID, id.GID, id.User, id.Groups
	if r.RunAsUser != "" {
		if !c.isOperator(id) {
			return api.Errorf(api.CodeAccessDenied, "--uid is reserved to root")
		}
		u, err := user.Lookup(r.RunAsUser)
		if err != nil {
			if u, err = user.LookupId(r.RunAsUser); err != nil {
				return api.Errorf(api.CodeUserIDMissing, "no such user %q", r.RunAsUser)
			}
		}
		uid, _ := strconv.ParseUint(u.Uid, 10, 32)
		gid, _ := strconv.ParseUint(u.Gid, 10, 32)
		r.UserID, r.GroupID = uint32(uid), uint32(gid) // the user's primary group, as sbatch --uid
		r.UserName, a.groups = auth.LookupUser(r.UserID, r.GroupID)
	}
	r.SubmitHost = in.SubmitHost
	if r.SubmitDir == "" {
		r.SubmitDir = r.WorkDir
	}
	return nil
}

// checkAcctgFreq refuses an --acctg-freq task interval that would sample
// less often than the cluster's JobAcctGatherFrequency (30 s unless set),
// or not at all, for a job with a memory limit, as slurmctld does.
func checkAcctgFreq(cs *confState, r *job.Request) *api.Error {
	memLimit := r.MemPerNode == nil || *r.MemPerNode != 0
	if r.AcctgFreq == "" || job.TaskAcctgFreqAllowed(r.AcctgFreq, cs.conf.AcctGatherFrequency(), memLimit) {
		return nil
	}
	return api.NewError(api.CodeInvalidAcctFreq)
}

// checkRequest applies the request's own consistency checks.
func checkRequest(r *job.Request) *api.Error {
	if strings.TrimSpace(r.Script) == "" {
		return api.NewError(api.CodeScriptMissing)
	}
	if len(r.Script) > batchscript.MaxScriptBytes {
		return api.NewError(api.CodePathnameTooLong) // Slurm's max_script_size
	}
	if r.WorkDir == "" || !filepath.IsAbs(r.WorkDir) {
		return api.NewError(api.CodeMissingWorkDir)
	}
	// -N 0: Slurm refuses it when it tries to start the job at submit
	// and, held, leaves it pending forever; refused either way here.
	if r.NodesSet && r.MinNodes == 0 && r.MaxNodes == 0 {
		return api.NewError(api.CodeInvalidNodeCount)
	}
	err := r.Validate()
	var ie *job.InvalidError
	if !errors.As(err, &ie) {
		if err != nil {
			return api.Errorf(api.CodeError, "%v", err)
		}
		return nil
	}
	code := api.CodeError
	switch ie.Msg {
	case job.MsgInvalidGRES, job.MsgGRESTypeMix:
		code = api.CodeInvalidGRES
	case job.MsgTimeMin:
		code = api.CodeInvalidTimeMin
	case job.MsgBeginDeadline:
		code = api.CodeInvalidTimeValue
	}
	if strings.HasPrefix(ie.Msg, "Invalid --nice") {
		code = api.CodeInvalidNice
	}
	return &api.Error{Code: code, Message: ie.Msg, Detail: ie.Detail}
}

// admitPartitions resolves the candidate partitions: the default when none
// is given, each one that refuses jobs (DRAIN, INACTIVE) replaced by its
// Alternate or dropped (partition_alternate.go), ordered by PriorityTier
// (highest first) as Slurm orders them, except for a job submitted held,
// whose list Slurm shows as given. With none left the job is refused with
// the last partition's reason, as the peer answers.
func admitPartitions(cs *confState, a *admitted) *api.Error {
	names := a.req.Partitions
	if len(names) == 0 {
		if cs.defPart == "" {
			return api.NewError(api.CodeDefaultPartitionUnset)
		}
		names = []string{cs.defPart}
	}
	var parts []*slurmconf.Partition
	var refused *api.Error
	for _, n := range names {
		p, ok := cs.parts[n]
		if !ok {
			return api.Errorf(api.CodeInvalidPartitionName, "invalid partition specified: %s", n) // Slurm's words
		}
		p, err := routePartition(cs.parts, p)
		if err != nil {
			refused = err
			continue
		}
		if !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return refused
	}
	if !a.req.Hold { // Slurm keeps a held job's partitions as given (-p batch,urgent -H)
		slices.SortStableFunc(parts, func(x, y *slurmconf.Partition) int { return y.PriorityTier - x.PriorityTier })
	}
	for _, p := range parts {
		a.partitions = append(a.partitions, p.Name)
	}
	return nil
}

// admitAccount takes the user's default account from tenants.conf and
// checks the account against tenants.conf and the partitions' Allow/Deny
// lists. Without tenants.conf any account is accepted, as Slurm does
// without slurmdbd.
func admitAccount(cs *confState, a *admitted) *api.Error {
	acct := strings.ToLower(a.req.Account)
	conf := cs.conf
	if acct == "" {
		if u, ok := conf.User(a.req.UserName); ok {
			acct = u.DefaultAccount
		}
	}
	if acct != "" && len(conf.Tenants) > 0 {
		if _, ok := conf.Tenant(acct); !ok {
			return api.Errorf(api.CodeInvalidAccount, "no tenant %q in tenants.conf", acct)
		}
		if u, ok := conf.User(a.req.UserName); ok && len(u.Accounts) > 0 && !slices.Contains(u.Accounts, acct) {
			return api.Errorf(api.CodeInvalidAccount, "user %s may not use account %s", a.req.UserName, acct)
		}
	}
	var allowed []string
	for _, name := range a.partitions {
		p := cs.parts[name]
		if accountAllowed(p, acct) {
			allowed = append(allowed, name)
		}
	}
	if len(allowed) == 0 {
		return api.Errorf(api.CodeInvalidAccount, "account %q may not use partition %s", acct, a.partitions[0])
	}
	a.partitions, a.account = allowed, acct
	return nil
}

func accountAllowed(p *slurmconf.Partition, acct string) bool {
	if p.AllowAccounts != nil {
		return slices.Contains(p.AllowAccounts, acct) || slices.Contains(p.AllowAccounts, "all")
	}
	return !slices.Contains(p.DenyAccounts, acct)
}

// admitArray parses --array against MaxArraySize.
func admitArray(cs *confState, a *admitted) *api.Error {
	if a.req.Array == "" {
		return nil
	}
	arr, err := job.ParseArray(a.req.Array, int(cs.conf.MaxArraySize))
	if err != nil {
		return api.NewError(api.CodeInvalidArray) // Slurm gives no detail
	}
	if arr.Count() > 0 {
		a.array = arr
	}
	return nil
}

// admitTimes resolves the time limit (the partition's default when none is
// given), --begin and --deadline.
func admitTimes(cs *confState, a *admitted, now time.Time) *api.Error {
	r := a.req
	switch {
	case r.TimeLimit != nil && *r.TimeLimit == slurmtime.Unlimited:
		a.timeLimit = api.UnlimitedSeconds
	case r.TimeLimit != nil:
		a.timeLimit = max(int64(*r.TimeLimit/time.Second), 60)
	default:
		p := cs.parts[a.partitions[0]]
		lim := p.DefaultTime
		if lim <= 0 {
			lim = p.MaxTime
		}
		a.timeLimit = durationSeconds(lim)
	}
	if r.Begin != nil && r.Begin.After(now) {
		a.begin = *r.Begin
	}
	if r.Deadline != nil {
		if r.Deadline.Unix() < now.Unix() {
			// Slurm's words, with no detail, before the job has an id
			// (submit_burn.go); a deadline of this very second is taken.
			return api.NewError(api.CodeInvalidTimeLimit)
		}
		a.deadline = *r.Deadline
	}
	return nil
}

func durationSeconds(d time.Duration) int64 {
	if d == slurmtime.Unlimited || d <= 0 {
		return api.UnlimitedSeconds
	}
	return int64(d / time.Second)
}

// admitPriority checks --nice (negative values are for operators) and
// --hold.
func (c *Controller) admitPriority(id auth.Identity, a *admitted) *api.Error {
	if a.req.Nice != nil {
		if *a.req.Nice < 0 && !c.isOperator(id) {
			return api.NewError(api.CodeInvalidNice) // Slurm's words, no detail
		}
		a.nice = *a.req.Nice
	}
	if a.req.Hold {
		a.hold = HeldUser
	}
	a.fixPrio = c.submitPriority(id, a)
	return nil
}

// admitDependency parses --dependency; the referenced jobs are checked
// under the lock.
func admitDependency(a *admitted) *api.Error {
	if a.req.Dependency == "" {
		return nil
	}
	d, err := job.ParseDependency(a.req.Dependency)
	if err != nil {
		return dependencyRefusal(a.req.Dependency)
	}
	if len(d.Deps) > 0 {
		a.dep = d
	}
	return nil
}

// applyDefaults fills in what Slurm's controller fills in.
func applyDefaults(cs *confState, a *admitted) {
	r := a.req
	if r.Name == "" && !r.EmptyName {
		r.Name = "sbatch"
	}
	r.DefaultOutput = r.StdOut == ""
	if r.StdOut == "" {
		r.StdOut = api.DefaultOutput
		if a.array != nil {
			r.StdOut = api.DefaultArrayOutput
		}
	}
	for _, p := range []*string{&r.StdOut, &r.StdErr, &r.StdIn} {
		if *p != "" && !filepath.IsAbs(*p) {
			// Joined as slurmctld joins them, uncleaned: -D / shows
			// StdOut=//slurm-%j.out on the peer.
			*p = r.WorkDir + "/" + *p
		}
	}
	a.requeue = cs.conf.JobRequeue
	if r.Requeue != nil {
		a.requeue = *r.Requeue
	}
	r.Partitions, r.Account = a.partitions, a.account
}

// admitShape refuses what no node of the candidate partitions could ever
// run, as Slurm refuses it at submit: unknown or too many GPUs per node,
// unknown features, unknown node names, more memory, CPUs or temporary
// disk (--tmp) per node than any node has. Node counts beyond the partition are accepted and pend,
// as in Slurm.
//
// The refusal carries Slurm's own line, if any (shapeMessage), and no
// words of Loam's: Slurm refuses these too, and scripts grep its lines.
func admitShape(cs *confState, a *admitted) *api.Error {
	r := a.req
	excluded, aerr := namedNodes(cs, r)
	if aerr != nil {
		return aerr
	}
	need := perNodeNeed(r)
	if err := checkGRESNames(cs, need); err != nil {
		return err
	}
	for _, pn := range a.partitions {
		for _, n := range cs.parts[pn].Nodes {
			if nc, ok := cs.conf.Node(n); ok && !excluded[n] && need.fits(nc) {
				return nil
			}
		}
	}
	if len(need.features) > 0 && !anyNodeHas(cs, a.partitions, need.features) {
		return api.NewError(api.CodeInvalidFeature) // Slurm gives no detail
	}
	return api.Errorf(api.CodeNodeConfigUnavailable, "%s", shapeMessage(cs, a, excluded, nil))
}

// namedNodes checks -w and -x as Slurm's job_create does: every name must
// be a node, and the two lists must not overlap ("Invalid node name
// specified", with no detail, for both). It returns the excluded names.
func namedNodes(cs *confState, r *job.Request) (map[string]bool, *api.Error) {
	sets := [2]map[string]bool{{}, {}}
	for i, list := range []string{r.NodeList, r.Exclude} {
		if list == "" {
			continue
		}
		names, err := hostlist.Expand(list)
		if err != nil {
			return nil, api.NewError(api.CodeInvalidNodeName)
		}
		for _, n := range names {
			if _, ok := cs.conf.Node(n); !ok {
				return nil, api.NewError(api.CodeInvalidNodeName)
			}
			sets[i][n] = true
		}
	}
	for n := range sets[0] {
		if sets[1][n] {
			return nil, api.NewError(api.CodeInvalidNodeName)
		}
	}
	return sets[1], nil
}

// Slurm's lines for a job no node configuration can hold
// (node_scheduler.c, _set_err_msg).
const (
	msgShapeCPUs = "CPU count per node can not be satisfied"
	msgShapeMem  = "Memory specification can not be satisfied"
	msgShapeTmp  = "Temporary disk specification can not be satisfied"
)

// shapeMessage is the line Slurm prints before "Requested node
// configuration is not available": its scheduler filters each usable node
// on CPUs per node, then memory per node (per CPU for --mem-per-cpu, as
// Slurm compares it), then TmpDisk, and names what the last node failed. When some node
// passes both, the GRES, node count or layout failed later, which Slurm
// does not explain: no line. Nodes -x names are not looked at, nor those
// match (when not nil) rejects: the nodes -C allows.
func shapeMessage(cs *confState, a *admitted, excluded map[string]bool, match func(*slurmconf.Node) bool) string {
	r := a.req
	cpus := nodeCPUs(r, max(r.NTasksPerNode, 1))
	var mem int64
	switch {
	case r.MemPerNode != nil:
		mem = *r.MemPerNode
	case r.MemPerCPU != nil:
		mem = *r.MemPerCPU
	}
	msg := ""
	for _, pn := range a.partitions {
		for _, n := range cs.parts[pn].Nodes {
			nc, ok := cs.conf.Node(n)
			switch {
			case !ok || excluded[n] || (match != nil && !match(nc)):
			case nc.EffectiveCPUs() < cpus:
				msg = msgShapeCPUs
			case nc.UsableMemory() < mem:
				msg = msgShapeMem
			case nc.TmpDisk < r.TmpDisk:
				msg = msgShapeTmp
			default:
				return ""
			}
		}
	}
	return msg
}

// nodeNeed is the least one node must offer to hold a share of the job.
type nodeNeed struct {
	cpus     int
	memMB    int64
	tmpMB    int64            // --tmp, compared with TmpDisk
	gres     map[string]int64 // "gpu" or "gpu:h100" -> per node
	features []string
	// tasks a node runs with --ntasks-per-node, at most perSocket
	// (--ntasks-per-socket) on each of its sockets (0: unbounded): the
	// peer refuses --ntasks-per-node=8 --ntasks-per-socket=1 on 2-socket
	// nodes.
	tasks, perSocket int
}

// nodeCPUs is the CPUs a node holding tasks of r's tasks needs: -c each,
// one task's CPUs with -O (the node's tasks share them, as the
// scheduler's shape says), at least --mincpus.
func nodeCPUs(r *job.Request, tasks int) int {
	cpus := max(r.CPUsPerTask, 1) * tasks
	if r.Overcommit {
		cpus = max(r.CPUsPerTask, 1)
	}
	return max(cpus, r.MinCPUs)
}

// perNodeNeed computes the per-node minimum of a request.
func perNodeNeed(r *job.Request) nodeNeed {
	n := nodeNeed{gres: map[string]int64{}, features: testedFeatures(r), tmpMB: r.TmpDisk}
	tasks := max(r.NTasksPerNode, 1)
	if r.NTasksPerNode == 0 && r.NTasks > 0 && r.MinNodes > 0 {
		// Without -N the scheduler spreads the tasks over as many nodes
		// as it needs: one node must hold one task (admission.go checks
		// the total). With -N min-max, over as many as max.
		nodes := max(r.MinNodes, cluster.RangeNodes(r))
		tasks = (r.NTasks + nodes - 1) / nodes
	}
	n.cpus = nodeCPUs(r, tasks)
	if r.NTasksPerSocket > 0 && r.NTasksPerNode > 0 {
		n.tasks, n.perSocket = r.NTasksPerNode, r.NTasksPerSocket
	}
	if r.MemPerNode != nil && *r.MemPerNode > 0 {
		n.memMB = *r.MemPerNode
	}
	if r.MemPerCPU != nil {
		n.memMB = *r.MemPerCPU * int64(n.cpus)
	}
	for _, list := range [][]resource.GRES{r.GRES, r.GPUsPerNode} {
		for _, g := range list {
			key := g.Name
			if g.Type != "" {
				key += ":" + g.Type
			}
			n.gres[key] = max(n.gres[key], g.Count)
		}
	}
	return n
}

func (n nodeNeed) fits(nc *slurmconf.Node) bool {
	if nc.EffectiveCPUs() < n.cpus || nc.UsableMemory() < n.memMB || nc.TmpDisk < n.tmpMB { // less CoreSpec/MemSpecLimit
		return false
	}
	if n.perSocket > 0 && n.tasks > n.perSocket*max(nc.Sockets, 1) {
		return false
	}
	for _, f := range n.features {
		if !slices.Contains(nc.Features, f) {
			return false
		}
	}
	for key, want := range n.gres {
		name, typ, _ := strings.Cut(key, ":")
		var have int64
		for _, g := range nc.GRES {
			if g.Name == name && (typ == "" || strings.EqualFold(g.Type, typ)) {
				have += g.Count
			}
		}
		if have < want {
			return false
		}
	}
	return true
}

// checkGRESNames refuses a GRES no node is configured with at all.
func checkGRESNames(cs *confState, n nodeNeed) *api.Error {
	for key := range n.gres {
		name, _, _ := strings.Cut(key, ":")
		known := false
		for i := range cs.conf.Nodes {
			for _, g := range cs.conf.Nodes[i].GRES {
				known = known || g.Name == name
			}
		}
		if !known {
			return api.Errorf(api.CodeInvalidGRES, "no node has gres %q", name)
		}
	}
	return nil
}

func anyNodeHas(cs *confState, parts []string, features []string) bool {
	for _, pn := range parts {
		for _, n := range cs.parts[pn].Nodes {
			nc, ok := cs.conf.Node(n)
			if ok && (nodeNeed{features: features}).fits(nc) {
				return true
			}
		}
	}
	return false
}
