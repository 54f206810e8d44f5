package controller

import (
	"fmt"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/cluster"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
)

// need says which costly groups of api.Job fields a listing asks for; a
// full record needs them all.
type need struct {
	nodes, tres, deps, stdio, detail, loam, group bool
}

var needAll = need{true, true, true, true, true, true, true}

// needFor maps requested table fields to the groups they need.
func needFor(fields []string) need {
	var n need
	for _, f := range fields {
		switch f {
		case "nodes", "batch_host":
			n.nodes = true
		case "tres_req_str", "tres_alloc_str", "tres_per_node", "tres_per_job", "tres_per_task":
			n.tres = true
		case "dependency":
			n.deps = true
		case "group_name":
			n.group = true
		case "standard_output", "standard_error", "standard_input", "standard_output_default", "standard_error_default":
			n.stdio = true
		case "queue_position", "estimated_start", "gpus", "borrowed_gpus", "queue_class", "tenant", "sched_nodes":
			n.loam = true
		}
	}
	return n
}

// fillJob writes r into j (a reused scratch record), the costly groups
// only when n asks for them.
func (c *Controller) fillJob(j *api.Job, r *jobRecord, n need) {
	*j = api.Job{}
	q, st := r.Req, &r.St
	j.JobID, j.Name, j.UserID, j.UserName, j.GroupID = r.ID, q.Name, q.UserID, q.UserName, q.GroupID
	j.Account, j.Partition, j.QOS, j.Comment = st.Account, st.Partition, q.QOS, q.Comment
	j.AdminComment, j.WCKey = q.AdminComment, q.WCKey
	j.Container, j.MCSLabel, j.TRESFreq = q.Container, q.MCSLabel, q.TresFreq
	if r.pending() {
		j.Partition = strings.Join(st.Partitions, ",")
	}
	j.JobState, j.StateReason, j.StateDescription = shownState(r), st.Reason, st.Desc // advresv_job.go
	j.SpecialExit = r.pending() && st.SpecialExit != ""                               // requeue_op.go
	j.Stopped = stoppedNow(r)                                                         // stopped.go
	if r.pending() && r.plan.Reason != "" && st.Hold == NotHeld {
		j.StateReason, j.StateDescription = r.plan.Reason, r.plan.Desc
	}
	j.Priority, j.Nice, j.Hold = st.Priority, st.Nice, st.Hold == HeldUser || st.Hold == HeldAdmin
	if j.Hold {
		j.Priority = 0
	}
	c.fillArray(j, r)
	c.fillShape(j, r)
	j.TimeLimit, j.SubmitTime, j.EligibleTime, j.BeginTime = st.TimeLimit, st.Submit, st.Eligible, st.Begin
	j.AccrueTime = accrueTime(r)
	if r.pending() && j.StateReason == job.ReasonJobArrayTaskLimit {
		// Slurm shows EligibleTime Unknown while the throttle holds
		// every pending task back; the record still accrues.
		j.EligibleTime = 0
	}
	j.StartTime, j.EndTime, j.Deadline, j.PreemptTime = st.Start, st.End, st.Deadline, st.Preempt
	j.ResizeTime = st.ResizeTime
	if r.pending() {
		j.StartTime = unix(c.obs.est.startOf(r))
	}
	slurmTimes(j, st, r.pending())
	if r.pending() && j.StateReason.BackfillTried() && c.cycleAt > j.LastSchedEval {
		// slurmctld's backfill pass evaluates such a job every few
		// seconds; Loam's cycle does.
		j.LastSchedEval = c.cycleAt
	}
	fillSuspension(j, st) // suspend.go
	// An interactive allocation (salloc, srun) has no batch script.
	j.ExitCode, j.BatchFlag, j.Restarts, j.Requeue = st.ExitCode, q.Script != "", st.Restarts, st.Requeue
	if st.EndState == job.Requeued || st.RequeueCancelled {
		j.Restarts++ // being stopped for a requeue: Slurm counts the restart at once
	}
	j.DerivedExitCode = st.Derived // step_derived.go
	j.Command, j.WorkDir, j.SubmitHost, j.SubmitDir = commandOf(q), q.WorkDir, q.SubmitHost, q.SubmitDir
	j.AllocNode = q.AllocNode // alloc_node.go
	j.AllocSID = q.AllocSID
	j.Reservation, j.KillInvDep, j.MailUser = q.Reservation, st.KillInvDep, q.MailUser
	j.Licenses = q.Licenses
	j.BatchFeatures = q.BatchFeatures
	j.NoKillInvDep = st.NoKillInvDep
	if q.MailType != 0 {
		j.MailType = q.MailType.String()
		if j.MailUser == "" {
			// slurmctld mails the job's user when --mail-user is not
			// given and shows it: the peer's --mail-type=END job shows
			// MailUser=root MailType=END.
			j.MailUser = q.UserName
		}
	}
	if q.Signal != nil {
		j.Signal = q.Signal.String()
	}
	if n.nodes {
		j.Nodes, j.BatchHost = allocNodes(st.Alloc), st.BatchHost
	}
	if n.tres {
		c.fillTRES(j, r)
	}
	if n.deps && st.Dep != nil {
		j.Dependency = st.Dep.String()
	}
	if n.stdio {
		// The patterns as written, as Slurm's job records carry them:
		// squeue prints them so and scontrol expands what it knows.
		j.StdOut, j.StdErr, j.StdIn = q.StdOut, q.StdErr, q.StdIn
		j.StdOutDefault, j.StdErrDefault = q.DefaultOutput, q.StdErr == ""
		if q.StdErr == "" {
			j.StdErr = j.StdOut
		}
	}
	if n.detail {
		j.Allocation = st.Alloc
		j.GRESDetail = gresDetail(st.Alloc)
		j.PriorityFactors = r.plan.Factors
		j.SchedReservation = c.reservationOf(r)
	}
	if n.loam {
		c.fillLoam(j, r)
	}
	if n.group {
		j.GroupName = c.users.groupName(q.GroupID)
	}
}

