package controller

import (
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/job"
	"github.com/loamhpc/loam/pkg/slurmconf"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// slurm.conf limits that change a job's fate: DisableRootJobs and
// EnforcePartLimits=ALL at submit, OverTimeLimit while the job runs.
// Loam's admission checks (admission.go) already refuse at submit a job
// no candidate partition's limits allow, whatever EnforcePartLimits says
// (Slurm with NO lets it pend as PartitionTimeLimit, PartitionNodeLimit),
// with a detail. ANY and ALL refuse first, as Slurm does, with Slurm's
// words alone; ALL also refuses a job one of its partitions (-p a,b)
// does not allow.

// checkRootJobs refuses root's job where DisableRootJobs is set: the
// cluster's key refuses it everywhere, a partition's drops the partition.
// Slurm answers with ESLURM_USER_ID_MISSING, the peer's "Invalid user id".
func checkRootJobs(cs *confState, a *admitted) *api.Error {
	if a.req.UserID != 0 {
		return nil
	}
	refused := &api.Error{Code: api.CodeUserIDMissing, Message: api.NewError(api.CodeUserIDMissing).Message, NoID: true}
	if cs.conf.DisableRootJobs {
		return refused
	}
	return narrow(a, func(p *slurmconf.Partition) *api.Error {
		if p.DisableRootJobs {
			return refused
		}
		return nil
	}, cs)
}

// checkEnforce refuses at submit, with EnforcePartLimits=ALL or ANY, a
// job that breaks its partitions' limits: with ALL those of any one of
// them (-p a,b), with ANY those of every one. The limits are a time limit
// over MaxTime, a node count outside MinNodes-MaxNodes and a QOS the
// partition does not allow. The refusal carries Slurm's words alone and,
// as on the peer, uses up no job id.
func checkEnforce(cs *confState, a *admitted) *api.Error {
	mode := cs.conf.EnforcePartLimits
	if mode != slurmconf.EnforceAll && mode != slurmconf.EnforceAny {
		return nil
	}
	var first *api.Error
	for _, name := range a.partitions {
		p, ok := cs.parts[name]
		if !ok {
			continue
		}
		err := partLimits(cs, a, p)
		switch {
		case err == nil && mode == slurmconf.EnforceAny:
			return nil
		case err != nil && mode == slurmconf.EnforceAll:
			return err
		case err != nil && first == nil:
			first = err
		}
	}
	return first
}

// partLimits checks a against one partition's limits.
func partLimits(cs *confState, a *admitted, p *slurmconf.Partition) *api.Error {
	if err := partLimitsCode(cs, a, p); err != "" {
		return &api.Error{Code: err, Message: api.NewError(err).Message, NoID: true}
	}
	return nil
}

// partLimitsCode is partLimits' refusal code, "" when a fits p's limits.
func partLimitsCode(cs *confState, a *admitted, p *slurmconf.Partition) api.Code {
	if max := durationSeconds(p.MaxTime); a.req.TimeLimit != nil && max != api.UnlimitedSeconds &&
		(a.timeLimit == api.UnlimitedSeconds || a.timeLimit > max) {
		return api.CodeInvalidTimeLimit
	}
	if d, err := demandOf(cs, a, p); err == nil && d.nodes > 0 {
		if p.MaxNodes != slurmconf.Unlimited && p.MaxNodes > 0 && int64(d.nodes) > p.MaxNodes || int64(d.nodes) < p.MinNodes {
			return api.CodeInvalidNodeCount
		}
	}
	if q := a.req.QOS; q != "" && qosBarred(p, q) {
		return api.CodeInvalidQOS
	}
	return memLimitCode(cs, a, p) // memlimits.go: MaxMemPerNode
}

// overTime is how long a job in partition part runs past its time limit
// before its node ends it (OverTimeLimit; slurmtime.Unlimited: never).
func overTime(conf *slurmconf.Config, part string) time.Duration {
	p, _ := conf.Partition(part) // nil when gone: the cluster's value
	return conf.OverTime(p)
}

// enforcedLimit is the time limit a job's nodes enforce: its own plus the
// overtime (UnlimitedSeconds with UNLIMITED overtime). The job keeps its
// own limit everywhere it is shown.
func enforcedLimit(limit int64, over time.Duration) int64 {
	switch {
	case limit <= 0 || limit == api.UnlimitedSeconds:
		return limit
	case over == slurmtime.Unlimited:
		return api.UnlimitedSeconds
	}
	return limit + int64(over/time.Second)
}

// enforcedSignal moves --signal's warning by the overtime, so it still
// comes its seconds before the job's own time limit (Slurm times it from
// the limit, not from the end of the overtime). A reservation-timed
// warning (R:) is left alone.
func enforcedSignal(s *job.Signal, over time.Duration) *job.Signal {
	if s == nil || s.Reservation || over <= 0 || over == slurmtime.Unlimited {
		return s
	}
	out := *s
	out.Seconds += int(over / time.Second)
	return &out
}

// overTimeMinutes is a partition's own OverTimeLimit for the API.
func overTimeMinutes(d time.Duration) *int64 {
	switch d {
	case slurmconf.OverTimeInherit:
		return nil
	case slurmtime.Unlimited:
		v := int64(api.UnlimitedSeconds)
		return &v
	}
	v := int64(d / time.Minute)
	return &v
}

// enforcedEnd is when r's nodes end it: the end of its time limit
// (runEnd: suspended time does not count) plus the overtime; false when
// nothing ends it for its time.
func enforcedEnd(conf *slurmconf.Config, r *jobRecord) (time.Time, bool) {
	end, ok := runEnd(r)
	over := overTime(conf, r.St.Partition)
	if !ok || over == slurmtime.Unlimited {
		return time.Time{}, false
	}
	return end.Add(over), true
}
