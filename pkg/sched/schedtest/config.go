package schedtest

import (
	"github.com/loamhpc/loam/pkg/sched"
)

// Unlimited is a TRES limit that does not apply.
var Unlimited = sched.TRES{CPU: -1, MemMB: -1, GPU: -1, Node: -1}

// PartitionBuilder builds an up partition of class normal, tier 1, with
// one reservation, one-hour default time.
type PartitionBuilder struct{ p sched.Partition }

// Partition starts a partition over the host list nodes.
func Partition(name, nodes string) *PartitionBuilder {
	return &PartitionBuilder{p: sched.Partition{Name: name, Nodes: []string{nodes}, Up: true, Tier: 1,
		JobFactor: 1, ReservationDepth: 1, DefaultTime: Dur("1h")}}
}

func (b *PartitionBuilder) Class(c sched.QueueClass) *PartitionBuilder { b.p.Class = c; return b }
func (b *PartitionBuilder) Tier(t int) *PartitionBuilder               { b.p.Tier = t; return b }
func (b *PartitionBuilder) JobFactor(f int) *PartitionBuilder          { b.p.JobFactor = f; return b }
func (b *PartitionBuilder) Down() *PartitionBuilder                    { b.p.Up = false; return b }
func (b *PartitionBuilder) MaxTime(d string) *PartitionBuilder         { b.p.MaxTime = Dur(d); return b }
func (b *PartitionBuilder) DefaultTime(d string) *PartitionBuilder {
	b.p.DefaultTime = Dur(d)
	return b
}
func (b *PartitionBuilder) MaxNodes(n int) *PartitionBuilder { b.p.MaxNodes = n; return b }
func (b *PartitionBuilder) Aging(rate, maxv float64) *PartitionBuilder {
	b.p.AgingRate, b.p.AgingCap = rate, maxv
	return b
}
func (b *PartitionBuilder) Depth(n int) *PartitionBuilder { b.p.ReservationDepth = n; return b }
func (b *PartitionBuilder) Timeout(timeout, cooldown string) *PartitionBuilder {
	b.p.ReservationTimeout, b.p.ReservationCooldown = Dur(timeout), Dur(cooldown)
	return b
}
func (b *PartitionBuilder) Strict() *PartitionBuilder { b.p.Strict = true; return b }
func (b *PartitionBuilder) Preempt(m sched.PreemptMode, grace string) *PartitionBuilder {
	b.p.PreemptMode, b.p.GraceTime = m, Dur(grace)
	return b
}
func (b *PartitionBuilder) Allow(accounts ...string) *PartitionBuilder {
	b.p.AllowAccounts = accounts
	return b
}
func (b *PartitionBuilder) Deny(accounts ...string) *PartitionBuilder {
	b.p.DenyAccounts = accounts
	return b
}
func (b *PartitionBuilder) Build() sched.Partition { return b.p }

// TenantBuilder builds a tenant of weight 1 with no guarantee and no limits
// (every limit Unlimited).
type TenantBuilder struct{ t sched.Tenant }

// Tenant starts a tenant.
func Tenant(name string) *TenantBuilder {
	return &TenantBuilder{t: sched.Tenant{Name: name, Weight: 1, Cap: Unlimited, BorrowLimit: Unlimited,
		LendLimit: Unlimited, MaxPerUser: Unlimited, MaxJobsPerUser: sched.Unlimited,
		MaxSubmitJobsPerUser: sched.Unlimited, GrpJobs: sched.Unlimited}}
}

func (b *TenantBuilder) Weight(w float64) *TenantBuilder  { b.t.Weight = w; return b }
func (b *TenantBuilder) Guarantee(g int64) *TenantBuilder { b.t.Guarantee.GPU = g; return b }
func (b *TenantBuilder) Borrow(g int64) *TenantBuilder    { b.t.BorrowLimit.GPU = g; return b }
func (b *TenantBuilder) Lend(g int64) *TenantBuilder      { b.t.LendLimit.GPU = g; return b }
func (b *TenantBuilder) CapGPUs(g int64) *TenantBuilder   { b.t.Cap.GPU = g; return b }
func (b *TenantBuilder) Cap(t sched.TRES) *TenantBuilder  { b.t.Cap = t; return b }
func (b *TenantBuilder) MaxPerUserGPUs(g int64) *TenantBuilder {
	b.t.MaxPerUser.GPU = g
	return b
}
func (b *TenantBuilder) MaxJobsPerUser(n int64) *TenantBuilder { b.t.MaxJobsPerUser = n; return b }
func (b *TenantBuilder) GrpJobs(n int64) *TenantBuilder        { b.t.GrpJobs = n; return b }
func (b *TenantBuilder) Set(f func(*sched.Tenant)) *TenantBuilder {
	f(&b.t)
	return b
}
func (b *TenantBuilder) Build() sched.Tenant { return b.t }

// UserBuilder builds a user of share 1 whose limits fall back to the
// tenant's.
type UserBuilder struct{ u sched.User }

// User starts a user of tenant.
func User(name, tenant string) *UserBuilder {
	return &UserBuilder{u: sched.User{Name: name, Tenant: tenant, Share: 1, Max: Unlimited,
		MaxJobs: sched.Unlimited, MaxSubmitJobs: sched.Unlimited}}
}

func (b *UserBuilder) Share(s float64) *UserBuilder { b.u.Share = s; return b }
func (b *UserBuilder) MaxGPUs(g int64) *UserBuilder { b.u.Max.GPU = g; return b }
func (b *UserBuilder) MaxJobs(n int64) *UserBuilder { b.u.MaxJobs = n; return b }
func (b *UserBuilder) Set(f func(*sched.User)) *UserBuilder {
	f(&b.u)
	return b
}
func (b *UserBuilder) Build() sched.User { return b.u }

// Config returns a Loam config with Slurm-like weights: age 1000, fair
// share 1000, job size 0, partition 1000, QOS 0, compensation 100 per hour
// lost, a 7-day half-life.
func Config() sched.Config {
	return sched.Config{
		Policy: sched.PolicyLoam,
		Priority: sched.PriorityConfig{WeightAge: 1000, WeightFairshare: 1000, WeightPartition: 1000,
			WeightCompensation: 100, MaxAge: Dur("7d"), DecayHalfLife: Dur("7d")},
	}
}