func (c *Controller) fillArray(j *api.Job, r *jobRecord) {
	st := &r.St
	if st.ArrayJobID == 0 {
		return
	}
	j.ArrayJobID, j.ArrayTaskID, j.ArrayMaxTasks = st.ArrayJobID, r.taskID(), st.Throttle
	if r.arrayRecord() && (r.pending() || st.ArrayTask < 0) {
		j.ArrayTaskID = nil
		// The throttle is ArrayMaxTasks; the commands add "%N" themselves.
		if a, err := job.ParseArray(st.ArrayPending, job.MaxArraySizeLimit); err == nil {
			j.ArrayTaskString = a.Display()
			j.ArrayTaskCount = a.Count()
		}
		if tasks := r.pendingTasks(); len(tasks) == 1 && r.pending() && !st.TasksCut {
			// A pending array record left with one task after its
			// others split off is that task (slurmctld's
			// job_array_post_sched): squeue shows it on its own line
			// and folds no split task into it.
			j.ArrayTaskID, j.ArrayTaskString, j.ArrayTaskCount = &tasks[0], "", 0
		}
	}
}

// fillShape reports what the job holds when running, what it asks for
// when pending.
func (c *Controller) fillShape(j *api.Job, r *jobRecord) {
	q := r.Req
	// A pending job's NumCPUs counts cpt; CPUs/Task shows what
	// --gpus-per-task with --cpus-per-gpu makes of it (shape_gpu.go).
	cpt := max(q.CPUsPerTask, 1)
	j.Tasks, j.CPUsPerTask, j.TasksPerNode = q.NTasks, max(cpt, gpuTaskCPUs(q)), q.NTasksPerNode
	if j.Tasks == 0 { // without -n, a task per node, as slurmctld counts them
		j.Tasks = max(q.MinNodes, 1) * max(q.NTasksPerNode, 1)
	}
	j.MaxNodes, j.MinCPUsNode = maxNodes(q), max(q.MinCPUs, j.CPUsPerTask*max(cluster.TasksPerNode(q), 1))
	j.RequiredNodes, j.ExcludedNodes, j.Exclusive = q.NodeList, q.Exclude, string(q.Exclusive)
	c.showFeatures(j, r) // prefer.go
	j.SpreadJob, j.Contiguous = q.SpreadJob, q.Contiguous
	fillLayout(j, q)
	fillRecorded(j, q)
	if n := c.spreadMaxNodes(r); n > 0 { // task_layout.go
		j.MaxNodes = n
	}
	if q.MemPerNode != nil {
		j.MemoryPerNode, j.MinMemory = *q.MemPerNode, *q.MemPerNode
	}
	if q.MemPerCPU != nil {
		j.MemoryPerCPU, j.MinMemory = *q.MemPerCPU, *q.MemPerCPU
	}
	if q.MemPerGPU != nil {
		j.MemoryPerGPU = *q.MemPerGPU
	}
	j.MinTmpDisk = q.TmpDisk
	if q.Switches > 0 {
		j.RequiredSwitch = q.Switches
		if q.SwitchWait != nil {
			j.WaitForSwitch = *q.SwitchWait
		}
	}
	j.CPUsPerGPU, j.CPUsPerGPUDefault = q.CPUsPerGPU, q.CPUsPerGPUDefault
	if def := c.defaultMemPerCPU(r); def > 0 {
		j.MemoryPerCPU, j.MinMemory = def, def
	} else if def := c.defaultMemPerNode(r); def > 0 { // memlimits.go
		j.MemoryPerNode, j.MinMemory = def, def
	}
	if q.TimeMin != nil {
		j.TimeMinimum = int64(q.TimeMin.Seconds())
	}
	if len(r.St.Alloc) > 0 {
		j.NodeCount = len(r.St.Alloc)
		j.Tasks = runningTasks(q, j.Tasks, j.NodeCount) // task_layout.go
		if r.St.ResizeTime != 0 && q.NTasks == 0 {
			// A task a node, counted again once a failed node left
			// (the peer: -N2 -k shows NumTasks=1 after, -n4 keeps 4).
			j.Tasks = j.NodeCount
		}
		for _, a := range r.St.Alloc {
			j.CPUs += a.CPUs
			j.GPUs += len(a.GPUs)
			for _, b := range a.Borrowed {
				if b {
					j.BorrowedGPUs++
				}
			}
		}
		return
	}
	j.NodeCount = pendingNodes(q)
	j.CPUs = max(j.Tasks*cpt, 1)
	if q.NTasks == 0 && q.NTasksPerNode == 0 && (q.MaxNodes > q.MinNodes || q.NodesFromGPUs) {
		// sbatch -N min-max sends no task count, so slurmctld asks one
		// task's CPUs (the peer shows -N2-4 -c3 as NumCPUs=3, and
		// --gpus=4 --gpus-per-node=2, made -N2 by its client, as 1).
		j.CPUs = cpt
	}
	if q.NTasks == 0 {
		j.CPUs = max(j.CPUs, j.NodeCount*max(q.NTasksPerNode, 0)*cpt)
	}
	j.NodeCount = max(j.NodeCount, c.cpuBoundNodes(r, j.CPUs), c.gpuBoundNodes(r), c.placedNodes(r)) // shape_nodes.go
	if n := c.heldSubmitNodes(r); n > 0 {
		j.NodeCount = n
	}
	if q.Overcommit {
		// sbatch -O asks for a CPU a node: the peer shows -O -n4 -c2 as
		// NumCPUs=1 and -O -N2 -n8 as NumCPUs=2 (TRES cpu= alike).
		j.CPUs = max(q.MinNodes, 1)
	}
	if q.NumCPUs > 0 {
		j.CPUs, j.MaxCPUs = q.NumCPUs, q.MaxCPUs // scontrol update NumCPUs=
	}
	if r.finished() && q.NTasks == 0 {
		// Ended before it ran (cancelled, DEADLINE): without -n Slurm
		// has no task count left (NumTasks=N/A, squeue --json null).
		j.Tasks = 0
	}
	j.GPUs = requestedGPUs(q, j.NodeCount)
}

