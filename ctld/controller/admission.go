package controller

import (
	"slices"
	"strings"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/slurmconf"
	"github.com/loamhpc/loam/pkg/slurmtime"
)

// Loam's admission pre-checks (R1) refuse at submit what could never run,
// where Slurm accepts the job and lets it pend forever or fail at start:
// an account the user has no line for, a QOS nobody defined, a time limit,
// node count, CPU or GPU count beyond every candidate partition, a job
// larger than its tenant's or user's hard caps, paths the user cannot use,
// storage the partition needs but no node mounts, a user already at
// MaxSubmitJobs. They run after Slurm's own submit checks (admit.go), so
// what Slurm refuses keeps Slurm's message. Each check narrows the
// candidate partitions; a job is refused when none is left, with the
// first partition's reason.
//
// The checks that read live state (submitted jobs, node reports) run under
// the controller's lock: preCheckLive.

// preCheck runs the configuration-only checks on an admitted job, in
// order: association, QOS, time limit, capacity, caps, paths.
func (c *Controller) preCheck(cs *confState, a *admitted) *api.Error {
	steps := []func() *api.Error{
		func() *api.Error { return checkRootJobs(cs, a) }, // limits.go
		func() *api.Error { return checkEnforce(cs, a) },  // limits.go
		func() *api.Error { return checkAssociation(cs, a) },
		func() *api.Error { return checkQOS(cs, a) },
		func() *api.Error { return checkTimeLimit(cs, a) },
		func() *api.Error { return checkCapacity(cs, a) },
		func() *api.Error { return checkCaps(cs, a) },
		func() *api.Error { return checkPaths(a, statPath) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	return nil
}

// checkAssociation refuses, when tenants.conf exists, a user without a
// line in it (as Slurm refuses a user without an association when it
// enforces them), and partitions the tenant's Partitions= leaves out.
func checkAssociation(cs *confState, a *admitted) *api.Error {
	conf := cs.conf
	if len(conf.Tenants) == 0 {
		return nil
	}
	if _, ok := conf.User(a.req.UserName); !ok {
		return api.Errorf(api.CodeInvalidAccount, "user %s has no line in tenants.conf: ask an administrator for an account", a.req.UserName)
	}
	if a.account == "" {
		return api.Errorf(api.CodeInvalidAccount, "user %s has no default account in tenants.conf: give --account", a.req.UserName)
	}
	t, ok := conf.Tenant(a.account)
	if !ok || t.Partitions == nil {
		return nil
	}
	return narrow(a, func(p *slurmconf.Partition) *api.Error {
		if slices.Contains(t.Partitions, p.Name) {
			return nil
		}
		return api.Errorf(api.CodeInvalidAccount, "tenant %s may not use partition %s (tenants.conf Partitions=%s)",
			t.Name, p.Name, strings.Join(t.Partitions, ","))
	}, cs)
}

// knownQOS is the QOS every Slurm cluster has.
const knownQOS = "normal"

// checkQOS refuses a QOS no partition names (Slurm without a database
// accepts any name and ignores it) and partitions whose AllowQOS or
// DenyQOS exclude the job's.
func checkQOS(cs *confState, a *admitted) *api.Error {
	q := strings.ToLower(a.req.QOS)
	if q == "" {
		return nil
	}
	known := q == knownQOS
	for i := range cs.conf.Partitions {
		p := &cs.conf.Partitions[i]
		known = known || containsFold(p.AllowQOS, q) || containsFold(p.DenyQOS, q)
	}
	if !known {
		return api.Errorf(api.CodeInvalidQOS, "no QOS %q is defined (known: %s and those partitions name in AllowQos/DenyQos)", a.req.QOS, knownQOS)
	}
	return narrow(a, func(p *slurmconf.Partition) *api.Error {
		if qosBarred(p, q) {
			return api.Errorf(api.CodeInvalidQOS, "QOS %s may not use partition %s", q, p.Name)
		}
		return nil
	}, cs)
}

// qosBarred reports whether partition p's AllowQos or DenyQos keep out
// jobs of QOS q.
func qosBarred(p *slurmconf.Partition, q string) bool {
	return p.AllowQOS != nil && !containsFold(p.AllowQOS, q) && !containsFold(p.AllowQOS, "all") || containsFold(p.DenyQOS, q)
}

func containsFold(list []string, s string) bool {
	return slices.ContainsFunc(list, func(x string) bool { return strings.EqualFold(x, s) })
}

// checkTimeLimit refuses a time limit beyond every candidate partition's
// MaxTime (Slurm pends it as PartitionTimeLimit).
func checkTimeLimit(cs *confState, a *admitted) *api.Error {
	if a.req.TimeLimit == nil {
		return nil // the partition's default applies
	}
	return narrow(a, func(p *slurmconf.Partition) *api.Error {
		max := durationSeconds(p.MaxTime)
		if max == api.UnlimitedSeconds || (a.timeLimit != api.UnlimitedSeconds && a.timeLimit <= max) {
			return nil
		}
		return api.Errorf(api.CodeInvalidTimeLimit, "time limit %s exceeds MaxTime=%s of partition %s",
			formatLimit(a.timeLimit), formatLimit(max), p.Name)
	}, cs)
}

func formatLimit(secs int64) string {
	if secs == api.UnlimitedSeconds {
		return "UNLIMITED"
	}
	return slurmtime.FormatDuration(limitDuration(secs))
}

// narrow keeps the candidate partitions ok accepts; when none is left it
// returns the first partition's refusal.
func narrow(a *admitted, ok func(p *slurmconf.Partition) *api.Error, cs *confState) *api.Error {
	var keep []string
	var first *api.Error
	for _, name := range a.partitions {
		p, found := cs.parts[name]
		if !found {
			continue
		}
		if err := ok(p); err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		keep = append(keep, name)
	}
	if len(keep) == 0 {
		if first == nil {
			first = api.Errorf(api.CodeInvalidPartitionName, "no usable partition")
		}
		return first
	}
	a.partitions = keep
	a.req.Partitions = keep
	return nil
}

// tresCap is a tenant's hard cap on one TRES: GrpTRES, else
// Guarantee+BorrowLimit where a borrow limit is set, else none (-1), as
// tenants.conf(5) defines it.
func tresCap(t *slurmconf.Tenant, k string) int64 {
	if v, ok := t.GrpTRES[k]; ok && v != slurmconf.Unlimited {
		return v
	}
	if b, ok := t.BorrowLimit[k]; ok && b != slurmconf.Unlimited {
		return max(t.Guarantee[k], 0) + b
	}
	return -1
}

// checkCaps refuses a job larger than its tenant's hard cap (GrpTRES) or
// its user's cap inside the tenant: it could never start.
func checkCaps(cs *confState, a *admitted) *api.Error {
	conf := cs.conf
	t, ok := conf.Tenant(a.account)
	if !ok || len(conf.Tenants) == 0 {
		return nil
	}
	ul := conf.UserLimits(a.req.UserName, t.Name)
	return narrow(a, func(p *slurmconf.Partition) *api.Error {
		need, err := demandOf(cs, a, p)
		if err != nil {
			return nil // checkCapacity reports shapes it cannot read
		}
		for _, k := range []string{"gres/gpu", "cpu", "mem", "node"} {
			v := need.get(k)
			if lim := tresCap(t, k); lim >= 0 && v > lim {
				return api.Errorf(api.CodeAccountingPolicy, "the job needs %s=%d: tenant %s's cap is %s=%d", k, v, t.Name, k, lim)
			}
			if lim, ok := ul.TRES[k]; ok && lim != slurmconf.Unlimited && v > lim {
				return api.Errorf(api.CodeAccountingPolicy, "the job needs %s=%d: user %s's cap in tenant %s is %s=%d", k, v, a.req.UserName, t.Name, k, lim)
			}
		}
		return nil
	}, cs)
}
