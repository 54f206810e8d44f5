package estimate

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// one8 is a pool of one 8-GPU node.
var one8 = []Pool{{GPUs: 8, CPUs: 64}}

func gpus(n int) Use { return Use{Pool: 0, GPUs: n, CPUs: 1} }

func running(id uint32, user string, ago, limit time.Duration, n int) Running {
	return Running{ID: id, User: user, Tenant: "t", Start: t0.Add(-ago), Limit: limit, Use: []Use{gpus(n)}}
}

func pending(id uint32, user string, limit time.Duration, n int, planned time.Duration) Pending {
	return Pending{ID: id, User: user, Tenant: "t", Need: gpus(n), Limit: limit, Planned: t0.Add(planned)}
}

// waits turns estimates into waits from t0 in minutes (-1: none).
func waits(ts []time.Time) []int {
	out := make([]int, len(ts))
	for i, t := range ts {
		out[i] = -1
		if !t.IsZero() {
			out[i] = int(math.Round(t.Sub(t0).Minutes()))
		}
	}
	return out
}

// near compares minutes within 10%: the profile's bins and the ratio
// bins are coarse.
func near(want, got []int) bool {
	if len(want) != len(got) {
		return false
	}
	for i := range want {
		if d := math.Abs(float64(want[i] - got[i])); d > 0.1*math.Abs(float64(want[i]))+2 {
			return false
		}
	}
	return true
}

func TestEstimate(t *testing.T) {
	tests := map[string]struct {
		ends  []float64 // ratios of jobs that ended, user "u"
		in    Input
		wantM []int // expected waits in minutes (-1: none)
	}{
		"with no history a job is expected to use half its limit": {
			in:    Input{Running: []Running{running(1, "u", 0, 10*time.Hour, 8)}, Pending: []Pending{pending(2, "u", time.Hour, 8, 10*time.Hour)}},
			wantM: []int{300},
		},
		"a user whose jobs use a tenth of their limit": {
			ends:  []float64{0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1},
			in:    Input{Running: []Running{running(1, "u", 0, 10*time.Hour, 8)}, Pending: []Pending{pending(2, "u", time.Hour, 8, 10*time.Hour)}},
			wantM: []int{71},
		},
		"a job that outlived most of its kind is expected to run long": {
			ends: []float64{0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.02, 0.9, 0.9, 0.9, 0.9},
			in: Input{Running: []Running{running(1, "u", 2*time.Hour, 10*time.Hour, 8)},
				Pending: []Pending{pending(2, "u", time.Hour, 8, 8*time.Hour)}},
			wantM: []int{420},
		},
		"jobs queue behind each other in order": {
			ends: []float64{0.5},
			in: Input{Running: []Running{running(1, "u", 0, 4*time.Hour, 8)},
				Pending: []Pending{pending(2, "u", 4*time.Hour, 8, 4*time.Hour), pending(3, "u", 4*time.Hour, 8, 8*time.Hour)}},
			wantM: []int{120, 240},
		},
		"a small job backfills where it fits": {
			in: Input{Running: []Running{running(1, "u", 0, 4*time.Hour, 4)},
				Pending: []Pending{pending(2, "u", 4*time.Hour, 8, 4*time.Hour), pending(3, "u", time.Hour, 4, 0)}},
			wantM: []int{120, 0},
		},
		"held jobs and jobs too big for the pool keep the plan's answer": {
			in:    Input{Pending: []Pending{{ID: 2, Need: gpus(1)}, pending(3, "u", time.Hour, 16, 5*time.Hour)}},
			wantM: []int{-1, 300},
		},
		"a begin time is respected": {
			in: Input{Pending: []Pending{{ID: 2, User: "u", Tenant: "t", Need: gpus(1), Limit: time.Hour,
				Planned: t0.Add(3 * time.Hour), NotBefore: t0.Add(3 * time.Hour)}}},
			wantM: []int{180},
		},
		"a job held back by its quota waits for it to free, sooner than on limits": {
			in: Input{Pending: []Pending{{ID: 2, User: "u", Tenant: "t", Need: gpus(1), Limit: time.Hour,
				Planned: t0.Add(4 * time.Hour), Limited: true}}},
			wantM: []int{120},
		},
		"a running job past its limit frees at once": {
			in:    Input{Running: []Running{running(1, "u", 5*time.Hour, 4*time.Hour, 8)}, Pending: []Pending{pending(2, "u", time.Hour, 8, 0)}},
			wantM: []int{1},
		},
		"an unlimited running job never frees": {
			in:    Input{Running: []Running{running(1, "u", 0, 0, 8)}, Pending: []Pending{pending(2, "u", time.Hour, 8, 9*time.Hour)}},
			wantM: []int{540},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			m := NewModel(Config{NoTrend: true})
			for _, x := range tc.ends {
				m.ObserveEnd("u", "t", 10*time.Hour, time.Duration(x*float64(10*time.Hour)))
			}
			in := tc.in
			in.Now, in.Pools = t0, one8
			got := waits(m.Estimate(&in))
			if !near(tc.wantM, got) {
				t.Errorf("waits (minutes) want %v, got %v", tc.wantM, got)
			}
		})
	}
}