// pendingNodes is the node count slurmctld shows for a pending job: -N's
// minimum, raised to -n over --ntasks-per-node (rounded down: the peer
// shows -n5 --ntasks-per-node=2 as 2 nodes, -n6 ... -N1-2 as 3).
func pendingNodes(q *job.Request) int {
	n := max(q.MinNodes, 1)
	if tpn := cluster.TasksPerNode(q); q.NTasks > 0 && tpn > 0 {
		n = max(n, q.NTasks/tpn)
	}
	return n
}

// maxNodes is -N's maximum as Slurm keeps it: no more nodes than tasks
// when -n is given (-N 1-5 -n 2 shows NumNodes=1-2); 0 when -N gave none.
func maxNodes(q *job.Request) int {
	if q.MaxNodes <= 0 {
		return 0
	}
	if q.NTasks > 0 && q.NTasks < q.MaxNodes {
		return max(q.NTasks, q.MinNodes)
	}
	return q.MaxNodes
}

// slurmTimes fills the times slurmctld shows that Loam does not store: a
// pending --begin job, held or not, is eligible (and expected to start when
// nothing better is known) from its begin time, and accrues from then
// unless held (and keeps both when cancelled before it began); a job
// that ended before it started has its end as its start; a started or
// estimated job ends at its start plus its time limit until it has ended;
// the last scheduler evaluation is the start, else the submission.
func slurmTimes(j *api.Job, st *jobStatus, pending bool) {
	if j.EligibleTime == 0 && st.Begin != 0 && st.Start == 0 && (pending || st.Hold == NotHeld) {
		// A --begin job cancelled before it began keeps them too.
		j.EligibleTime = st.Begin
		if !j.Hold {
			j.AccrueTime = st.Begin
		}
		if pending && j.StartTime == 0 {
			j.StartTime = st.Begin
		}
	}
	if !pending && j.StartTime == 0 {
		j.StartTime = j.EndTime
	}
	if j.EndTime == 0 && j.StartTime != 0 && j.TimeLimit > 0 && j.TimeLimit != api.UnlimitedSeconds {
		j.EndTime = j.StartTime + j.TimeLimit
	}
	j.LastSchedEval = st.Submit
	if st.Start != 0 {
		j.LastSchedEval = st.Start
	}
}

