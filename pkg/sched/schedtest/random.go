package schedtest

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/loamhpc/loam/pkg/sched"
)

// Random builds small random clusters and workloads for property tests:
// every knob of the scheduler is exercised (policies, tiers, classes,
// strict queues, timeouts, preemption, quotas with lending, users' caps,
// topology, node states, features, -w/-x, exclusive, arrays, holds, begin
// times). The same seed gives the same harness.
type Random struct {
	rng  *rand.Rand
	next sched.JobID
	seed uint64
}

// NewRandom returns a generator for seed.
func NewRandom(seed uint64) *Random {
	return &Random{rng: rand.New(rand.NewPCG(seed, 42)), next: 1, seed: seed}
}

// Harness returns a random cluster with some running jobs, some pending.
func (r *Random) Harness(policy sched.Policy) *Harness {
	h := NewHarness(r.config(policy))
	nodes := 3 + r.rng.IntN(10)
	for i := 1; i <= nodes; i++ {
		n := sched.Node{Name: fmt.Sprintf("n%d", i), GPUs: []int{0, 2, 4, 8, 8, 8}[r.rng.IntN(6)],
			CPUs: 16 + 16*r.rng.IntN(4), MemMB: int64(64000 * (1 + r.rng.IntN(4))), Weight: r.rng.IntN(3)}
		if r.rng.IntN(8) == 0 {
			n.State = []sched.NodeState{sched.NodeDrain, sched.NodeDown, sched.NodeReserved}[r.rng.IntN(3)]
		}
		if r.rng.IntN(2) == 0 {
			n.Features = []string{"ib"}
		}
		if r.rng.IntN(3) == 0 {
			n.GPUType = "h100"
		}
		h.Nodes = append(h.Nodes, n)
	}
	all := fmt.Sprintf("n[1-%d]", nodes)
	h.Cfg.Switches = []sched.Switch{{Name: "s1", Nodes: []string{fmt.Sprintf("n[1-%d]", (nodes+1)/2)}},
		{Name: "s2", Nodes: []string{fmt.Sprintf("n[%d-%d]", (nodes+1)/2+1, nodes)}}}
	h.Cfg.Partitions = r.partitions(all)
	for k := r.rng.IntN(6); k > 0; k-- {
		r.placeRunning(h)
	}
	for k := 4 + r.rng.IntN(16); k > 0; k-- {
		r.Submit(h)
	}
	r.windows(h, nodes)
	return h
}

// windows adds admin reservations to some harnesses and puts some pending
// jobs in them. It draws from its own generator, so the rest of a seed's
// harness is what it was before windows existed.
func (r *Random) windows(h *Harness, nodes int) {
	w := rand.New(rand.NewPCG(r.seed, 43))
	for k := w.IntN(3); k > 0; k-- {
		first := 1 + w.IntN(nodes)
		last := min(nodes, first+w.IntN(3))
		start := h.Now.Add(time.Duration(w.IntN(5)-1) * 30 * time.Minute)
		h.AdminReservations = append(h.AdminReservations, sched.AdminReservation{
			Name: fmt.Sprintf("w%d", k), Start: start, End: start.Add(time.Duration(1+w.IntN(4)) * time.Hour),
			Nodes: []string{fmt.Sprintf("n[%d-%d]", first, last)}, Maint: w.IntN(2) == 0})
	}
	if len(h.AdminReservations) == 0 {
		return
	}
	for i := range h.Pending {
		if w.IntN(4) == 0 {
			h.Pending[i].Reservation = h.AdminReservations[w.IntN(len(h.AdminReservations))].Name
		}
	}
}

