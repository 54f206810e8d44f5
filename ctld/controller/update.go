package controller

import (
	"context"
	"strings"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/loamhpc/loam/pkg/hostlist"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/resource"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// handleUpdate is scontrol update job: every change applies to every
// listed job, all or nothing per job.
func (c *Controller) handleUpdate(ctx context.Context, id auth.Identity, body []byte) (any, *api.Error) {
	var in api.UpdateRequest
	if err := decode(body, &in); err != nil {
		return nil, err
	}
	if in.Update.Empty() {
		return nil, api.Errorf(api.CodeBadRequest, "nothing to update")
	}
	op := c.isOperator(id)
	return c.runOp(ctx, id, filterSpec{JobIDs: in.JobIDs, NotOwner: api.CodeUserIDMissing, FinishedFirst: true}, c.eachSplitTask(func(b *batch, r *jobRecord) *api.Error {
		return c.updateJob(b, r, &in.Update, op)
	}))
}

// updateJob checks every change first, then applies them together.
func (c *Controller) updateJob(b *batch, r *jobRecord, u *api.JobUpdate, operator bool) *api.Error {
	if err := refuseBurstBuffer(r, u, operator); err != nil { // update_recorded.go
		return err
	}
	if r.finished() {
		return api.NewError(api.CodeJobFinished)
	}
	next := *r.Req // copy-on-write: array tasks share the request
	st := r.St
	steps := []func() *api.Error{
		func() *api.Error { return c.updateSiteKeys(r, &st, u, operator) }, // update_layout.go
		func() *api.Error { return c.updateTimes(r, &st, u, operator) },
		func() *api.Error { return c.updatePriority(r, &st, u, operator) }, // fixed_priority.go
		func() *api.Error { return c.updatePendingOnly(r, &next, &st, u) },
		func() *api.Error { return updateAnytime(&next, &st, u) },
		func() *api.Error { return c.updateJobResv(r, &next, &st, u) }, // advresv_job.go
		func() *api.Error { return c.updateJobLicenses(r, &next, u) },  // licenses.go
		func() *api.Error { return c.updateSwitches(&next, u) },        // switches.go
		func() *api.Error { return updateContiguous(r, &next, u, operator) },
		func() *api.Error { return updateNodeUse(r, &next, u, operator) },          // update_recorded.go
		func() *api.Error { return updateTres(&next, u) },                          // update_recorded.go
		func() *api.Error { return c.updateAdminKeys(r, &next, &st, u, operator) }, // update_admin.go
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return c.commitUpdate(b, r, &next, st, u)
}

// updateContiguous is Contiguous=, for pending jobs as in Slurm: anyone
// may clear --contiguous, only operators may set it.
func updateContiguous(r *jobRecord, q *job.Request, u *api.JobUpdate, operator bool) *api.Error {
	if u.Contiguous == nil {
		return nil
	}
	if !r.pending() {
		return api.NewError(api.CodeJobNotPending)
	}
	on := *u.Contiguous != 0
	if on && !q.Contiguous && !operator {
		return api.Errorf(api.CodeAccessDenied, "only operators may set Contiguous")
	}
	q.Contiguous = on
	return nil
}

// updateTimes: users may shorten a time limit, and raise a pending job's
// up to its partition's MaxTime (slurmctld's _update_job: the peer lets a
// user take a held -t 10 job to 20); operators may do anything.
func (c *Controller) updateTimes(r *jobRecord, st *jobStatus, u *api.JobUpdate, operator bool) *api.Error {
	if u.TimeLimit != nil {
		lim := *u.TimeLimit
		if lim == 0 || lim < api.UnlimitedSeconds {
			return api.Errorf(api.CodeInvalidTimeLimit, "time limit %d", lim)
		}
		longer := st.TimeLimit != api.UnlimitedSeconds && (lim == api.UnlimitedSeconds || lim > st.TimeLimit)
		if longer && !operator && !(r.pending() && c.withinMaxTime(st.Partition, lim)) {
			return api.Errorf(api.CodeAccessDenied, "only operators may raise a time limit")
		}
		st.TimeLimit = lim
	}
	if u.Deadline != nil {
		st.Deadline = *u.Deadline
	}
	if u.BeginTime != nil {
		if !r.pending() {
			return api.NewError(api.CodeJobNotPending)
		}
		st.Begin = *u.BeginTime
	}
	return nil
}

// updatePendingOnly applies the changes Slurm allows only before a job
// starts.
func (c *Controller) updatePendingOnly(r *jobRecord, q *job.Request, st *jobStatus, u *api.JobUpdate) *api.Error {
	touched := u.Partition != nil || u.Account != nil || u.QOS != nil || u.Dependency != nil ||
		u.NumTasks != nil || u.CPUsPerTask != nil || u.MinCPUsNode != nil || u.NumCPUs != nil || u.MaxCPUs != nil ||
		u.TasksPerNode != nil ||
		featuresChange(r, u) || preferChange(r, u) ||
		u.ExcludedNodes != nil || u.GRES != nil || u.StdOut != nil || u.StdErr != nil ||
		u.MemPerCPU != nil || u.MemPerNode != nil || u.MinTmpDisk != nil || layoutTouched(u)
	if !r.pending() {
		if touched {
			return api.NewError(api.CodeJobNotPending)
		}
		// The throttle is the array's: a started task takes it without
		// complaint, as in Slurm ("update jobid=12 ArrayTaskThrottle=3"
		// with tasks running answers nothing).
		if u.ArrayMaxTasks != nil && st.ArrayJobID != 0 && *u.ArrayMaxTasks >= 0 {
			st.Throttle = *u.ArrayMaxTasks
		}
		if err := c.runningNodeList(r, u); err != nil { // update_shape.go
			return err
		}
		return c.runningNodeCount(r, u)
	}
	if !touched && u.RequiredNodes == nil && u.MinNodes == nil && u.ArrayMaxTasks == nil {
		return nil
	}
	if err := updateShape(q, u); err != nil {
		return err
	}
	if err := updateLayout(q, u); err != nil { // update_layout.go
		return err
	}
	setStr := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	setStr(&q.QOS, u.QOS)
	setStr(&q.NodeList, u.RequiredNodes)
	setStr(&q.Exclude, u.ExcludedNodes)
	setStr(&q.StdOut, u.StdOut)
	q.DefaultOutput = q.DefaultOutput && u.StdOut == nil // a name given now is the user's
	setStr(&q.StdErr, u.StdErr)
	if u.GRES != nil {
		g, err := resource.ParseGRES(*u.GRES)
		if err != nil {
			return api.Errorf(api.CodeInvalidGRES, "%v", err)
		}
		// Gres= is slurmctld's whole TresPerNode: it replaces GPUs a node
		// given as --gpus-per-node too (the peer shows gres:gpu:4 alone
		// after Gres=gpu:4 on a --gpus-per-node=2 job).
		oldGRES, oldPerNode := q.GRES, q.GPUsPerNode
		if q.GRES, q.GPUsPerNode = g, nil; !gpusSplit(q) { // update_layout.go
			q.GRES, q.GPUsPerNode = oldGRES, oldPerNode
			return api.NewError(api.CodeInvalidGRES)
		}
	}
	if u.ArrayMaxTasks != nil && st.ArrayJobID != 0 { // Slurm ignores it on other jobs
		if *u.ArrayMaxTasks < 0 {
			return api.Errorf(api.CodeBadRequest, "ArrayTaskThrottle %d", *u.ArrayMaxTasks)
		}
		st.Throttle = *u.ArrayMaxTasks
	}
	if u.Partition != nil {
		q.Partitions = strings.Split(*u.Partition, ",")
	}
	if u.Account != nil {
		q.Account = *u.Account
	}
	return c.readmit(r, q, st, u)
}

// readmit re-runs the submit checks a pending-only change affects.
func (c *Controller) readmit(r *jobRecord, q *job.Request, st *jobStatus, u *api.JobUpdate) *api.Error {
	cs := c.confNow()
	if err := updateNodeTests(cs, q, u); err != nil { // update_nodetests.go
		return err
	}
	a := &admitted{req: withoutNodeTests(q)}
	for _, step := range []func() *api.Error{
		func() *api.Error { return admitPartitions(cs, a) },
		func() *api.Error {
			if u.Partition == nil {
				return nil
			}
			// The job's user must be let into the new partitions; the
			// peer answers with this code (and moves the job anyway).
			a.groups = c.users.identity(q.UserID, q.GroupID, c.now()).Groups
			if err := c.admitGroups(cs, a); err != nil {
				return api.NewError(api.CodePartConfigUnavailable)
			}
			return nil
		},
		func() *api.Error { return admitAccount(cs, a) },
		func() *api.Error { return admitShape(cs, a) },
		func() *api.Error { return checkCapacity(cs, a) },
	} {
		if err := step(); err != nil {
			return err
		}
	}
	q.Partitions, q.Account = a.partitions, a.account
	st.Partitions, st.Partition, st.Account = a.partitions, a.partitions[0], a.account
	if u.Dependency != nil {
		d, err := job.ParseDependency(*u.Dependency)
		if err != nil {
			return dependencyRefusal(*u.Dependency) // admission_depend.go
		}
		if err := c.checkDependencyTargets(d); err != nil {
			return err
		}
		if c.selfDependency(d, r) { // deps_update.go
			return api.NewError(api.CodeDependency)
		}
		if c.dependsOn(d, r.ID, map[uint32]bool{}) {
			return api.NewError(api.CodeCircularDependency)
		}
		q.Dependency, st.Dep = *u.Dependency, nil
		if len(d.Deps) > 0 {
			st.Dep = d
		}
	}
	return nil
}

// dependsOn reports whether a job with dependency d would wait, directly
// or not, on job id (a cycle).
func (c *Controller) dependsOn(d *job.Dependency, id uint32, seen map[uint32]bool) bool {
	if d == nil {
		return false
	}
	for _, dep := range d.Deps {
		if dep.Type == job.Singleton {
			continue
		}
		if dep.JobID == id {
			return true
		}
		for _, t := range c.targets(dep.JobID, dep.Task) {
			if t.ID == id || t.St.ArrayJobID == id {
				return true
			}
			if !seen[t.ID] {
				seen[t.ID] = true
				if c.dependsOn(t.St.Dep, id, seen) {
					return true
				}
			}
		}
	}
	return false
}

// updateAnytime applies changes allowed at any time.
func updateAnytime(q *job.Request, st *jobStatus, u *api.JobUpdate) *api.Error {
	if u.Name != nil {
		q.Name = *u.Name
	}
	if u.Comment != nil {
		q.Comment = *u.Comment
	}
	if u.MailUser != nil {
		q.MailUser = *u.MailUser
	}
	if u.MailType != nil {
		mt, err := job.ParseMailType(*u.MailType)
		if err != nil {
			return api.Errorf(api.CodeBadRequest, "%v", err)
		}
		q.MailType = mt
	}
	if u.Requeue != nil {
		st.Requeue = *u.Requeue
		q.Requeue = u.Requeue
	}
	if u.TimeMinimum != nil {
		d := time.Duration(*u.TimeMinimum) * time.Second
		q.TimeMin = &d
	}
	if u.TimeLimit != nil {
		d := slurmtime.Unlimited
		if *u.TimeLimit > 0 {
			d = time.Duration(*u.TimeLimit) * time.Second
		}
		q.TimeLimit = &d
	}
	return nil
}

// commitUpdate swaps in the new request and status, tells the engine and
// the nodes, and persists.
func (c *Controller) commitUpdate(b *batch, r *jobRecord, q *job.Request, st jobStatus, u *api.JobUpdate) *api.Error {
	renamed := q.Name != r.Req.Name
	if renamed {
		c.nameIndexRemove(r)
		if r.running() {
			c.runningByName[singletonKey(r)]--
		}
	}
	r.Req, r.reqBlob, r.St = q, nil, st
	if renamed {
		c.nameIndexAdd(r)
		if r.running() {
			c.runningByName[singletonKey(r)]++
		}
	}
	c.deps.add(r)
	if r.pending() {
		if err := c.eng.Update(c.engineJob(r)); err != nil {
			return api.Errorf(api.CodeInternal, "scheduler refused the update of job %d: %v", r.ID, err)
		}
		if u.Dependency != nil {
			c.resetDependency(r) // deps_update.go
		}
		r.St.Reason = initialReason(r)
		c.schedule()
	}
	if r.running() && u.RequiredNodes != nil {
		kept, _ := hostlist.Expand(*u.RequiredNodes) // checked by runningNodeList
		c.shrinkTo(b, r, kept)                       // update_shape.go
	}
	if r.running() && u.MinNodes != nil {
		c.shrinkRunning(b, r, *u.MinNodes) // update_shape.go
	}
	if r.running() && (u.TimeLimit != nil || u.EndTime != nil) { // update_admin.go: EndTime moves the limit
		over := overTime(c.confNow().conf, r.St.Partition) // limits.go: OverTimeLimit
		req := api.TimeLimitRequest{JobID: r.ID, TimeLimit: enforcedLimit(r.St.TimeLimit, over)}
		for _, t := range c.nodeTargets(r) {
			b.sends = append(b.sends, func() {
				c.sendQuiet(t, func(ctx contextT) error { _, err := c.noded.TimeLimit(ctx, t.addr, &req); return err })
			})
		}
	}
	if r.St.Deadline != 0 {
		c.deadlines[r.ID] = true
	}
	b.persist(c.persistJob(r))
	c.log.WithField("job_id", r.ID).Debug("job updated")
	return nil
}

// withinMaxTime reports whether a time limit of lim seconds is no more
// than partition part's MaxTime.
func (c *Controller) withinMaxTime(part string, lim int64) bool {
	p, ok := c.confNow().conf.Partition(part)
	if !ok {
		return false
	}
	max := durationSeconds(p.MaxTime)
	return max == api.UnlimitedSeconds || (lim != api.UnlimitedSeconds && lim <= max)
}