// accrueTime is when the job began to accrue age priority: its eligible
// time, except for an allocation (salloc, srun) that started at once:
// Slurm starts those without setting AccrueTime, where the scheduling
// pass sets it for every pending batch job, array records included,
// before starting it; an array task the throttle let go later keeps its
// array's accrue time (checked on the peer: sbatch and sbatch --array
// started at once, throttled or not, show AccrueTime=their submit time,
// salloc and srun Unknown).
func accrueTime(r *jobRecord) int64 {
	st := &r.St
	if st.Start != 0 && st.Start <= st.Eligible && r.Req.Script == "" {
		return 0
	}
	if st.Accrue != 0 {
		return st.Accrue
	}
	return st.Eligible
}

func requestedGPUs(q *job.Request, nodes int) int {
	n := 0
	for _, g := range q.GPUs {
		n += int(g.Count)
	}
	for _, list := range [][]resource.GRES{q.GPUsPerNode, q.GRES} {
		for _, g := range list {
			if g.Name == "gpu" {
				n += int(g.Count) * nodes
			}
		}
	}
	for _, g := range q.GPUsPerTask {
		n += int(g.Count) * max(q.NTasks, 1)
	}
	return n
}

// fillTRES prints the TRES strings scontrol shows.
func (c *Controller) fillTRES(j *api.Job, r *jobRecord) {
	q := r.Req
	j.TRESPerNode = resource.FormatTRESPer(append(append([]resource.GRES{}, q.GRES...), q.GPUsPerNode...))
	if !q.GPUsFromTasks { // Slurm does not show what --ntasks-per-gpu derived
		j.TRESPerJob = resource.FormatTRESPer(q.GPUs)
	}
	j.NTasksPerTRES = q.NTasksPerGPU
	j.TRESPerTask = resource.FormatTRESPer(q.GPUsPerTask)
	// A pending job's TRES count the nodes it asked for (-N's minimum,
	// or its -w nodes), not the nodes its CPUs are shown to need: the
	// peer shows held -n65 and -n4 --ntasks-per-node=2 jobs with
	// NumNodes=2 but node=1 (and --mem=2G -n65 as mem=2G).
	nodes := j.NodeCount
	if len(r.St.Alloc) == 0 {
		nodes = max(q.MinNodes, 1)
	}
	mem := c.jobMemory(r, nodes, j.CPUs, j.GPUs)
	req := resource.TRES{}
	req.Set(resource.TRESCPU, int64(j.CPUs))
	req.Set(resource.TRESMem, mem)
	req.Set(resource.TRESNode, int64(nodes))
	cs := c.confNow()
	cs.gpuTRES.add(&req, requestGPUType(q), j.GPUs) // tres_gres.go
	addLicenseTRES(cs.conf, &req, q.Licenses)       // tres_license.go
	setBilling(cs.conf, &req, jobPartition(r))      // billing.go
	if len(r.St.Alloc) > 0 {
		j.TRESAllocStr = req.String()
		var want resource.TRES
		want.Set(resource.TRESCPU, int64(max(j.Tasks*j.CPUsPerTask, 1)))
		want.Set(resource.TRESMem, mem)
		want.Set(resource.TRESNode, int64(max(q.MinNodes, 1)))
		cs.gpuTRES.add(&want, requestGPUType(q), j.GPUs)
		addLicenseTRES(cs.conf, &want, q.Licenses)
		setBilling(cs.conf, &want, jobPartition(r))
		j.TRESReqStr = want.String()
		return
	}
	j.TRESReqStr = req.String()
}