func (r *Random) config(policy sched.Policy) sched.Config {
	cfg := Config()
	cfg.Policy = policy
	cfg.Priority.WeightJobSize = float64(r.rng.IntN(500))
	cfg.Priority.FavorSmall = r.rng.IntN(2) == 0
	cfg.Priority.MaxQOSPriority = r.rng.IntN(3) * 10
	cfg.Priority.WeightQOS = 100
	cfg.PreemptExemptTime = time.Duration(r.rng.IntN(3)) * 10 * time.Minute
	for t := 0; t < 1+r.rng.IntN(3); t++ {
		name := fmt.Sprintf("t%d", t)
		tb := Tenant(name).Weight(float64(1 + r.rng.IntN(3))).Guarantee(int64(r.rng.IntN(20)))
		if r.rng.IntN(2) == 0 {
			tb.Borrow(int64(r.rng.IntN(16)))
		}
		if r.rng.IntN(2) == 0 {
			tb.Lend(int64(r.rng.IntN(16)))
		}
		if r.rng.IntN(3) == 0 {
			tb.CapGPUs(int64(r.rng.IntN(24))).MaxJobsPerUser(int64(1 + r.rng.IntN(4))).GrpJobs(int64(1 + r.rng.IntN(8)))
		}
		cfg.Tenants = append(cfg.Tenants, tb.Build())
		ub := User("u0", name)
		if r.rng.IntN(4) == 0 {
			ub.MaxGPUs(int64(r.rng.IntN(16)))
		}
		cfg.Users = append(cfg.Users, ub.Build())
	}
	return cfg
}

func (r *Random) partitions(all string) []sched.Partition {
	urgent := Partition("urgent", all).Class(sched.ClassUrgent).Tier(3).Depth(r.rng.IntN(2))
	normal := Partition("normal", all).Tier(2).Depth(r.rng.IntN(3)).Aging(float64(r.rng.IntN(50)), float64(r.rng.IntN(500)))
	batch := Partition("batch", all).Class(sched.ClassBatch).Tier(1).Depth(1+r.rng.IntN(2)).
		Preempt([]sched.PreemptMode{sched.PreemptOff, sched.PreemptRequeue, sched.PreemptCancel}[r.rng.IntN(3)], "5m")
	if r.rng.IntN(2) == 0 {
		normal.Timeout("1h", "30m")
	}
	if r.rng.IntN(3) == 0 {
		batch.Strict()
	}
	if r.rng.IntN(4) == 0 {
		normal.MaxTime("8h")
	}
	return []sched.Partition{urgent.Build(), normal.Build(), batch.Build()}
}

// placeRunning starts a random job on free GPUs of one node, if any.
func (r *Random) placeRunning(h *Harness) {
	n := &h.Nodes[r.rng.IntN(len(h.Nodes))]
	if n.State == sched.NodeDown || n.GPUs == 0 {
		return
	}
	used := map[int]bool{}
	cpus := 0
	for _, rj := range h.Running {
		for _, a := range rj.Alloc {
			if a.Node == n.Name {
				cpus += a.CPUs
				for _, g := range a.GPUs {
					used[g] = true
				}
			}
		}
	}
	var gpus []int
	want := 1 + r.rng.IntN(n.GPUs)
	for g := 0; g < n.GPUs && len(gpus) < want; g++ {
		if !used[g] {
			gpus = append(gpus, g)
		}
	}
	if len(gpus) == 0 || cpus+len(gpus) > n.CPUs {
		return
	}
	id := r.next
	r.next++
	tenant := fmt.Sprintf("t%d", r.rng.IntN(len(h.Cfg.Tenants)))
	rj := Running(fmt.Sprintf("j%d", id)).Partition([]string{"normal", "batch"}[r.rng.IntN(2)]).Tenant(tenant).User("u0").
		Started(h.Now.Add(-time.Duration(r.rng.IntN(120))*time.Minute)).Limit(fmt.Sprintf("%dh", 1+r.rng.IntN(6))).
		Priority(int64(r.rng.IntN(2000))).On(n.Name, len(gpus), 0, gpus).Build()
	if r.rng.IntN(3) == 0 && len(gpus) > 0 {
		rj.Alloc[0].Borrowed = make([]bool, len(gpus))
		rj.Alloc[0].Borrowed[len(gpus)-1] = true
	}
	h.Running = append(h.Running, rj)
	h.specs[rj.ID] = sched.PendingJob{ID: rj.ID, Partitions: []string{rj.Partition}, Tenant: tenant, User: "u0",
		Shape: sched.Shape{Nodes: 1, GPUs: len(gpus), CPUs: len(gpus)}, Limit: rj.Limit, ArrayRoom: -1}
	h.Runtime[rj.ID] = time.Duration(1+r.rng.IntN(180)) * time.Minute
}

