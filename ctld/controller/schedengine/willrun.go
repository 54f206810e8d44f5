package schedengine

import (
	"time"

	"github.com/loamhpc/loam/pkg/sched"
)

// Slurm's will-run test (sbatch --test-only) ignores association limits:
// it says when and where the job could start on the resources alone. The
// estimate does the same for the job under test when a limit is what
// stops it: one more pass runs with every tenant and user limit lifted,
// without the other jobs that the limits hold back (in the live cluster
// they stay where they are, so they must not take the nodes in the
// estimate either).

// willRunPlan is the pass that places job id (just submitted to the
// cluster) at now.
func (e *Engine) willRunPlan(id sched.JobID, now time.Time) *sched.Plan {
	plan := e.sched.Cycle(e.cl.Snapshot(now))
	held := map[sched.JobID]bool{}
	blocked := false
	for _, p := range plan.Pending {
		if !limitReason(p.Reason) {
			continue
		}
		if p.Job == id {
			blocked = true
		} else {
			held[p.Job] = true
		}
	}
	if !blocked {
		return plan
	}
	snap := e.cl.Snapshot(now)
	pending := make([]sched.PendingJob, 0, len(snap.Pending))
	for _, pj := range snap.Pending {
		if !held[pj.ID] {
			pending = append(pending, pj)
		}
	}
	snap.Pending = pending
	return sched.New(withoutLimits(e.cl.Config())).Cycle(snap)
}

// limitReason reports whether a job waits for a tenant's or a user's
// limit rather than for resources (the elastic pool shows as
// AssocGrpGRES).
func limitReason(r sched.Reason) bool {
	switch r {
	case sched.ReasonQOSMaxGRESPerUser, sched.ReasonQOSMaxCPUPerUser, sched.ReasonQOSMaxMemPerUser,
		sched.ReasonQOSMaxNodePerUser, sched.ReasonAssocGrpGRES, sched.ReasonAssocGrpCPU, sched.ReasonAssocGrpMem,
		sched.ReasonAssocGrpNode, sched.ReasonAssocMaxJobs, sched.ReasonAssocGrpJobs:
		return true
	}
	return false
}

// withoutLimits is cfg with every tenant and user limit unlimited; the
// tenants, their guarantees and the users' shares stay, so priorities
// and ownership are computed as in the live pass.
func withoutLimits(cfg sched.Config) sched.Config {
	none := sched.TRES{CPU: sched.Unlimited, MemMB: sched.Unlimited, GPU: sched.Unlimited, Node: sched.Unlimited}
	tenants := make([]sched.Tenant, len(cfg.Tenants))
	for i, t := range cfg.Tenants {
		t.Cap, t.BorrowLimit, t.LendLimit, t.MaxPerUser = none, none, none, none
		t.MaxJobsPerUser, t.MaxSubmitJobsPerUser, t.GrpJobs = sched.Unlimited, sched.Unlimited, sched.Unlimited
		tenants[i] = t
	}
	users := make([]sched.User, len(cfg.Users))
	for i, u := range cfg.Users {
		u.Max, u.MaxJobs, u.MaxSubmitJobs = none, sched.Unlimited, sched.Unlimited
		users[i] = u
	}
	cfg.Tenants, cfg.Users = tenants, users
	return cfg
}