func TestRatioShrinksTowardsTheTenantAndTheCluster(t *testing.T) {
	m := NewModel(Config{})
	if r := m.Ratio("x", "y"); math.Abs(r-0.5) > 1e-9 {
		t.Errorf("prior ratio %v", r)
	}
	for range 20 {
		m.ObserveEnd("quick", "a", time.Hour, 6*time.Minute)
		m.ObserveEnd("slow", "a", time.Hour, 54*time.Minute)
	}
	m.ObserveEnd("new", "a", time.Hour, 6*time.Minute)
	quick, slow, newcomer, stranger := m.Ratio("quick", "a"), m.Ratio("slow", "a"), m.Ratio("new", "a"), m.Ratio("x", "b")
	if !(quick < 0.2 && slow > 0.8) {
		t.Errorf("users with 20 jobs: quick %.2f slow %.2f", quick, slow)
	}
	if !(newcomer > quick && newcomer < 0.5) {
		t.Errorf("one quick job pulls a newcomer only part of the way: %.2f", newcomer)
	}
	if math.Abs(stranger-0.5) > 0.05 {
		t.Errorf("an unknown user of an unknown tenant gets the cluster's ratio: %.2f", stranger)
	}
	if m.Ratio("slow", "a") == m.Ratio("slow", "b") {
		t.Errorf("a user's ratio is per tenant")
	}
	// Limits of 0 (unlimited) and negative run times teach nothing.
	before := m.Stats().Finished
	m.ObserveEnd("u", "a", 0, time.Hour)
	m.ObserveEnd("u", "a", time.Hour, -time.Second)
	if m.Stats().Finished != before {
		t.Errorf("unusable ends were learned")
	}
}

// TestTrendLearnsFromStarts: jobs that keep starting twice as late as
// predicted stretch later predictions of the same horizon.
func TestTrendLearnsFromStarts(t *testing.T) {
	m := NewModel(Config{})
	now := t0
	behind := func(id uint32) *Input {
		return &Input{Now: now, Pools: one8,
			Running: []Running{{ID: 999, User: "u", Tenant: "t", Start: now, Limit: 3 * time.Hour, Use: []Use{gpus(8)}}},
			Pending: []Pending{{ID: id, User: "u", Tenant: "t", Need: gpus(8), Limit: time.Hour, Planned: now.Add(3 * time.Hour)}}}
	}
	for i := range 60 {
		m.Estimate(behind(uint32(i + 1)))
		// On the prior the job is predicted to start in about 1.5 h
		// (half the running job's limit); it starts in 3 h.
		m.ObserveStart(uint32(i+1), now.Add(3*time.Hour))
		now = now.Add(time.Hour)
	}
	f := m.Stats().Trend[2] // predictions of 1-4 h
	if f < 1.7 || f > 2.3 {
		t.Errorf("trend factor of the 1-4 h horizon after doubled waits: %.2f, want about 2", f)
	}
	// 1.5 h lies between the 10 min-1 h horizon's centre (25 min, no data:
	// factor 1) and the 1-4 h one's (2 h, factor 2): most of the stretch.
	if w := m.Estimate(behind(500))[0].Sub(now); w < 2*time.Hour || w > 3*time.Hour {
		t.Errorf("a 1.5 h prediction is now %v, want it stretched towards 3 h", w)
	}
}

// TestTrendKeepsOrder: whatever the learned factors, a later raw
// prediction never becomes an earlier estimate.
func TestTrendKeepsOrder(t *testing.T) {
	for _, logs := range [][numHorizons]float64{{0.2, -1.4, -1.4, -0.2, 0.3, 1.3}, {1.3, -1.3, 0.5, -1.3, 1.3, -1.3}, {-1.3, 1.3, -1.3, 1.3, -1.3, 1.3}} {
		m := NewModel(Config{})
		for h, v := range logs {
			m.trend[h] = ewma{n: 1, v: v}
		}
		prev := int64(-1)
		for w := int64(0); w < 10*24*3600; w += 60 {
			got := m.withTrend(0, w)
			if got < prev {
				t.Fatalf("factors %v: wait %d s maps to %d s, below %d s for a shorter one", logs, w, got, prev)
			}
			prev = got
		}
	}
}

func TestForgetAndSweep(t *testing.T) {
	m := NewModel(Config{})
	in := &Input{Now: t0, Pools: one8, Pending: []Pending{pending(1, "u", time.Hour, 1, 0), pending(2, "u", time.Hour, 1, 0)}}
	m.Estimate(in)
	m.Forget(1)
	in.Pending = in.Pending[:0]
	m.Estimate(in)
	if diff := cmp.Diff(0, len(m.probe)); diff != "" {
		t.Errorf("probes left (-want +got):\n%s", diff)
	}
}

func TestLayout(t *testing.T) {
	l := NewLayout([]PartitionNodes{{"all", []string{"a", "b", "c"}}, {"gpu", []string{"b", "a"}}, {"same", []string{"a", "b"}}},
		[]Node{{Name: "a", GPUs: 8, CPUs: 10, Up: true}, {Name: "b", GPUs: 8, CPUs: 10, Up: false}, {Name: "c", GPUs: 4, CPUs: 10, Up: true}})
	if diff := cmp.Diff([]Pool{{GPUs: 12, CPUs: 20}, {GPUs: 8, CPUs: 10}}, l.Pools()); diff != "" {
		t.Errorf("pools (-want +got):\n%s", diff)
	}
	if l.Pool("gpu") != 1 || l.Pool("same") != 1 || l.Pool("all") != 0 || l.Pool("nope") != -1 {
		t.Errorf("partition pools: %d %d %d %d", l.Pool("gpu"), l.Pool("same"), l.Pool("all"), l.Pool("nope"))
	}
	got := l.Held([]NodeUse{{"a", 2, 3}, {"b", 8, 8}, {"c", 1, 1}})
	want := []Use{{Pool: 0, GPUs: 3, CPUs: 4}, {Pool: 1, GPUs: 2, CPUs: 3}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("held (-want +got):\n%s", diff)
	}
}