// Submit adds a random pending job.
func (r *Random) Submit(h *Harness) {
	id := r.next
	r.next++
	tenant := r.rng.IntN(len(h.Cfg.Tenants))
	if r.rng.IntN(20) == 0 {
		tenant = len(h.Cfg.Tenants) // unknown: InvalidAccount
	}
	b := Job(fmt.Sprintf("j%d", id)).Tenant(fmt.Sprintf("t%d", tenant)).User("u0").
		Submitted(h.Now.Add(-time.Duration(r.rng.IntN(600)) * time.Minute)).
		Limit([]string{"30m", "1h", "2h", "6h", "10h"}[r.rng.IntN(5)]).
		Partition([][]string{{"normal"}, {"normal"}, {"batch"}, {"batch"}, {"urgent"}, {"batch", "normal"}, {"nosuch"}}[r.rng.IntN(7)]...)
	switch r.rng.IntN(4) {
	case 0:
		b.GPUs(1 + r.rng.IntN(8))
	case 1:
		b.Nodes(1 + r.rng.IntN(3)).GPUsPerNode(1 + r.rng.IntN(8))
	case 2:
		b.GPUs(r.rng.IntN(20))
	default:
		if r.rng.IntN(3) == 0 {
			b.GPUs(0).CPUs(1 + r.rng.IntN(40))
		} else {
			b.GPUs(1 + r.rng.IntN(4))
		}
	}
	r.constrain(b, h)
	h.Pending = append(h.Pending, b.Build())
	h.Runtime[id] = time.Duration(1+r.rng.IntN(300)) * time.Minute
}

// constrain adds the rarer request options.
func (r *Random) constrain(b *JobBuilder, h *Harness) {
	switch r.rng.IntN(24) {
	case 0:
		b.Exclusive()
	case 1:
		b.NodeList(h.Nodes[r.rng.IntN(len(h.Nodes))].Name)
	case 2:
		b.Exclude(h.Nodes[r.rng.IntN(len(h.Nodes))].Name)
	case 3:
		b.Features("ib")
	case 4:
		b.GPUType("h100")
	case 5:
		b.Array(2+r.rng.IntN(4), -1+r.rng.IntN(3))
	case 6:
		b.Hold([]sched.HoldReason{sched.HeldUser, sched.HeldAdmin, sched.HeldDependency, sched.HeldDependencyNever}[r.rng.IntN(4)])
	case 7:
		b.Begin(h.Now.Add(time.Duration(r.rng.IntN(120)) * time.Minute))
	case 8:
		b.Nice(r.rng.IntN(200)).QOS(r.rng.IntN(20)).LostRun("2h")
	case 9:
		b.MemPerGPU(int64(r.rng.IntN(200000)))
	}
}

// Step advances the harness to its next event or by a random time, with
// some new submissions, and reports what happened.
func (r *Random) Step(h *Harness) []string {
	var events []string
	if ev, ok := h.Step(h.Now.Add(time.Duration(1+r.rng.IntN(120)) * time.Minute)); ok {
		events = ev
	} else {
		h.Advance(time.Duration(1+r.rng.IntN(60)) * time.Minute)
	}
	for k := r.rng.IntN(4); k > 0; k-- {
		r.Submit(h)
	}
	if r.rng.IntN(10) == 0 && len(h.Nodes) > 0 {
		n := &h.Nodes[r.rng.IntN(len(h.Nodes))]
		n.State = []sched.NodeState{sched.NodeUp, sched.NodeDrain}[r.rng.IntN(2)]
	}
	return events
}
