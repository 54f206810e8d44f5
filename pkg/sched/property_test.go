package sched_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/sched/schedtest"
)

// simulate runs a random cluster for steps cycles, checking every plan,
// and returns the decision log.
func simulate(t testing.TB, seed uint64, policy sched.Policy, steps int) string {
	r := schedtest.NewRandom(seed)
	h := r.Harness(policy)
	for i := 0; i < steps; i++ {
		if _, err := h.Cycle(); err != nil {
			t.Fatalf("seed %d policy %d cycle %d: %v\n%s", seed, policy, i, err, h.Log[len(h.Log)-1])
		}
		r.Step(h)
	}
	return strings.Join(h.Log, "")
}

// TestRandomClustersKeepInvariants runs many random clusters through every
// policy: every plan passes CheckPlan, and a second run of the same input
// gives a byte-identical decision log.
func TestRandomClustersKeepInvariants(t *testing.T) {
	seeds := uint64(150)
	if testing.Short() {
		seeds = 20
	}
	for seed := uint64(0); seed < seeds; seed++ {
		for _, pol := range []sched.Policy{sched.PolicyLoam, sched.PolicyEASY, sched.PolicyFCFS} {
			first := simulate(t, seed, pol, 12)
			if again := simulate(t, seed, pol, 12); again != first {
				t.Fatalf("seed %d policy %d: two runs differ (-first +again):\n%s", seed, pol, cmp.Diff(first, again))
			}
		}
	}
}

// TestCycleIgnoresInputOrder shuffles the snapshot's slices: Cycle may use
// their order only to break ties by job id, so the plan must not change.
func TestCycleIgnoresInputOrder(t *testing.T) {
	for seed := uint64(0); seed < 40; seed++ {
		h := schedtest.NewRandom(seed).Harness(sched.PolicyLoam)
		snap := h.Snapshot()
		want := sched.New(h.Cfg).Cycle(snap).Text(schedtest.Epoch)
		rev := h.Snapshot()
		reverse(rev.Nodes)
		reverse(rev.Running)
		reverse(rev.Pending)
		reverse(rev.Reservations)
		reverse(rev.Usage)
		if got := sched.New(h.Cfg).Cycle(rev).Text(schedtest.Epoch); got != want {
			t.Errorf("seed %d: plan depends on input order (-want +got):\n%s", seed, cmp.Diff(want, got))
		}
	}
}

// TestSchedulerReuseKeepsNoState runs one Scheduler over different
// snapshots: its scratch memory must not leak from one cycle into the next.
func TestSchedulerReuseKeepsNoState(t *testing.T) {
	h1 := schedtest.NewRandom(3).Harness(sched.PolicyLoam)
	h2 := schedtest.NewRandom(4).Harness(sched.PolicyLoam)
	h2.Cfg = h1.Cfg
	s := sched.New(h1.Cfg)
	want := sched.New(h1.Cfg).Cycle(h1.Snapshot()).Text(schedtest.Epoch)
	s.Cycle(h2.Snapshot())
	if got := s.Cycle(h1.Snapshot()).Text(schedtest.Epoch); got != want {
		t.Errorf("a reused Scheduler planned differently (-fresh +reused):\n%s", cmp.Diff(want, got))
	}
}

func reverse[T any](s []T) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// FuzzCycle drives random clusters from the fuzzer's seed through a few
// cycles of each policy; CheckPlan must hold and runs must repeat.
func FuzzCycle(f *testing.F) {
	for _, s := range []uint64{1, 7, 42, 1234} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		for _, pol := range []sched.Policy{sched.PolicyLoam, sched.PolicyEASY, sched.PolicyFCFS} {
			first := simulate(t, seed, pol, 6)
			if again := simulate(t, seed, pol, 6); again != first {
				t.Fatalf("seed %d policy %d: two runs differ", seed, pol)
			}
		}
	})
}