// jobMemory is the job's memory in MB: what it holds when running, what
// it asks for (or the cluster default per CPU) when pending.
func (c *Controller) jobMemory(r *jobRecord, nodes, cpus, gpus int) int64 {
	if len(r.St.Alloc) > 0 {
		var m int64
		for _, a := range r.St.Alloc {
			m += a.Memory
		}
		return m
	}
	q := r.Req
	switch {
	case q.MemPerNode != nil && *q.MemPerNode == 0: // --mem=0: the whole of the smallest node
		return c.smallestMemory(r.St.Partition) * int64(nodes)
	case q.MemPerNode != nil:
		return *q.MemPerNode * int64(nodes)
	case q.MemPerCPU != nil:
		return *q.MemPerCPU * int64(cpus)
	case q.MemPerGPU != nil && gpus > 0:
		return *q.MemPerGPU * int64(gpus)
	}
	perCPU, perNode := defaultMemory(c.confNow().conf, r.St.Partition) // memlimits.go
	if perNode > 0 {
		return perNode * int64(nodes)
	}
	return perCPU * int64(cpus)
}

// smallestMemory is the least RealMemory of partition's nodes, what
// --mem=0 asks for on each node.
func (c *Controller) smallestMemory(partition string) int64 {
	conf := c.confNow().conf
	p, ok := conf.Partition(partition)
	if !ok {
		return 0
	}
	var least int64
	for _, name := range p.Nodes {
		if n, ok := conf.Node(name); ok && (least == 0 || n.UsableMemory() < least) {
			least = n.UsableMemory() // RealMemory less MemSpecLimit
		}
	}
	return least
}

// defaultMemPerCPU is the DefMemPerCPU a job without --mem or
// --mem-per-cpu gets at submit, as slurmctld sets it (squeue %m and
// scontrol's MinMemoryCPU show it, --mem-per-gpu jobs included until
// they start): its
// partition's, else the cluster's; 0 when a per-GPU default applies.
func (c *Controller) defaultMemPerCPU(r *jobRecord) int64 {
	q := r.Req
	if q.MemPerNode != nil || q.MemPerCPU != nil {
		return 0
	}
	if q.MemPerGPU != nil && r.St.Start != 0 {
		return 0 // once started the peer shows MinMemoryNode=0
	}
	conf := c.confNow().conf
	def, defGPU := conf.DefMemPerCPU, conf.DefMemPerGPU
	if p, ok := conf.Partition(r.St.Partition); ok {
		def, defGPU = p.DefMemPerCPU, p.DefMemPerGPU
	}
	if q.MemPerGPU == nil && defGPU > 0 && requestedGPUs(q, 1) > 0 {
		return 0
	}
	return def
}

func allocNodes(alloc []api.NodeAllocation) string {
	if len(alloc) == 0 {
		return ""
	}
	names := make([]string, len(alloc))
	for i, a := range alloc {
		names[i] = a.Node
	}
	return hostlist.Compress(names)
}

// gresDetail prints scontrol -d's per-node GRES: "gpu:2(IDX:0-1)".
func gresDetail(alloc []api.NodeAllocation) []string {
	var out []string
	for _, a := range alloc {
		if len(a.GPUs) == 0 {
			continue
		}
		out = append(out, fmt.Sprintf("gpu:%d(IDX:%s)", len(a.GPUs), job.FormatRanges(a.GPUs)))
	}
	return out
}

// commandOf is scontrol's Command=: the script path, or "(null)" for a
// script read from stdin or --wrap.
func commandOf(q *job.Request) string {
	if len(q.Argv) == 0 {
		return ""
	}
	return strings.Join(q.Argv, " ")
}

// fillLoam adds Loam's user-view fields (R13).
func (c *Controller) fillLoam(j *api.Job, r *jobRecord) {
	j.Tenant = r.St.Account
	if r.pending() {
		j.QueuePosition, j.EstimatedStart = r.plan.Position, unix(c.obs.est.startOf(r))
	}
	if p, ok := c.confNow().parts[r.St.Partition]; ok {
		j.QueueClass = string(p.QueueClass)
	}
	if r.pending() && r.resv != nil {
		j.SchedNodes = resvNodes(r.resv.Held)
	}
	st := &r.St
	j.Preemptions, j.PreemptedBy, j.PreemptReason, j.Checkpoint, j.LostRunTime =
		st.Preemptions, st.PreemptBy, st.PreemptReason, st.Checkpoint, st.LostRun
}

func (c *Controller) reservationOf(r *jobRecord) *api.SchedReservation {
	if r.resv == nil {
		return nil
	}
	rv := r.resv
	return &api.SchedReservation{Created: unix(rv.Created), PlannedStart: unix(rv.PlannedStart),
		Expires: unix(rv.Expires), Nodes: resvNodes(rv.Held), Held: rv.Held, Awaiting: rv.Awaiting}
}

// resvNodes is the host list of a reservation's nodes.
func resvNodes(held []api.NodeAllocation) string {
	if len(held) == 0 {
		return ""
	}
	names := make([]string, len(held))
	for i, a := range held {
		names[i] = a.Node
	}
	return hostlist.Compress(names)
}
