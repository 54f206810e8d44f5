package sched_test

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/loamhpc/loam/pkg/sched"
	"github.com/loamhpc/loam/pkg/sched/schedtest"
)

func TestDecayUsage(t *testing.T) {
	t0 := schedtest.Epoch
	h := time.Hour
	gpuJob := schedtest.Running("j1").Tenant("a").User("u").Started(t0).On("n1", 4, 0, []int{0, 1}).Build()
	cpuJob := schedtest.Running("j2").Tenant("b").User("v").Started(t0.Add(h)).On("n2", 8, 0, nil).Build()
	cases := map[string]struct {
		prev     []sched.Usage
		running  []sched.RunningJob
		from, to time.Time
		half     time.Duration
		want     []sched.Usage
	}{
		"usage halves after one half-life": {
			prev: []sched.Usage{{Tenant: "a", GPUSec: 1000}, {Tenant: "a", User: "u", GPUSec: 400, CPUSec: 10}},
			from: t0, to: t0.Add(h), half: h,
			want: []sched.Usage{{Tenant: "a", GPUSec: 500}, {Tenant: "a", User: "u", GPUSec: 200, CPUSec: 5}},
		},
		"without a half-life a GPU job adds GPU-seconds to tenant and user": {
			running: []sched.RunningJob{gpuJob},
			from:    t0, to: t0.Add(h),
			want: []sched.Usage{{Tenant: "a", GPUSec: 7200}, {Tenant: "a", User: "u", GPUSec: 7200}},
		},
		"a CPU-only job adds CPU-seconds, counted from its start": {
			running: []sched.RunningJob{cpuJob},
			from:    t0, to: t0.Add(2 * h),
			want: []sched.Usage{{Tenant: "b", CPUSec: 8 * 3600}, {Tenant: "b", User: "v", CPUSec: 8 * 3600}},
		},
		"accrual decays continuously: 2 GPUs for one half-life": {
			running: []sched.RunningJob{gpuJob},
			from:    t0, to: t0.Add(h), half: h,
			want: []sched.Usage{{Tenant: "a", GPUSec: 2 * 3600 / math.Ln2 / 2}, {Tenant: "a", User: "u", GPUSec: 2 * 3600 / math.Ln2 / 2}},
		},
		"entries that decayed to nothing are dropped": {
			prev: []sched.Usage{{Tenant: "a", GPUSec: 1e-3}},
			from: t0, to: t0.Add(100 * h), half: h,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			prev := append([]sched.Usage(nil), tc.prev...)
			got := sched.DecayUsage(tc.prev, tc.running, tc.from, tc.to, tc.half)
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateApprox(1e-9, 1e-6), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("DecayUsage (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(prev, tc.prev, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("DecayUsage changed its input:\n%s", diff)
			}
		})
	}
}

// TestDecayUsageDoesNotDependOnCallRate checks that decaying in many small
// steps gives what one big step gives.
func TestDecayUsageDoesNotDependOnCallRate(t *testing.T) {
	run := []sched.RunningJob{schedtest.Running("j1").Tenant("a").User("u").On("n1", 1, 0, []int{0, 1, 2}).Build()}
	prev := []sched.Usage{{Tenant: "a", GPUSec: 5000}}
	once := sched.DecayUsage(prev, run, schedtest.Epoch, schedtest.Epoch.Add(6*time.Hour), 2*time.Hour)
	steps := prev
	for k := 0; k < 36; k++ {
		from := schedtest.Epoch.Add(time.Duration(k) * 10 * time.Minute)
		steps = sched.DecayUsage(steps, run, from, from.Add(10*time.Minute), 2*time.Hour)
	}
	if diff := cmp.Diff(once, steps, cmpopts.EquateApprox(1e-9, 0)); diff != "" {
		t.Errorf("6 hours at once vs in 36 steps (-once +steps):\n%s", diff)
	}
}
